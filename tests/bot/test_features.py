"""The network inputs: hand-checked values, symmetry and the shot table."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from table import Position
from table.bot import features
from tests.rules.strategies import positions

# Rolls out of 36 that hit a blot n pips away with nothing in between
# (the standard shot table of backgammon books).
SHOTS = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3}


def board(mover: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    return features.raw_board(Position.from_checkers(mover, opponent))


@pytest.mark.parametrize("distance", sorted(SHOTS))
def test_shot_table(distance: int) -> None:
    # The hitter's checker on 13; the victim's blot `distance` pips in front of it.
    b = board({13: 1}, {25 - (13 - distance): 1})
    assert features.hit_rolls(b) == SHOTS[distance]


def test_blocked_indirect_shot() -> None:
    # 8 away: 6-2, 4-4, 2-2 and 5-3; with the 5 and 3 points (from 13: 8 and 10) blocked,
    # 5-3 no longer hits, and 6-2 still does via 11 and 7.
    free = features.hit_rolls(board({13: 1}, {20: 1}))
    blocked = features.hit_rolls(board({13: 1}, {20: 1, 17: 2, 15: 2}))
    assert free == 6
    assert blocked == 4


def test_no_blots_no_shots() -> None:
    assert features.hit_rolls(features.raw_board(Position.initial())) == 0


def test_escapes() -> None:
    # Nothing in front: every roll escapes.
    assert features.escape_rolls(board({24: 1}, {24: 2})) == 36
    # A full prime from the mover's 18 down to 13 holds a checker on 24... 19 is still
    # reachable, but nothing passes the prime in one roll.
    prime = {25 - p: 2 for p in range(13, 19)}
    assert features.escape_rolls(board({24: 1}, prime)) == 0
    # One point made 6 pips ahead: only rolls that jump it or land past it escape.
    one = features.escape_rolls(board({24: 1}, {25 - 18: 2}))
    assert 0 < one < 36


def test_initial_position_is_symmetric() -> None:
    x = features.encode_position(Position.initial())
    per = features.PER_SIDE
    assert np.array_equal(x[:per], x[per:])
    # The 6-point holds five checkers: 1, 1, 1, (5 - 3) / 2.
    j = 5 * features.POINT_INPUTS
    assert list(x[j : j + 4]) == [1.0, 1.0, 1.0, 1.0]
    assert x[features.PIP_INPUT] == pytest.approx(1.0)


def test_bar_and_off() -> None:
    x = features.encode_position(Position.from_checkers({25: 2, 6: 3}, {1: 1}))
    bar = 24 * features.POINT_INPUTS
    assert x[bar] == pytest.approx(1.0)  # two on the bar, halved
    assert x[bar + 1] == pytest.approx(10 / 15)  # ten borne off
    assert x[features.PER_SIDE + bar + 1] == pytest.approx(14 / 15)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_inputs_are_finite_and_bounded(p: Position) -> None:
    x = features.encode_position(p)
    assert np.all(np.isfinite(x))
    assert np.all(x >= 0.0)
    assert np.all(x <= 8.0)
