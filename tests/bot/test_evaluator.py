"""The evaluator seam: the batch method, the fake, the evaluator of each variant, Nackgammon played."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from table import Position
from table.bot import Bot
from table.bot.evaluator import (
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    WIN,
    Evaluator,
    EvaluatorError,
    FakeEvaluator,
    NetEvaluator,
    chances,
    evaluator_for,
)
from table.bot.net import bundled
from table.errors import VariantError
from table.match import Match, Move
from table.rules.variant import NACKGAMMON
from table.tools.corpus import random_positions
from tests.bot.games import play_seeded


def _boards(positions: list[Position]) -> np.ndarray:
    return np.array([p.board for p in positions], dtype=np.int8)


def test_the_batch_agrees_with_the_bot_one_position_at_a_time() -> None:
    positions = [p for p in random_positions(60, seed=4) if not p.is_game_over]
    got = evaluator_for("standard").evaluate(_boards(positions))
    assert got.shape == (len(positions), 5) and got.dtype == np.float32
    bot = Bot("medium")
    for row, p in zip(got, positions):
        want = bot.evaluate(p, depth=0).as_tuple()
        assert np.allclose(row, want, atol=1e-6), p


def test_finished_games_are_exact_for_every_evaluator() -> None:
    # The opponent has borne off everything; the mover still has all 15 checkers, one in the
    # opponent's home board: a backgammon lost.
    lost = Position.from_checkers({20: 1, 6: 14}, {})
    for evaluator in (evaluator_for("standard"), FakeEvaluator()):
        row = evaluator.evaluate(_boards([lost]))[0]
        assert row[WIN] == 0.0 and row[LOSE_GAMMON] == 1.0 and row[LOSE_BACKGAMMON] == 1.0


def test_the_fake_is_an_evaluator_and_counts_its_boards() -> None:
    fake = FakeEvaluator(win=lambda board: 0.25)
    evaluator: Evaluator = fake
    rows = evaluator.evaluate(_boards([Position.initial()] * 3))
    assert rows[:, WIN].tolist() == [0.25] * 3 and fake.calls == 3
    assert [e.win for e in chances(fake, _boards([Position.initial()]))] == [0.25]
    with pytest.raises(EvaluatorError, match=r"shape \(n, 26\)"):
        fake.evaluate(np.zeros((2, 25), dtype=np.int8))


def test_each_variant_has_its_evaluator() -> None:
    standard = evaluator_for("standard")
    nack = evaluator_for(NACKGAMMON)
    assert isinstance(standard, NetEvaluator) and isinstance(nack, NetEvaluator)
    assert nack.weights is bundled()  # Nackgammon plays with the standard networks, as gnubg does
    with pytest.raises(VariantError, match="no evaluator ships for Plakoto"):
        evaluator_for(replace(NACKGAMMON, name="plakoto", title="Plakoto", weights="plakoto"))


def test_the_bot_plays_a_game_of_nackgammon_to_its_end() -> None:
    bot = Bot("medium")
    p = play_seeded(bot.choose_play, Position.initial("nackgammon"), 7, turns=600)
    assert p.is_game_over and p.result() in (-1, -2, -3)


def test_a_nackgammon_match_between_bots_is_played_and_recorded() -> None:
    bots = (Bot("easy", seed=1), Bot("medium"))
    m = Match(length=3, seed=11, variant="nackgammon")
    rng = random.Random(11)
    while not m.is_over:
        kinds = m.legal_kinds()
        if "move" in kinds:
            assert m.dice is not None
            play = bots[m.on_roll].choose_play(m.position, m.dice)
            m.apply(Move(str(play) if play is not None else ""))
        else:
            m.apply(rng.choice([a for a in m.legal_actions() if a.kind not in ("resign", "double")]))
    assert max(m.score) >= 3 and Match.from_mat(m.to_mat()).score == m.score
