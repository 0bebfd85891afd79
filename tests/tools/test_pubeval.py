"""Pubeval: its published weights and input encoding, checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from table import Position
from table.tools import pubeval
from table.tools.duel import PUBEVAL, RANDOM, Player, duel, summary


def test_weights_load() -> None:
    w = pubeval.WEIGHTS
    assert w.shape == (2, 122)
    # The first two race weights as published.
    assert w[0, 0] == 0.0
    assert w[0, 1] == -0.1716


def test_encoding_by_hand() -> None:
    # Mover: 1 on the 24, 2 on the 20, 3 on the 6, 4 on the 5 (5 borne off).
    # Opponent: a blot on its 10 (the mover's 15), 2 on the bar, 12 on its 24 (the mover's 1).
    p = Position.from_checkers({24: 1, 20: 2, 6: 3, 5: 4}, {10: 1, 25: 2, 24: 12})
    expected = np.zeros(122)
    expected[5 * 0 + 1] = 1.0  # group 0 = point 24: n = 1
    expected[5 * 4 + 2] = 1.0  # point 20: n = 2
    expected[5 * 18 + 2] = 1.0  # point 6: n = 3 -> third and fourth inputs
    expected[5 * 18 + 3] = 1.0
    expected[5 * 19 + 2] = 1.0  # point 5: n = 4 -> third input and (4 - 3) / 2
    expected[5 * 19 + 4] = 0.5
    expected[5 * 9 + 0] = 1.0  # point 15: n = -1
    # point 1: n = -12 sets nothing
    expected[120] = 1.0  # the opponent's two on the bar, halved
    expected[121] = 5 / 15  # the mover's five borne off
    raw = np.array(p.board, dtype=np.int8)
    x = np.zeros(122)
    pubeval.encode(raw, x)
    assert np.array_equal(x, expected)
    contact = pubeval.score(pubeval.WEIGHTS, False, raw, np.zeros(122))
    race = pubeval.score(pubeval.WEIGHTS, True, raw, np.zeros(122))
    assert contact == pytest.approx(np.dot(pubeval.WEIGHTS[1], expected))
    assert race == pytest.approx(np.dot(pubeval.WEIGHTS[0], expected))


def test_bearing_off_the_last_checker_wins() -> None:
    p = Position.from_checkers({1: 1, 6: 1}, {1: 15})
    play = pubeval.choose_play(p, (6, 1))
    assert play is not None and play.position.result() < 0


def test_no_play() -> None:
    p = Position.from_checkers({25: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert pubeval.choose_play(p, (6, 6)) is None


def test_pubeval_crushes_random() -> None:
    ppg, ci = summary(duel(Player(PUBEVAL), Player(RANDOM), 40, seed=7))
    assert ppg - ci > 1.0
