"""A simple rule-based player, the plain yardstick of the variant benchmarks.

It is written from three rules of thumb and nothing else: race when ahead,
make points, avoid blots.  Each legal result board (the mover's view after the
play, 26 ints as in ``table.rules.board``) gets a hand-set score in pips:

- **In a race** (no contact before the play): fewer checkers left on the
  board first, then fewer pips (which is pips not wasted), then a little for
  a smooth home board (no stacks, no gaps).
- **In contact**: the pip lead (so hitting counts by the pips it costs the
  opponent); a value for each made point, highest for the home board's
  5- and 6-points and the bar point, and the anchors on the opponent's 4- and
  5-points; a bonus for the longest run of made points (a prime); a bonus per
  opponent checker on the bar, larger the more home points are made; and for
  each of the opponent's 21 rolls, the cost of the dearest blot it can hit
  (direct and indirect shots, blocked by made points on the way), weighted by
  how often the roll comes.  When the mover leads the race, breaking contact
  earns the lead, and back checkers still in the opponent's home board cost.

It reads only the board, never the dice to come, so it plays any variant on
the standard board and step rule, and the variants whose checkers start off the board
(Race, Dutch, Acey-Deucey: 28-entry boards) on the folded board, where a checker still
waiting counts as one on the bar.  The weights are round numbers chosen by
hand, then checked with a few short duels against pubeval.

>>> from table import Position
>>> str(choose_play(Position.initial(), (3, 1)))  # the 5-point
'8/5 6/5'
>>> str(choose_play(Position.from_checkers({6: 1, 5: 1, 2: 3}, {1: 15}), (6, 5)))
'6/off 5/off'
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.bot.search import fold
from table.rules.board import BAR, BOARD_SIZE, HOME, checkers_on, flip_rows, is_race
from table.rules.position import Play, Position
from table.rules.reserve import flip_reserve_rows

# The value, in pips, of a made point (two or more of the mover's checkers) by its number.
POINT_VALUE = np.array(
    [0.0,
     3.0, 5.0, 7.0, 10.0, 14.0, 13.0,  # the home board, the 5-point most
     11.0, 7.0, 4.0, 3.0, 2.0, 2.0,  # the bar point, then the outfield
     1.0, 1.0, 1.0, 1.0, 1.0, 2.0,
     2.0, 6.0, 6.0, 3.0, 2.0, 1.0,  # anchors: the opponent's 5- and 4-points best
     0.0], dtype=np.float64)
# The bonus for the longest run of made points, by its length (6 and more: a full prime).
PRIME_BONUS = np.array([0.0, 0.0, 1.0, 4.0, 9.0, 16.0, 26.0], dtype=np.float64)
HIT_BONUS = 4.0  # each opponent checker on the bar, beyond the pips it lost ...
HIT_PER_HOME_POINT = 2.0  # ... and more for each home point it must enter against
BLOT_TEMPO = 6.0  # a hit checker costs its pips back to the bar and this much more
STACK = 1.0  # each checker beyond three on a point
ON_ROLL = 8.0  # the pips the side on roll is worth in a race
BACK_CHECKER = 3.0  # each back checker when ahead in the race
RACE_BREAK = 1.0  # breaking contact, per pip of lead (negative when behind)
RACE_OFF = 12.0  # in a race, each checker borne off against pips
RACE_GAP = 1.0  # in a race, each empty home point below a checker still home


@njit(cache=True)
def pips(board: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """Pip counts (mover, opponent) of a mover's-view board."""
    mine = 0
    theirs = 0
    for i in range(BOARD_SIZE):
        n = board[i]
        if n > 0:
            mine += i * n
        elif n < 0:
            theirs -= (BAR - i) * n
    return mine, theirs


@njit(cache=True)
def _hits(board: np.ndarray, shooter: int, blot: int, a: int, b: int) -> bool:  # pragma: no cover
    """Whether an opponent's checker on ``shooter`` (mover's numbering, 0 = its bar) can reach
    the mover's blot on ``blot`` with the roll ``a``-``b``, points the mover has made blocking
    the way."""
    d = blot - shooter
    if a != b:
        if d == a or d == b:
            return True
        if d == a + b:
            return bool(board[shooter + a] < 2 or board[shooter + b] < 2)
        return False
    for k in range(1, 5):
        step = shooter + k * a
        if step == blot:
            return True
        if step > blot or board[step] >= 2:
            return False
    return False


@njit(cache=True)
def shot_cost(board: np.ndarray) -> float:  # pragma: no cover - compiled
    """The expected cost, in pips, of the opponent's next roll hitting a blot of the mover's:
    for each roll, the dearest blot it can hit (a checker hit on point ``i`` goes back to the
    bar, losing ``25 - i`` pips and ``BLOT_TEMPO`` more), weighted by the roll's chance."""
    total = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            worst = 0.0
            for blot in range(1, BAR):
                if board[blot] != 1:
                    continue
                cost = BAR - blot + BLOT_TEMPO
                if cost <= worst:
                    continue
                for shooter in range(0, blot):
                    if board[shooter] < 0 and _hits(board, shooter, blot, a, b):
                        worst = cost
                        break
            total += worst * (1.0 if a == b else 2.0)
    return total / 36.0


@njit(cache=True)
def race_score(board: np.ndarray) -> float:  # pragma: no cover - compiled
    """A race's score of a mover's-view board: checkers off first, then pips, then smoothness."""
    on = 0
    stack = 0
    gaps = 0
    highest = 0
    for i in range(1, BOARD_SIZE):
        n = board[i]
        if n > 0:
            on += n
            highest = i
            if n > 3:
                stack += n - 3
    for i in range(1, min(highest, HOME + 1)):
        if board[i] <= 0:
            gaps += 1
    return -RACE_OFF * on - pips(board)[0] - STACK * stack - RACE_GAP * gaps


@njit(cache=True)
def contact_score(board: np.ndarray) -> float:  # pragma: no cover - compiled
    """A contact position's score of a mover's-view board after the mover's play."""
    mine, theirs = pips(board)
    lead = theirs - mine - ON_ROLL  # the opponent is on roll next
    s = float(theirs - mine)
    if is_race(board):
        s += RACE_BREAK * lead  # contact broken: good when ahead, bad when behind
    run = 0
    longest = 0
    home_points = 0
    for i in range(1, BAR):
        n = board[i]
        if n >= 2:
            s += POINT_VALUE[i]
            run += 1
            longest = max(longest, run)
            if i <= HOME:
                home_points += 1
            if n > 3:
                s -= STACK * (n - 3)
        else:
            run = 0
    s += PRIME_BONUS[min(longest, 6)]
    s += -board[0] * (HIT_BONUS + HIT_PER_HOME_POINT * home_points)
    if lead > 0:
        for i in range(BAR - HOME, BOARD_SIZE):
            if board[i] > 0:
                s -= BACK_CHECKER * board[i]
    return float(s - shot_cost(board))


@njit(cache=True)
def pick(before: np.ndarray, boards: np.ndarray, n: int) -> int:  # pragma: no cover - compiled
    """Index of the rule-based choice among ``n`` mover's-view result boards of the play
    from ``before`` (26 entries, or 28 with checkers waiting off the board); the first of
    equals, so the same boards give the same choice."""
    folded = np.empty(BOARD_SIZE, dtype=np.int8)
    race = is_race(fold(before, folded))
    scores = np.empty(n, dtype=np.float64)
    for c in range(n):
        b = fold(boards[c], folded)
        if checkers_on(b)[0] == 0:
            return c  # the last checker borne off wins
        scores[c] = race_score(b) if race else contact_score(b)
    return int(np.argmax(scores))


def choose_play(position: Position, dice: tuple[int, int]) -> Play | None:
    """The rule-based play for ``dice``, or None when nothing can be played."""
    plays = position.legal_plays(dice)
    if not plays:
        return None
    # Each play's position is the opponent's view; turned round, it is the mover's.
    rows = np.array([q.position.board for q in plays], dtype=np.int8)
    after = flip_rows(rows) if rows.shape[1] == BOARD_SIZE else flip_reserve_rows(rows)
    return plays[pick(np.array(position.board, dtype=np.int8), after, len(plays))]
