"""The compiled core of the rules: legal-play generation on a raw board.

This is the single implementation of how checkers move.  ``Position`` wraps it
for Python callers; the bot's trainer and the benchmarks call it directly from
other compiled code.

The raw board is a ``numpy.int8`` array of 26 entries, seen from the player on
roll ("the mover"):

* ``b[1..24]``: checkers on the mover's points 1..24, positive for the mover's
  own checkers and negative for the opponent's;
* ``b[25]``: the mover's checkers on the bar (zero or positive);
* ``b[0]``: the opponent's checkers on the bar, as a negative count.

The mover's checkers travel from 25 (the bar) down to 0 (borne off); the
opponent's travel the other way, entering at 1.  Borne-off checkers are not
stored: each side has 15 minus what is on the board.  Turning the board round
for the other side is ``new[i] = -old[25 - i]``.
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

# The board's facts live in ``board``; they are named here too, as the kernel's callers know them.
from table.rules.board import BAR, BOARD_SIZE, CHECKERS, HOME, OFF, flip
from table.rules.variant import HIT, REFLECT, STANDARD_RULES, Rules

__all__ = ["BAR", "BOARD_SIZE", "CHECKERS", "HOME", "OFF", "MAX_PLAYS", "ROLLS", "flip",
           "highest_point", "step_target", "apply_step", "generate", "count_all_rolls", "supports"]

# Room for the plays of one roll.  The largest count known for a legal
# backgammon position is well under this; ``generate`` reports overflow by
# returning -1 instead of writing out of bounds.
MAX_PLAYS = 4096

# The 21 distinct rolls, higher die first.
ROLLS = np.array(
    [(a, b) for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int8
)[::-1].copy()


def supports(rules: Rules) -> bool:
    """Whether this module's generators play the step rule ``rules`` (a variant's ``Variant.rules``).

    Two checkers close a point, a single one is hit, the sides move in opposite
    directions.  ``generate`` plays it on the 26-entry board with nothing
    waiting off the board (``STANDARD_RULES``); a variant whose checkers start
    off the board (``Variant.entry == "reserve"``) is played on 28 entries by
    ``table.rules.reservekernel.generate_reserve``, which also reads
    ``reserve_first``, ``hit_needs_home`` and ``bar_first``.  Pinning (Plakoto)
    and one checker blocking with both sides moving the same way (Fevga) are
    not: ``Position`` plays them through ``table.rules.greek`` on boards of their
    own, which the bot's search and the trainers do not take yet (they ask here).

    >>> from table.rules.variant import DUTCH, Rules, PIN
    >>> supports(STANDARD_RULES), supports(DUTCH.rules), supports(Rules(capture=PIN))
    (True, True, False)
    """
    return rules.block == STANDARD_RULES.block and rules.capture == HIT and rules.turn == REFLECT


@njit(cache=True)
def highest_point(board: np.ndarray) -> int:  # pragma: no cover - compiled
    """The mover's highest occupied point (25 for the bar), 0 when none."""
    for i in range(BAR, 0, -1):
        if board[i] > 0:
            return i
    return 0


@njit(cache=True)
def step_target(board: np.ndarray, src: int, die: int, high: int) -> int:  # pragma: no cover
    """Where one checker from ``src`` lands with ``die``, or -1 if it may not move.

    ``high`` is ``highest_point(board)``, passed in because callers keep it
    up to date more cheaply than rescanning.
    """
    if board[src] <= 0:
        return -1
    if board[BAR] > 0 and src != BAR:
        return -1
    dst = src - die
    if dst >= 1:
        if board[dst] >= -1:
            return dst
        return -1
    # Bearing off: every checker must be home (points 1..HOME).
    if high > HOME:
        return -1
    if dst == 0:
        return 0
    # A higher die bears off only from the highest occupied point.
    if src == high:
        return 0
    return -1


@njit(cache=True)
def apply_step(board: np.ndarray, src: int, dst: int) -> bool:  # pragma: no cover
    """Move one checker in place; return whether it hit a blot."""
    board[src] -= 1
    if dst == OFF:
        return False
    if board[dst] == -1:
        board[dst] = 1
        board[OFF] -= 1
        return True
    board[dst] += 1
    return False


@njit(cache=True)
def _board_hash(board: np.ndarray) -> np.int64:  # pragma: no cover - compiled
    h = np.int64(1469598103934665603)
    for i in range(BOARD_SIZE):
        h = (h ^ np.int64(board[i] + 16)) * np.int64(1099511628211)
    return h


@njit(cache=True)
def _record(
    board: np.ndarray,
    steps: np.ndarray,
    nsteps: int,
    priority: int,
    state: np.ndarray,
    hashes: np.ndarray,
    out_boards: np.ndarray,
    out_steps: np.ndarray,
    out_nsteps: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Keep a candidate play if it uses the roll at least as fully as the best so far.

    ``state[0]`` is the count kept, ``state[1]`` the best priority, and
    ``state[2]`` is set on overflow.
    """
    if priority < state[1]:
        return
    if priority > state[1]:
        state[0] = 0
        state[1] = priority
    h = _board_hash(board)
    n = state[0]
    for k in range(n):
        if hashes[k] == h:
            same = True
            for i in range(BOARD_SIZE):
                if out_boards[k, i] != board[i]:
                    same = False
                    break
            if same:
                return
    if n >= out_boards.shape[0]:
        state[2] = 1
        return
    hashes[n] = h
    for i in range(BOARD_SIZE):
        out_boards[n, i] = board[i]
    for s in range(nsteps):
        out_steps[n, s, 0] = steps[s, 0]
        out_steps[n, s, 1] = steps[s, 1]
    out_nsteps[n] = nsteps
    state[0] = n + 1


@njit(cache=True)
def _search(
    board: np.ndarray,
    dice: np.ndarray,
    ndice: int,
    doubles: bool,
    state: np.ndarray,
    hashes: np.ndarray,
    out_boards: np.ndarray,
    out_steps: np.ndarray,
    out_nsteps: np.ndarray,
    stack: np.ndarray,
    work: np.ndarray,
    steps: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Depth-first search over the checkers each die may move, in the order given.

    With doubles, the sources are taken in non-increasing order: any legal
    sequence of equal dice can be reordered that way (moving the rearmost
    checkers first only opens bear-offs and never blocks), so nothing is lost
    and most permutations are skipped.
    """
    # One scratch array for three per-level columns: highest point, next
    # source to try, and whether anything moved at that level.
    highs = work[0]
    srcs = work[1]
    moved = work[2]
    for i in range(BOARD_SIZE):
        stack[0, i] = board[i]
    highs[0] = highest_point(board)
    srcs[0] = highs[0] + 1
    moved[0] = 0
    level = 0
    while level >= 0:
        cur = stack[level]
        die = dice[level]
        high = highs[level]
        s = srcs[level] - 1
        if s > high:
            s = high
        dst = -1
        while s >= 1:
            dst = step_target(cur, s, die, high)
            if dst >= 0:
                break
            s -= 1
        if s >= 1:
            srcs[level] = s
            moved[level] = 1
            nxt = stack[level + 1]
            for i in range(BOARD_SIZE):
                nxt[i] = cur[i]
            apply_step(nxt, s, dst)
            steps[level, 0] = s
            steps[level, 1] = dst
            nh = high
            while nh > 0 and nxt[nh] <= 0:
                nh -= 1
            highs[level + 1] = nh
            if level + 1 == ndice:
                _record(nxt, steps, ndice, 100, state, hashes, out_boards, out_steps, out_nsteps)
            else:
                level += 1
                srcs[level] = s + 1 if doubles else BAR + 1
                moved[level] = 0
        else:
            if moved[level] == 0 and level > 0:
                # No die left at this level can move: a play using fewer dice.
                if doubles:
                    priority = level
                else:
                    priority = 10 + dice[0]
                _record(
                    stack[level], steps, level, priority, state, hashes,
                    out_boards, out_steps, out_nsteps,
                )
            level -= 1


@njit(cache=True)
def generate(
    board: np.ndarray,
    d1: int,
    d2: int,
    hashes: np.ndarray,
    out_boards: np.ndarray,
    out_steps: np.ndarray,
    out_nsteps: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """Write every legal play of the roll ``d1``-``d2`` into the ``out_*`` arrays.

    Returns the number of plays (one per distinct resulting board, which is
    left from the mover's point of view), 0 when nothing can be played, or -1
    if the output arrays are too small.  A play that uses fewer dice than
    another is dropped, and when only one die of a non-double can be played,
    only plays of the higher one are kept if there are any.
    """
    state = np.zeros(3, dtype=np.int64)
    dice = np.empty(4, dtype=np.int64)
    stack = np.empty((5, BOARD_SIZE), dtype=np.int8)
    work = np.empty((3, 5), dtype=np.int64)
    steps = np.empty((4, 2), dtype=np.int8)
    if d1 == d2:
        for i in range(4):
            dice[i] = d1
        _search(board, dice, 4, True, state, hashes, out_boards, out_steps, out_nsteps,
                stack, work, steps)
    else:
        dice[0] = d1
        dice[1] = d2
        _search(board, dice, 2, False, state, hashes, out_boards, out_steps, out_nsteps,
                stack, work, steps)
        dice[0] = d2
        dice[1] = d1
        _search(board, dice, 2, False, state, hashes, out_boards, out_steps, out_nsteps,
                stack, work, steps)
    if state[2]:
        return -1
    return int(state[0])


@njit(cache=True)
def count_all_rolls(boards: np.ndarray) -> int:  # pragma: no cover - compiled
    """Generate the plays of all 21 rolls for each board; return the total count.

    This is what ``table bench movegen`` times: the generator as the trainer
    and the search call it, with no Python in the loop.
    """
    hashes = np.empty(MAX_PLAYS, dtype=np.int64)
    out_boards = np.empty((MAX_PLAYS, BOARD_SIZE), dtype=np.int8)
    out_steps = np.empty((MAX_PLAYS, 4, 2), dtype=np.int8)
    out_nsteps = np.empty(MAX_PLAYS, dtype=np.int8)
    total = 0
    for p in range(boards.shape[0]):
        for r in range(ROLLS.shape[0]):
            total += generate(
                boards[p], ROLLS[r, 0], ROLLS[r, 1], hashes, out_boards, out_steps, out_nsteps
            )
    return total
