"""The rule-based players of Plakoto and Fevga, the plain yardstick of their benchmarks.

Like ``table.tools.rulebased`` for the standard board, each scores every legal
result board (the mover's view after the play, the raw Greek boards of
``table.rules.greekkernel``) with hand-set values in pips and takes the best;
it reads only the board, never the dice to come.  Written from rules of thumb:

- **Plakoto:** pin when you can (a pinned opposing checker is worth its pips from
  home and more; the opponent's mother pinned decides the game), avoid leaving
  blots that can be pinned (for each of the opponent's 21 rolls, the dearest of
  your lone checkers it can land on, by direct or combined shots through points
  not closed to it), bring checkers home (fewer pips), and make points.
- **Fevga:** advance (fewer pips, the first checker past the opponent's start),
  make points, block (points held in the six in front of the opponent's
  rearmost checker, and the longest run of points held), without stacking.

In a race (no contact, ``greekfeatures.pick_net``) both bear off first: fewest
checkers left, then fewest pips.  The weights are round numbers set by hand.

>>> from table import Position
>>> p = Position.from_checkers({24: 13, 6: 1, 5: 1}, {24: 14, 22: 1}, "plakoto")
>>> str(choose_play(p, (2, 1)))  # pins the lone checker on the opponent's 22 (our 3)
'6/3*'
>>> str(choose_play(Position.initial("fevga"), (6, 5)))  # the first checker runs
'24/13'
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.bot.greekfeatures import game_code, pick_net, pin_reach
from table.bot.net import RACE
from table.errors import VariantError
from table.rules.greek import game_for
from table.rules.greekkernel import CHECKERS, PINS, PLAKOTO, rotated, turn_round
from table.rules.position import Play, Position

# The bonus for the longest run of points held, by its length (6: a full prime).
PRIME_BONUS = np.array([0.0, 0.0, 1.0, 4.0, 9.0, 16.0, 26.0], dtype=np.float64)
PIN = 10.0  # an opposing checker pinned, beyond its pips from home
MOTHER = 100.0  # the opponent's mother pinned (or ours)
PINNED = 10.0  # one of ours pinned, beyond its pips from home
MADE = 3.0  # each point of ours with two or more checkers
HOME_MADE = 2.0  # ... and more in the home board
RACE_OFF = 12.0  # in a race, each checker borne off against pips
HELD = 2.0  # Fevga: each point held
BLOCK = 4.0  # Fevga: each point held in the six in front of the opponent's rearmost checker
PASSED = 8.0  # Fevga: the first checker past the opponent's start
STACK = 1.0  # each checker beyond three on a point (Fevga: not on the 24-point)


@njit(cache=True)
def _pips(b: np.ndarray, game: int) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """(mover's pips, opponent's pips, mover's checkers on the board), each side by its own numbers."""
    mine = 0
    theirs = 0
    on = 0
    for p in range(1, 25):
        n = b[p]
        if game == PLAKOTO:
            pin = b[PINS + p]
            if n > 0:
                mine += n * p
                on += n
            elif n < 0:
                theirs -= n * (25 - p)
            if pin > 0:
                mine += p
                on += 1
            elif pin < 0:
                theirs += 25 - p
        elif n > 0:
            mine += n * p
            on += n
        elif n < 0:
            theirs -= n * rotated(p)
    return mine, theirs, on


@njit(cache=True)
def pin_cost(b: np.ndarray) -> float:  # pragma: no cover - compiled
    """Plakoto: the expected cost of the opponent's next roll pinning a lone checker of the
    mover's (its pips from home and ``PINNED``; ``MOTHER`` for the last one on the 24-point)."""
    blots = np.empty(24, dtype=np.int64)
    nb = 0
    shooters = np.empty(24, dtype=np.int64)
    ns = 0
    for p in range(24, 0, -1):  # the dearest blot first: the rearmost
        if p >= 2 and b[p] == 1 and b[PINS + p] >= 0:
            blots[nb] = p
            nb += 1
    for p in range(1, 25):
        if b[p] < 0:
            shooters[ns] = p
            ns += 1
    if nb == 0 or ns == 0:
        return 0.0
    total = 0.0
    for a in range(1, 7):
        for c in range(a, 7):
            worst = 0.0
            for i in range(nb):
                q = blots[i]
                for j in range(ns):
                    s = shooters[j]
                    if s >= q:
                        break
                    if pin_reach(b, s, q, a, c, 1):
                        worst = MOTHER if q == 24 else PINNED + q
                        break
                if worst > 0.0:
                    break
            total += worst * (1.0 if a == c else 2.0)
    return total / 36.0


@njit(cache=True)
def plakoto_score(b: np.ndarray) -> float:  # pragma: no cover - compiled
    """A contact position's score of a mover's-view Plakoto board after the mover's play."""
    mine, theirs, _on = _pips(b, PLAKOTO)
    s = float(theirs - mine)
    run = 0
    longest = 0
    for p in range(1, 25):
        pin = b[PINS + p]
        if pin < 0:  # we hold one of theirs: stuck 25 - p from its home, and blocking its bear-off
            s += PIN + (25 - p)
        elif pin > 0:
            s -= PINNED + p
        if b[p] >= 2:
            s += MADE + (HOME_MADE if p <= 6 else 0.0)
        if b[p] >= 2 or (b[p] > 0 and pin < 0):
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    s += PRIME_BONUS[min(longest, 6)]
    if b[PINS + 1] < 0:
        s += MOTHER
    if b[PINS + 24] > 0:
        s -= MOTHER
    return float(s - pin_cost(b))


@njit(cache=True)
def fevga_score(b: np.ndarray) -> float:  # pragma: no cover - compiled
    """A contact position's score of a mover's-view Fevga board after the mover's play."""
    mine, theirs, on = _pips(b, 1)
    s = float(theirs - mine)
    run = 0
    longest = 0
    passed = on < CHECKERS
    for p in range(1, 25):
        n = b[p]
        if n > 0:
            s += HELD
            run += 1
            longest = max(longest, run)
            if p <= 11:
                passed = True
            if n > 3 and p != 24:
                s -= STACK * (n - 3)
        else:
            run = 0
    s += PRIME_BONUS[min(longest, 6)]
    if passed:
        s += PASSED
    # The opponent's rearmost checker, by its own numbers, and our points in front of it.
    rear = 0
    for r in range(24, 0, -1):
        if b[rotated(r)] < 0:
            rear = r
            break
    for r in range(max(1, rear - 6), rear):
        if b[rotated(r)] > 0:
            s += BLOCK
    return float(s)


@njit(cache=True)
def pick(before: np.ndarray, boards: np.ndarray, n: int, game: int) -> int:  # pragma: no cover
    """Index of the rule-based choice among ``n`` mover's-view result boards of the play from
    ``before`` (a Greek board; ``game`` its ``greekkernel`` code); the first of equals."""
    race = pick_net(before, game) == RACE
    scores = np.empty(n, dtype=np.float64)
    for c in range(n):
        b = boards[c]
        mine, _theirs, on = _pips(b, game)
        if on == 0:
            return c  # the last checker borne off wins
        if race:
            scores[c] = -RACE_OFF * on - mine
        elif game == PLAKOTO:
            scores[c] = plakoto_score(b)
        else:
            scores[c] = fevga_score(b)
    return int(np.argmax(scores))


def choose_play(position: Position, dice: tuple[int, int]) -> Play | None:
    """The rule-based play of a Plakoto or Fevga ``position`` for ``dice``, None when nothing
    can be played."""
    if game_for(position.variant.rules) is None:
        raise VariantError(f"{position.variant.title} is not Plakoto or Fevga: "
                           "table.tools.rulebased plays it")
    plays = position.legal_plays(dice)
    if not plays:
        return None
    rows = np.array([q.position.board for q in plays], dtype=np.int8)
    after = np.empty_like(rows)
    for k in range(len(rows)):
        turn_round(rows[k], after[k])
    board = np.array(position.board, dtype=np.int8)
    return plays[pick(board, after, len(plays), game_code(board.shape[0]))]
