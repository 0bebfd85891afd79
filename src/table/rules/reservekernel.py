"""The compiled move generator for variants whose checkers start off the board (Race, Dutch, Acey-Deucey).

Why a second generator and a longer board: standard backgammon's raw board
(26 entries) and ``kernel.generate`` are what the bot's search calls millions
of times; a reserve would cost them a branch per step and two more entries per
board for nothing.  A reserve variant's raw board is the standard 26 entries
followed by two more, so ``board[:26]`` reads as always:

* ``b[26]`` (``RESERVE``): the mover's checkers still waiting to enter (zero or positive);
* ``b[27]`` (``THEIR_RESERVE``): the opponent's, as a negative count.

A checker on the bar was hit; a reserve checker has not yet entered.  Both
enter like a checker from the bar (a die of *n* lands on point 25 - *n*); a
step from the reserve is written ``(26, point)``.  Turning the board round
swaps the two reserves: ``new[26] = -old[27]`` and ``new[27] = -old[26]``.

The step rule reads three flags of ``table.rules.variant.Rules``:
``reserve_first`` (Dutch: nothing but entering while a checker waits),
``hit_needs_home`` (Dutch: a blot may be hit only by a side that already has a
checker on its points 1-6) and ``bar_first`` (0 in Acey-Deucey: a hit checker
need not enter before others move).  A die that cannot be played in one order
may be in the other.  With a double, ``kernel``'s shortcut (taking the
sources rearmost first, 26 down to 1) is kept where it loses nothing: not when
a blot may be hit only with a checker home and none is home yet (7/4 then
12/9* is legal, 12/9* first is not; a checker home stays home for the turn),
nor when a hit checker must enter before a waiting one (bar/22 then in/22
takes 25 before 26); there every order is searched.

>>> import numpy as np
>>> start = np.zeros(RESERVE_BOARD_SIZE, dtype=np.int8); start[RESERVE] = 15; start[THEIR_RESERVE] = -15
>>> out = Outputs()
>>> generate_reserve(start, 6, 5, 0, 0, 1, out.hashes, out.boards, out.steps, out.nsteps)
2
>>> sorted(tuple(map(tuple, out.steps[k, :out.nsteps[k]].tolist())) for k in range(2))
[((26, 19), (19, 14)), ((26, 19), (26, 20))]
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.rules.board import BAR, BOARD_SIZE, HOME, OFF, Board
from table.rules.kernel import MAX_PLAYS, ROLLS, apply_step

__all__ = ["RESERVE", "THEIR_RESERVE", "RESERVE_BOARD_SIZE", "Outputs", "flip_reserve",
           "generate_reserve", "count_tree"]

RESERVE = 26
THEIR_RESERVE = 27
RESERVE_BOARD_SIZE = 28


class Outputs:
    """Arrays ``generate_reserve`` writes into, sized for ``MAX_PLAYS`` plays."""

    def __init__(self) -> None:
        self.hashes = np.empty(MAX_PLAYS, dtype=np.int64)
        self.boards = np.empty((MAX_PLAYS, RESERVE_BOARD_SIZE), dtype=np.int8)
        self.steps = np.empty((MAX_PLAYS, 4, 2), dtype=np.int8)
        self.nsteps = np.empty(MAX_PLAYS, dtype=np.int8)


@njit(cache=True)
def flip_reserve(board: Board, out: np.ndarray | list[int]) -> None:  # pragma: no cover - compiled
    """Write into ``out`` the 28-entry board as the opponent sees it."""
    for i in range(BOARD_SIZE):
        out[i] = -board[BOARD_SIZE - 1 - i]
    out[RESERVE] = -board[THEIR_RESERVE]
    out[THEIR_RESERVE] = -board[RESERVE]


@njit(cache=True)
def _rearmost(board: np.ndarray) -> int:  # pragma: no cover - compiled
    """The mover's rearmost checker: 26 for the reserve, 25 for the bar, else its point; 0 if none."""
    for i in range(RESERVE, BAR - 1, -1):
        if board[i] > 0:
            return i
    for i in range(BAR - 1, 0, -1):
        if board[i] > 0:
            return i
    return 0


@njit(cache=True)
def _target(board: np.ndarray, src: int, die: int, high: int,
            reserve_first: int, hit_needs_home: int, bar_first: int) -> int:  # pragma: no cover
    """Where one checker from ``src`` (26 = the reserve) lands with ``die``, or -1."""
    if board[src] <= 0:
        return -1
    if bar_first and board[BAR] > 0 and src != BAR:
        return -1
    if reserve_first and board[RESERVE] > 0 and src < BAR:
        return -1
    dst = (BAR if src == RESERVE else src) - die
    if dst >= 1:
        there = board[dst]
        if there >= 0:
            return dst
        if there < -1:
            return -1
        if hit_needs_home:
            for i in range(1, HOME + 1):
                if board[i] > 0:
                    return dst
            return -1
        return dst
    if high > HOME:  # bearing off: everything home, none on the bar or waiting
        return -1
    if dst == 0 or src == high:
        return OFF
    return -1


@njit(cache=True)
def _keep(board: np.ndarray, steps: np.ndarray, nsteps: int, priority: int, state: np.ndarray,
          hashes: np.ndarray, out_boards: np.ndarray, out_steps: np.ndarray,
          out_nsteps: np.ndarray) -> None:  # pragma: no cover - compiled
    """Add a candidate play unless a fuller one is known or its board is already kept.

    ``state``: plays kept, their priority, and an overflow flag.
    """
    if priority < state[1]:
        return
    if priority > state[1]:
        state[0] = 0
        state[1] = priority
    h = np.int64(-3750763034362895579)
    for i in range(RESERVE_BOARD_SIZE):
        h = (h ^ np.int64(board[i] + 16)) * np.int64(1099511628211)
    n = state[0]
    for k in range(n):
        if hashes[k] == h and (out_boards[k] == board).all():
            return
    if n >= out_boards.shape[0]:
        state[2] = 1
        return
    hashes[n] = h
    out_boards[n, :] = board
    out_steps[n, :nsteps, :] = steps[:nsteps, :]
    out_nsteps[n] = nsteps
    state[0] = n + 1


@njit(cache=True)
def _walk(board: np.ndarray, dice: np.ndarray, ndice: int, ordered: bool, rules: np.ndarray,
          state: np.ndarray, hashes: np.ndarray, out_boards: np.ndarray, out_steps: np.ndarray,
          out_nsteps: np.ndarray) -> None:  # pragma: no cover - compiled
    """Try every checker for each die in turn, depth first; record each sequence where it stops.

    ``ordered``: a double whose sources may be taken rearmost first (none after a lower one).
    """
    boards = np.empty((ndice + 1, RESERVE_BOARD_SIZE), dtype=np.int8)
    nexts = np.empty(ndice + 1, dtype=np.int64)  # the next source to try at each depth
    any_moved = np.zeros(ndice + 1, dtype=np.bool_)
    steps = np.empty((4, 2), dtype=np.int8)
    boards[0, :] = board
    nexts[0] = RESERVE
    depth = 0
    while depth >= 0:
        here = boards[depth]
        high = _rearmost(here)
        src = nexts[depth]
        dst = -1
        while src >= 1:
            dst = _target(here, src, dice[depth], high, rules[0], rules[1], rules[2])
            if dst >= 0:
                break
            src -= 1
        if src < 1:
            if depth > 0 and not any_moved[depth]:
                priority = depth if dice[0] == dice[ndice - 1] else 10 + dice[0]
                _keep(here, steps, depth, priority, state, hashes, out_boards, out_steps,
                      out_nsteps)
            depth -= 1
            continue
        nexts[depth] = src - 1
        any_moved[depth] = True
        after = boards[depth + 1]
        after[:] = here
        apply_step(after, src, dst)
        steps[depth, 0] = src
        steps[depth, 1] = dst
        if depth + 1 == ndice:
            _keep(after, steps, ndice, 100, state, hashes, out_boards, out_steps, out_nsteps)
        else:
            depth += 1
            nexts[depth] = src if ordered else RESERVE
            any_moved[depth] = False


@njit(cache=True)
def generate_reserve(board: np.ndarray, d1: int, d2: int, reserve_first: int,
                     hit_needs_home: int, bar_first: int, hashes: np.ndarray,
                     out_boards: np.ndarray, out_steps: np.ndarray,
                     out_nsteps: np.ndarray) -> int:  # pragma: no cover - compiled
    """``kernel.generate`` for a 28-entry board and the reserve flags of ``Rules``.

    Same contract: the number of plays (boards left from the mover's side),
    0 when nothing can be played, -1 when the outputs are too small; plays
    using fewer dice are dropped, and of one die of a non-double, the higher.
    """
    state = np.zeros(3, dtype=np.int64)
    rules = np.array([reserve_first, hit_needs_home, bar_first], dtype=np.int64)
    if d1 == d2:
        dice = np.full(4, d1, dtype=np.int64)
        ordered = not (bar_first and board[BAR] > 0 and board[RESERVE] > 0)
        if hit_needs_home:
            home = False
            for i in range(1, HOME + 1):
                home = home or board[i] > 0
            ordered = ordered and home
        _walk(board, dice, 4, ordered, rules, state, hashes, out_boards, out_steps, out_nsteps)
    else:
        for first, second in ((d1, d2), (d2, d1)):
            dice = np.array([first, second], dtype=np.int64)
            _walk(board, dice, 2, False, rules, state, hashes, out_boards, out_steps, out_nsteps)
    if state[2]:
        return -1
    return int(state[0])


@njit(cache=True)
def _over(board: np.ndarray) -> bool:  # pragma: no cover - compiled
    mine = False
    theirs = False
    for i in range(RESERVE_BOARD_SIZE):
        if board[i] > 0:
            mine = True
        elif board[i] < 0:
            theirs = True
    return not (mine and theirs)


@njit(cache=True)
def count_tree(board: np.ndarray, plies: int, reserve_first: int, hit_needs_home: int,
               bar_first: int) -> int:  # pragma: no cover - compiled
    """Leaves of the game tree ``plies`` deep: every roll of the 21, every play of it.

    A roll with no legal play passes (one branch, the board turned round);
    a finished game is a leaf at any depth.  Counts as
    ``tests/fixtures/variants-perft.json`` defines them.
    """
    if plies == 0 or _over(board):
        return 1
    hashes = np.empty(MAX_PLAYS, dtype=np.int64)
    boards = np.empty((MAX_PLAYS, RESERVE_BOARD_SIZE), dtype=np.int8)
    steps = np.empty((MAX_PLAYS, 4, 2), dtype=np.int8)
    nsteps = np.empty(MAX_PLAYS, dtype=np.int8)
    turned = np.empty(RESERVE_BOARD_SIZE, dtype=np.int8)
    total = 0
    for r in range(ROLLS.shape[0]):
        n = generate_reserve(board, ROLLS[r, 0], ROLLS[r, 1], reserve_first, hit_needs_home,
                             bar_first, hashes, boards, steps, nsteps)
        if n < 0:
            raise ValueError("more legal plays than the generator has room for")
        if n == 0:
            flip_reserve(board, turned)
            total += count_tree(turned, plies - 1, reserve_first, hit_needs_home, bar_first)
        kept = boards[:n].copy()
        for k in range(n):
            flip_reserve(kept[k], turned)
            total += count_tree(turned.copy(), plies - 1, reserve_first, hit_needs_home,
                                bar_first)
    return total
