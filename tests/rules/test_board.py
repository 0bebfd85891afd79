"""The board facts of ``table.rules.board``: compiled and Python faces against plain definitions."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from table import Position
from table.rules import board

from .strategies import positions


def _naive_race(p: Position) -> bool:
    mine = p.checkers(mover=True)
    theirs = p.checkers(mover=False)
    if not mine or not theirs:
        return True
    # The mover's rearmost checker must be past the opponent's rearmost, counted in the mover's numbering.
    return max(mine) < min(25 - q for q in theirs)


def _naive_value(p: Position, checkers: int) -> int:
    mine = sum(p.checkers(mover=True).values())
    theirs = sum(p.checkers(mover=False).values())
    for sign, left, other, other_points in ((1, mine, theirs, p.checkers(mover=False)),
                                            (-1, theirs, mine, p.checkers(mover=True))):
        if left == 0:
            if other < checkers:
                return sign
            # The loser's checkers in the winner's home board are on the loser's 19-24, or the bar.
            return sign * (3 if any(q >= 19 for q in other_points) else 2)
    return 0


@settings(max_examples=300, deadline=None)
@given(positions())
def test_compiled_and_python_faces_agree_with_plain_definitions(p: Position) -> None:
    raw = np.array(p.board, dtype=np.int8)
    out = np.empty(board.BOARD_SIZE, dtype=np.int8)
    board.flip(raw, out)
    assert tuple(out.tolist()) == p.swapped().board
    assert p.swapped().swapped() == p
    assert board.is_race(raw) == board.is_race.py_func(p.board) == _naive_race(p) == p.is_race()
    mine, theirs = board.checkers_on(raw)
    assert (mine, theirs) == (sum(p.checkers(True).values()), sum(p.checkers(False).values()))
    assert p.borne_off() == (15 - mine, 15 - theirs)
    assert board.game_value(raw, mine, theirs, 15) == _naive_value(p, 15) == p.result()
    assert (board.flip_rows(raw[None, :]) == out).all()


def test_game_values_by_hand() -> None:
    def value(mover: dict[int, int], opponent: dict[int, int], checkers: int = 15) -> int:
        b = np.array(Position.from_checkers(mover, opponent).board, dtype=np.int8)
        return int(board.game_value(b, *board.checkers_on(b), checkers))

    assert value({}, {6: 1}) == 1
    assert value({}, {6: 15}) == 2
    assert value({}, {20: 14, 25: 1}) == 3
    assert value({}, {19: 1, 1: 14}) == 3  # the loser's 19 is the winner's 6
    assert value({}, {18: 15}) == 2
    assert value({1: 15}, {}) == -2
    assert value({20: 1, 3: 14}, {}) == -3
    assert value({3: 1}, {}) == -1
    assert value({3: 1}, {6: 1}) == 0
    # With three checkers a side, a loser with all three on the board is gammoned.
    assert value({}, {10: 3}, checkers=3) == 2
    assert value({}, {10: 2}, checkers=3) == 1


def test_race_by_hand() -> None:
    assert not Position.initial().is_race()
    assert Position.from_checkers({6: 5}, {6: 5}).is_race()
    assert not Position.from_checkers({6: 5}, {20: 1}).is_race()  # the opponent's 20 is the mover's 5
    assert not Position.from_checkers({25: 1}, {1: 1}).is_race()
