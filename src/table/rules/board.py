"""Board facts: the one home of what the raw board means, for compiled and Python code alike.

The raw board is 26 numbers seen from the player on roll ("the mover"):
``b[1..24]`` the mover's points (positive for the mover's checkers, negative for
the opponent's), ``b[25]`` (``BAR``) the mover's bar, ``b[0]`` the opponent's
bar as a negative count.  Checkers not on the board have been borne off: each
side started with ``checkers`` of them (15 in standard backgammon; a variant
says how many, see ``table.rules.variant``).

Every function here is compiled with numba for the kernel, the search and
self-play, which pass ``numpy.int8`` arrays.  ``Position`` calls the same
source on its tuple through ``py_func``, so that there is one copy of each rule
(which is why no function here calls another: the Python source would call the
compiled one).

>>> import numpy as np
>>> from table import Position
>>> b = np.array(Position.initial().board, dtype=np.int8)
>>> out = np.empty(BOARD_SIZE, dtype=np.int8)
>>> flip(b, out); bool((out == b).all())  # the start is the same from both sides
True
>>> is_race(b), checkers_on(b), game_value(b, 15, 15, CHECKERS)
(False, (15, 15), 0)
>>> over = Position.from_checkers({}, {6: 1}).board
>>> game_value.py_func(over, *checkers_on.py_func(over), CHECKERS)
1
"""

from __future__ import annotations

from typing import Sequence, Union

import numpy as np
from table.jitcache import njit

# What these functions read: an ``int8`` array in compiled code, a ``Position``'s tuple in Python.
Board = Union[np.ndarray, Sequence[int]]

BOARD_SIZE = 26
BAR = 25  # the mover's bar
OFF = 0  # the opponent's bar on the board; "borne off" as a step's destination
CHECKERS = 15  # each side's checkers in standard backgammon
HOME = 6  # the mover's home board is points 1..HOME


@njit(cache=True)
def flip(board: Board, out: np.ndarray | list[int]) -> None:  # pragma: no cover - compiled
    """Write into ``out`` the board as the opponent sees it: ``out[i] = -board[25 - i]``."""
    for i in range(BOARD_SIZE):
        out[i] = -board[BOARD_SIZE - 1 - i]


def flip_rows(boards: np.ndarray) -> np.ndarray:
    """``flip`` for every row of a 2-D array at once, as a new array (numpy, not a loop).

    >>> flip_rows(np.array([[0] * 24 + [1, 2]], dtype=np.int8))[0, :3].tolist()
    [-2, -1, 0]
    """
    result: np.ndarray = -boards[:, ::-1]
    return result


@njit(cache=True)
def is_race(board: Board) -> bool:  # pragma: no cover - compiled
    """True when no contact is left: every mover's checker is past every opponent's."""
    my_back = 0
    for i in range(BAR, 0, -1):
        if board[i] > 0:
            my_back = i
            break
    their_back = BAR
    for i in range(0, BAR):
        if board[i] < 0:
            their_back = i
            break
    return my_back < their_back


@njit(cache=True)
def checkers_on(board: Board) -> tuple[int, int]:  # pragma: no cover - compiled
    """Checkers still on the board (bar included): (mover, opponent)."""
    mine = 0
    theirs = 0
    for i in range(BOARD_SIZE):
        n = board[i]
        if n > 0:
            mine += n
        elif n < 0:
            theirs -= n
    return mine, theirs


@njit(cache=True)
def game_value(board: Board, mine: int, theirs: int, checkers: int) -> int:  # pragma: no cover
    """The game's value once a side has borne off all its checkers, from the mover's side; else 0.

    ``mine`` and ``theirs`` are ``checkers_on(board)`` (the callers have them
    already), each side having started with ``checkers``.  +1, +2, +3 when the
    mover has borne off everything: a single game, a gammon (the opponent has
    borne off nothing) or a backgammon (and still has a checker on the bar or
    in the winner's home board); -1, -2, -3 when the opponent has.
    """
    if mine == 0:
        if theirs < checkers:
            return 1
        for i in range(0, HOME + 1):
            if board[i] < 0:
                return 3
        return 2
    if theirs == 0:
        if mine < checkers:
            return -1
        for i in range(BAR - HOME, BAR + 1):
            if board[i] > 0:
                return -3
        return -2
    return 0
