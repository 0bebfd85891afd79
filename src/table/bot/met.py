"""Match equities computed by Table from a simple, stated model, and the cube model behind them.

The model (in the tradition of Keeler and Spencer's continuous-cube analysis):

* every game starts even (50% each); a fixed share ``GAMMONS`` of the wins
  of either side are gammons (backgammons are folded into gammons);
* within a game the winning chance moves continuously, so a player with
  access to the cube doubles exactly at the opponent's take point, and the
  value of a game is linear in the winning chance between those points;
* the Crawford rule: after a player first reaches 1-away the next game is
  played without the cube; after it the trailer doubles at once and the
  leader takes -- or drops, where dropping is worth more: the *free drop*.
  When the trailer needs an even number of points, a drop leaves him
  needing as many doubled games as before, so the leader drops whenever he
  is the underdog in the game.  His chance in the game when the double
  comes is taken as spread evenly over 50% +/- ``FREE_DROP_SPREAD``.

``match_equity(a, b)`` is the chance that the player needing ``a`` points
wins against one needing ``b``; ``crawford=True`` marks the Crawford game and
``post_crawford=True`` a later game.

>>> match_equity(2, 2)
0.5
>>> round(match_equity(1, 2, crawford=True), 3) > 0.6
True
>>> round(match_equity(3, 5) + match_equity(5, 3), 12)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

GAMMONS = 0.20  # share of wins that are gammons, in the model table
# The leader's chance in the game at the trailer's first turn to double, post-Crawford, has a
# standard deviation of 0.036 by Table's network over the opening exchanges (docs/cube.md):
# an even spread of that deviation is +/- 0.036 * sqrt(3).
FREE_DROP_SPREAD = 0.06


def answer_first_double(keep: float, drop: float, spread: float = FREE_DROP_SPREAD) -> float:
    """The leader's chance, post-Crawford, when the trailer doubles at once.

    ``keep`` is the leader's chance after losing the doubled game, ``drop``
    after dropping; taking with a chance ``q`` in the game is worth
    ``q + (1 - q) * keep``.  ``q`` is spread evenly over 0.5 +/- ``spread``
    and the leader takes or drops, whichever is worth more.

    >>> answer_first_double(0.0, 0.5, 0.0)  # 1-away 2-away, no spread: take or drop, 50%
    0.5
    >>> round(answer_first_double(0.0, 0.5, 0.06), 4)  # the free drop is worth spread / 4
    0.515
    """
    lo, hi = 0.5 - spread, 0.5 + spread

    def take(q: float) -> float:
        return q + (1.0 - q) * keep

    if spread <= 0.0:
        return max(take(0.5), drop)
    # Taking is worth more above q_even, dropping below.
    q_even = min(max((drop - keep) / (1.0 - keep) if keep < 1.0 else lo, lo), hi)
    return (drop * (q_even - lo) + 0.5 * (take(q_even) + take(hi)) * (hi - q_even)) / (hi - lo)


@lru_cache(maxsize=None)
def post_crawford(a: int, b: int, g: float = GAMMONS) -> float:
    """Chance for the player ``a`` away after the Crawford game (one side is 1-away)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if a == 1 and b == 1:
        return 0.5
    if a == 1:
        # The trailer doubles at once: a game for 2 points, 4 with a gammon, or a drop.
        keep = (1 - g) * post_crawford(1, b - 2, g) + g * post_crawford(1, b - 4, g)
        return answer_first_double(keep, post_crawford(1, b - 1, g))
    return 1.0 - post_crawford(b, a, g)


@lru_cache(maxsize=None)
def crawford_game(a: int, b: int, g: float = GAMMONS) -> float:
    """Chance for the player ``a`` away at the start of the Crawford game (no cube)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if a == 1 and b == 1:
        return 0.5
    if a == 1:
        return 0.5 + 0.5 * ((1 - g) * post_crawford(1, b - 1, g) + g * post_crawford(1, b - 2, g))
    return 1.0 - crawford_game(b, a, g)


def match_equity(a: int, b: int, crawford: bool = False, post_crawford_game: bool = False) -> float:
    """Chance that the player needing ``a`` points wins the match against one needing ``b``.

    Pre-Crawford unless told otherwise; at 1-away a pre-Crawford score means
    the Crawford game is next.
    """
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if a == 1 or b == 1:
        if post_crawford_game and not crawford:
            return post_crawford(a, b)
        return crawford_game(a, b)
    return _pre_crawford(a, b, GAMMONS)


@lru_cache(maxsize=None)
def _pre_crawford(a: int, b: int, g: float) -> float:
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if a == 1 or b == 1:
        return crawford_game(a, b, g)
    if a > b:
        return 1.0 - _pre_crawford(b, a, g)
    model = CubeModel(a, b, g, g, 0.0, 0.0, lambda x, y: _pre_crawford(x, y, g))
    return model.centred(0.5)


@dataclass
class CubeModel:
    """The continuous-cube value of one game at a score, in match winning chances for player A.

    ``gw`` and ``gl`` are the shares of A's and B's wins that are gammons or
    better; ``bw`` and ``bl`` the shares that are backgammons.  ``after(a, b)``
    gives A's match winning chance once the game has been scored.
    """

    a: int
    b: int
    gw: float
    gl: float
    bw: float
    bl: float
    after: Callable[[int, int], float]

    def __post_init__(self) -> None:
        self._points: dict[tuple[int, str], float] = {}

    # Outcomes of the game at cube value v.
    def win(self, v: int) -> float:
        """A's match chance if A wins the game at cube ``v`` (gammons weighted in)."""
        single = 1.0 - self.gw
        gam = self.gw - self.bw
        return (single * self.after(self.a - v, self.b) + gam * self.after(self.a - 2 * v, self.b)
                + self.bw * self.after(self.a - 3 * v, self.b))

    def lose(self, v: int) -> float:
        """A's match chance if A loses the game at cube ``v``."""
        single = 1.0 - self.gl
        gam = self.gl - self.bl
        return (single * self.after(self.a, self.b - v) + gam * self.after(self.a, self.b - 2 * v)
                + self.bl * self.after(self.a, self.b - 3 * v))

    def cash_a(self, v: int) -> float:
        """A's match chance when B passes A's double from ``v``."""
        return self.after(self.a - v, self.b)

    def cash_b(self, v: int) -> float:
        """A's match chance when A passes B's double from ``v``."""
        return self.after(self.a, self.b - v)

    def dead(self, v: int, p: float) -> float:
        """A's match chance at cube ``v`` if nobody doubles again."""
        return p * self.win(v) + (1.0 - p) * self.lose(v)

    def _is_dead(self, v: int) -> bool:
        # Once every result decides the match, a bigger cube changes nothing.
        return v >= self.a and v >= self.b

    def a_owns(self, v: int, p: float) -> float:
        """A owns the cube at ``v``: A redoubles at B's take point."""
        plain = self.dead(v, p)
        if self._is_dead(v) or self.a - v <= 0:
            return plain
        t = self._point(v, "a")
        if p >= t:
            doubled = self.cash_a(v)
        else:
            doubled = self.lose(v) + (self.cash_a(v) - self.lose(v)) * p / t
        return max(plain, doubled)

    def b_owns(self, v: int, p: float) -> float:
        """B owns the cube at ``v``: B redoubles at A's take point."""
        plain = self.dead(v, p)
        if self._is_dead(v) or self.b - v <= 0:
            return plain
        t = self._point(v, "b")
        if p <= t:
            doubled = self.cash_b(v)
        else:
            doubled = self.cash_b(v) + (self.win(v) - self.cash_b(v)) * (p - t) / (1.0 - t)
        return min(plain, doubled)

    def centred(self, p: float, v: int = 1) -> float:
        """The cube in the middle at ``v``: each side doubles at the other's take point."""
        hi = self._point(v, "a")  # A doubles here, B still just takes
        lo = self._point(v, "b")  # B doubles here, A still just takes
        if p >= hi:
            return self.cash_a(v)
        if p <= lo:
            return self.cash_b(v)
        return self.cash_b(v) + (self.cash_a(v) - self.cash_b(v)) * (p - lo) / (hi - lo)

    def _point(self, v: int, who: str) -> float:
        """B's take point when A doubles from ``v`` ("a"), or A's when B doubles ("b")."""
        key = (v, who)
        if key not in self._points:
            if who == "a":
                # B takes while A's chance in the doubled game stays at or below the cash.
                def f(p: float) -> float:
                    return self.b_owns(2 * v, p) - self.cash_a(v)
                rising = True
            else:
                def f(p: float) -> float:
                    return self.a_owns(2 * v, p) - self.cash_b(v)
                rising = True
            self._points[key] = _root(f, rising)
        return self._points[key]


def _root(f: Callable[[float], float], rising: bool) -> float:
    """Where a rising function crosses zero in [0, 1] (0 or 1 if it does not)."""
    lo, hi = 0.0, 1.0
    if f(lo) >= 0:
        return 0.0
    if f(hi) <= 0:
        return 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def table(n: int = 15) -> list[list[float]]:
    """The pre-Crawford table for 1..n away each: ``table(n)[a-1][b-1]``."""
    return [[match_equity(a, b) for b in range(1, n + 1)] for a in range(1, n + 1)]
