"""The shipped Plakoto and Fevga networks judge like trained networks, and their self-play learns
at the rate that trained them (``trainer.GREEK_SCHEDULE``).

The networks first shipped (6 December) had been trained at the standard rate: nearly all their
hidden units had saturated, they read almost every contact position as won by the side on roll,
and they lost about 1.5-1.8 points a game to the rule-based player.  These tests fail on them.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from table import Position
from table.bot import bearoff, greekfeatures, search
from table.bot.bot import Bot
from table.bot.net import CONTACT, N_OUTPUTS, Weights, forward, shipped
from table.rules.greekkernel import PINS
from table.rules.variant import find_variant
from table.tools.train.trainer import GREEK_SCHEDULE, Schedule, TrainConfig, schedule_for, train

from tests.rules.test_reserve_properties import random_position


def _start_chances(variant: str) -> np.ndarray:
    v = find_variant(variant)
    w = shipped(v.weights)
    work = search.make_work(w.hidden, v)
    out = np.zeros(N_OUTPUTS, dtype=np.float32)
    search.judge(search.make_net(w, bearoff.empty(), v.checkers), work,
                 np.array(Position.initial(v).board, dtype=np.int8), out)
    return out


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_the_start_is_about_even_for_the_side_on_roll(variant: str) -> None:
    # A symmetric start: the side on roll wins a little more than half (it moves first), never
    # nearly all (the first networks read 0.955 for Plakoto and 0.969 for Fevga).
    p = _start_chances(variant)
    assert 0.4 < p[0] < 0.75, p


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_the_hidden_units_are_not_saturated(variant: str) -> None:
    # Over contact positions of seeded random games, the share of hidden activations
    # pinned at 0 or 1 (under 0.02 or over 0.98): about 0.85 in the first networks,
    # about 0.1 in their retrained successors.
    w = shipped(find_variant(variant).weights)
    x = np.zeros(greekfeatures.N_INPUTS, dtype=np.float32)
    out = np.zeros(N_OUTPUTS, dtype=np.float32)
    acts = []
    for seed in range(6):
        for turns in range(0, 60, 10):
            board = np.array(random_position(variant, seed, turns).board, dtype=np.int8)
            game = greekfeatures.game_code(len(board))
            if greekfeatures.pick_net(board, game) != CONTACT:
                continue
            greekfeatures.encode(board, game, x)
            h = np.zeros(w.hidden, dtype=np.float32)
            forward(w.w1, w.b1, w.w2, w.b2, CONTACT, x, h, out)
            acts.append(h)
    h = np.concatenate(acts)
    share = float(np.mean((h < 0.02) | (h > 0.98)))
    assert share < 0.6, share


def test_the_greek_games_learn_at_their_own_rate(tmp_path: Path) -> None:
    assert schedule_for("plakoto") is GREEK_SCHEDULE and schedule_for("fevga") is GREEK_SCHEDULE
    assert schedule_for("standard") == Schedule() and schedule_for("race") == Schedule()
    assert GREEK_SCHEDULE.at(0)[0] == pytest.approx(0.1)
    cfg = TrainConfig(checkpoint=tmp_path / "fevga.npz", games=4, seed=5, hidden=8, chunk=4,
                      check_every=10**9, checkpoint_seconds=1e9, snapshot_every=10**9,
                      log=tmp_path / "log.txt", variant="fevga")
    train(cfg, io.StringIO())
    assert "alpha=0.1000" in (tmp_path / "log.txt").read_text()
    assert Weights.load(tmp_path / "fevga.npz").games == 4


@pytest.mark.parametrize("mover, dice", [({24: 10, 3: 1, 8: 4}, (2, 5)), ({24: 10, 6: 1, 8: 4}, (2, 3))])
def test_mediu_pins_the_opponents_mother(mover: dict[int, int], dice: tuple[int, int]) -> None:
    # The opponent's last checker on its 24-point (our 1-point) can be pinned: it decides the
    # game (2 points) once we clear our own 24-point.  The first networks played 24/17 and
    # 24/21 8/6 here.
    p = Position.from_checkers(mover, {24: 1, 13: 14}, "plakoto")
    play = Bot("medium").choose_play(p, dice)
    assert play is not None and play.position.board[PINS + 24] > 0, str(play)


def test_mediu_runs_its_mother_from_a_shot() -> None:
    # Our mother stands alone and the opponent's checker two points away pins it with any 2;
    # 24/13 is the one play that takes it away (the first network played 24/18 13/8).
    p = Position.from_checkers({24: 1, 13: 14}, {24: 10, 3: 1, 8: 4}, "plakoto")
    play = Bot("medium").choose_play(p, (6, 5))
    assert play is not None and str(play) == "24/13", str(play)
