"""The network's inputs: one compiled encoder used by training and play alike.

A position is encoded from the side of the player on roll.  Each side gets the
classic truncated-unary description of its 24 points (four inputs a point:
at least one, two, three checkers, and half of any beyond three), its bar and
its borne-off checkers, followed by hand-made features that strong programs
use: pips, blots, the rolls that hit them, the longest prime, anchors, the
rolls that let the rearmost checker escape, checkers back, home points made,
and checkers home.  The player on roll comes first, then the opponent.

The raw board is the kernel's ``int8[26]`` (see ``table.rules.kernel``).

>>> import numpy as np
>>> from table import Position
>>> x = encode_position(Position.initial())
>>> x.shape == (N_INPUTS,)
True
>>> float(x[PIP_INPUT])  # 167 pips, scaled by 167
1.0
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.rules.board import CHECKERS, flip
from table.rules.board import is_race as is_race  # named here too, for the bot's callers
from table.rules.position import Position

POINT_INPUTS = 4
RAW_PER_SIDE = 24 * POINT_INPUTS + 2  # points, bar, off
HAND_PER_SIDE = 9
PER_SIDE = RAW_PER_SIDE + HAND_PER_SIDE
N_INPUTS = 2 * PER_SIDE
# Where the mover's pip feature sits (for documentation and tests).
PIP_INPUT = RAW_PER_SIDE

# The 21 distinct rolls with their weights out of 36.
_ROLL_D1 = np.array([a for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
_ROLL_D2 = np.array([b for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)


@njit(cache=True)
def side_view(board: np.ndarray, mover: bool, out: np.ndarray) -> None:  # pragma: no cover
    """One side's checkers by its own numbering: ``out[1..24]`` points, ``out[25]`` bar.

    Entries are positive for that side's checkers and negative for the other
    side's, like the raw board; ``out[0]`` is the other side's bar (negative).
    """
    if mover:
        for i in range(26):
            out[i] = board[i]
    else:
        flip(board, out)


@njit(cache=True)
def _open(b: np.ndarray, p: int) -> bool:  # pragma: no cover - compiled
    return bool(b[p] >= -1)


@njit(cache=True)
def hit_rolls(b: np.ndarray) -> int:  # pragma: no cover - compiled
    """Rolls out of 36 on which the side ``b`` is seen from could hit a blot of the other.

    ``b`` is seen from the hitter (its checkers positive, moving down).  Checkers
    on the bar must enter first, so then only the bar is a source; bear-off and
    the finer points of entering are ignored: this is a feature, not a rule.
    """
    nblots = 0
    blots = np.empty(15, dtype=np.int64)
    for q in range(1, 25):
        if b[q] == -1:
            blots[nblots] = q
            nblots += 1
    if nblots == 0:
        return 0
    total = 0
    for r in range(21):
        d1 = _ROLL_D1[r]
        d2 = _ROLL_D2[r]
        hit = False
        for bi in range(nblots):
            q = blots[bi]
            top = 25 if b[25] > 0 else 24
            low = top if b[25] > 0 else q + 1
            for s in range(low, top + 1):
                if b[s] <= 0:
                    continue
                d = s - q
                if d1 == d2:
                    k = 1
                    while k <= 4 and k * d1 <= d:
                        if k * d1 == d:
                            hit = True
                            break
                        if not _open(b, s - k * d1):
                            break
                        k += 1
                else:
                    if d == d1 or d == d2:
                        hit = True
                    elif d == d1 + d2 and (_open(b, s - d1) or _open(b, s - d2)):
                        hit = True
                if hit:
                    break
            if hit:
                break
        if hit:
            total += 1 if d1 == d2 else 2
    return total


@njit(cache=True)
def escape_rolls(b: np.ndarray) -> int:  # pragma: no cover - compiled
    """Rolls out of 36 that carry the side's rearmost checker past the blocks ahead of it.

    Blocks are the other side's points within 12 pips in front of the checker;
    with none, every roll escapes (36).
    """
    s = 25
    while s > 0 and b[s] <= 0:
        s -= 1
    if s == 0:
        return 36
    lo = 0
    for q in range(max(1, s - 12), s):
        if b[q] <= -2:
            lo = q
            break
    if lo == 0:
        return 36
    # lo is the lowest block in the window; escaping lands below it.
    total = 0
    for r in range(21):
        d1 = _ROLL_D1[r]
        d2 = _ROLL_D2[r]
        ok = False
        if d1 == d2:
            p = s
            for _k in range(4):
                p -= d1
                if p < lo:
                    ok = True
                    break
                if b[p] <= -2:
                    break
        else:
            for first in range(2):
                a = d1 if first == 0 else d2
                c = d2 if first == 0 else d1
                p = s - a
                if p < lo:
                    ok = True
                    break
                if b[p] <= -2:
                    continue
                if p - c < lo:
                    ok = True
                    break
        if ok:
            total += 1 if d1 == d2 else 2
    return total


@njit(cache=True)
def _encode_side(v: np.ndarray, other: np.ndarray, out: np.ndarray, base: int) -> None:  # pragma: no cover
    """Inputs for the side ``v`` is seen from; ``other`` is the same board from the other side."""
    on_board = 0
    pips = 0
    blots = 0
    back = 0
    home_made = 0
    home_count = 0
    anchors = 0
    run = 0
    best_run = 0
    for p in range(1, 25):
        n = v[p]
        j = base + (p - 1) * POINT_INPUTS
        if n > 0:
            on_board += n
            pips += n * p
            out[j] = 1.0
            out[j + 1] = 1.0 if n >= 2 else 0.0
            out[j + 2] = 1.0 if n >= 3 else 0.0
            out[j + 3] = (n - 3) / 2.0 if n > 3 else 0.0
            if n == 1:
                blots += 1
            if p >= 19:
                back += n
                if n >= 2:
                    anchors += 1
            if p <= 6:
                home_count += n
                if n >= 2:
                    home_made += 1
        else:
            out[j] = 0.0
            out[j + 1] = 0.0
            out[j + 2] = 0.0
            out[j + 3] = 0.0
        if n >= 2:
            run += 1
            if run > best_run:
                best_run = run
        else:
            run = 0
    bar = v[25]
    on_board += bar
    pips += 25 * bar
    back += bar
    j = base + 24 * POINT_INPUTS
    out[j] = bar / 2.0
    out[j + 1] = (CHECKERS - on_board) / CHECKERS
    h = base + RAW_PER_SIDE
    out[h] = pips / 167.0
    out[h + 1] = blots / 4.0
    # The other side rolls at these blots.
    out[h + 2] = hit_rolls(other) / 36.0
    out[h + 3] = best_run / 6.0
    out[h + 4] = anchors / 2.0
    out[h + 5] = escape_rolls(v) / 36.0
    out[h + 6] = back / 5.0
    out[h + 7] = home_made / 6.0
    out[h + 8] = home_count / CHECKERS


@njit(cache=True)
def encode(board: np.ndarray, out: np.ndarray, scratch: np.ndarray) -> None:  # pragma: no cover
    """Write the ``N_INPUTS`` inputs of ``board`` (player on roll's view) into ``out``.

    ``scratch`` is an ``int8[26]`` work array.
    """
    side_view(board, False, scratch)
    _encode_side(board, scratch, out, 0)
    _encode_side(scratch, board, out, PER_SIDE)


def raw_board(position: Position) -> np.ndarray:
    """The kernel's ``int8[26]`` board of a ``Position``."""
    return np.array(position.board, dtype=np.int8)


def encode_position(position: Position) -> np.ndarray:
    """The network inputs of ``position`` as a new ``float32`` array."""
    out = np.zeros(N_INPUTS, dtype=np.float32)
    encode(raw_board(position), out, np.empty(26, dtype=np.int8))
    return out
