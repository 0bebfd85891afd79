"""The one-sided bear-off database against hand-counted cases."""

from __future__ import annotations

import numpy as np
import pytest

from table import Position
from table.bot import bearoff


@pytest.fixture(scope="module")
def db() -> np.ndarray:
    return bearoff.database()


def chances(db: np.ndarray, mover: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    board = np.array(Position.from_checkers(mover, opponent).board, dtype=np.int8)
    assert bearoff.applies(db, board)
    out = np.zeros(5, dtype=np.float32)
    bearoff.probabilities(db, board, out)
    return out


def test_distributions_sum_to_one(db: np.ndarray) -> None:
    assert np.allclose(db[0].sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(db[1].sum(axis=1), 1.0, atol=1e-5)


def test_indices_are_a_bijection() -> None:
    seen = set()
    board = np.zeros(26, dtype=np.int8)
    for a in range(4):
        for b in range(4):
            for c in range(4):
                board[1], board[2], board[6] = a, b, c
                seen.add(bearoff.index(board, True))
    assert len(seen) == 64
    assert max(seen) < bearoff.N_POSITIONS


def test_one_checker_on_the_six_point(db: np.ndarray) -> None:
    # Rolls of fewer than 6 pips miss (2-2 moves 8 pips, so it bears off):
    # 1-1, 2-1, 3-1, 4-1, 3-2 -> 1 + 2 + 2 + 2 + 2 = 9 of 36; then any roll finishes.
    assert bearoff.mean_rolls(db, {6: 1}) == pytest.approx(1 + 9 / 36)


def test_two_on_the_six_point(db: np.ndarray) -> None:
    # One roll with 6-6, 5-5, 4-4 or 3-3; otherwise two rolls unless the first roll
    # leaves a checker a second roll can miss.  At least 1 + 32/36 rolls on average.
    assert bearoff.mean_rolls(db, {6: 2}) >= 1 + 32 / 36


def test_gammon_when_nothing_is_off(db: np.ndarray) -> None:
    # The opponent bears its last checker off next roll; we bear a checker off now
    # with 17 rolls of 36 (any 6, 5-1, 4-2, 3-3, 2-2), else we are gammoned.
    p = chances(db, {6: 15}, {1: 1})
    assert p[0] == pytest.approx(0.0)
    assert p[3] == pytest.approx(19 / 36, abs=1e-6)


def test_certain_win(db: np.ndarray) -> None:
    p = chances(db, {1: 1}, {6: 15})
    assert p[0] == pytest.approx(1.0) and p[1] == pytest.approx(1.0)


def test_does_not_apply_with_contact_or_outside_checkers(db: np.ndarray) -> None:
    board = np.array(Position.from_checkers({7: 1, 1: 2}, {1: 2}).board, dtype=np.int8)
    assert not bearoff.applies(db, board)
    assert not bearoff.applies(bearoff.empty(), np.array(
        Position.from_checkers({1: 2}, {1: 2}).board, dtype=np.int8))
