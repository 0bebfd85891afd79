"""The computer in Hypergammon: three checkers a side decide who is gammoned, in the bear-off
database, the networks' finished games and tidying, duels and self-play."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from table import Position
from table.bot import bearoff
from table.bot.bot import Bot
from table.bot.player import next_action
from table.bot.evaluator import LOSE_GAMMON, WIN, WIN_GAMMON, NetEvaluator, evaluator_for
from table.bot.net import Weights, bundled, final_probs, tidy
from table.errors import TableError
from table.match import Match
from table.tools.duel import NETWORK, RANDOM, Player, duel, start_board
from table.tools.train.trainer import TrainConfig, train
from tests.bot.games import play_seeded


def _board(p: Position) -> np.ndarray:
    return np.array(p.board, dtype=np.int8)


def test_a_finished_game_is_a_gammon_when_the_loser_has_all_three_on() -> None:
    over = _board(Position.from_checkers({8: 1, 7: 1, 9: 1}, {}, variant="hypergammon"))
    out = np.zeros(5, dtype=np.float32)
    assert final_probs(over, out, 3) and out.tolist() == [0, 0, 0, 1, 0]
    # Standard backgammon's count would read twelve checkers off: a single game.
    assert final_probs(over, out) and out.tolist() == [0, 0, 0, 0, 0]


def test_tidy_keeps_gammons_of_a_side_with_three_on() -> None:
    b = _board(Position.initial("hypergammon"))
    p = np.array([0.5, 0.2, 0.05, 0.2, 0.05], dtype=np.float32)
    tidy(b, p, 3)
    assert p[WIN_GAMMON] == pytest.approx(0.2) and p[LOSE_GAMMON] == pytest.approx(0.2)
    tidy(b, p)  # as if twelve were off: no gammons
    assert p[WIN_GAMMON] == 0.0 and p[LOSE_GAMMON] == 0.0


def test_the_bearoff_database_counts_three_checkers() -> None:
    db = bearoff.database(3)
    out = np.zeros(5, dtype=np.float32)
    # On roll with one checker on the 1-point, against three on the opponent's 6-point: the
    # player wins with any roll, and the opponent has none off: a gammon, surely.
    b = _board(Position.from_checkers({1: 1}, {6: 3}, variant="hypergammon"))
    bearoff.probabilities(db, b, out, 3)
    assert out[WIN] == pytest.approx(1.0) and out[WIN_GAMMON] == pytest.approx(1.0)
    # One checker on the 6-point and one on the 5-point against two on the opponent's 1-point
    # and one on its 2-point (it has none off, and bears one off with any roll).  We gammon only
    # by bearing off both now: 6-5 (2 of 36), or a double of 3, 4, 5 or 6 (4 more): 6 of 36.
    b = _board(Position.from_checkers({6: 1, 5: 1}, {1: 2, 2: 1}, variant="hypergammon"))
    bearoff.probabilities(db, b, out, 3)
    assert out[WIN_GAMMON] == pytest.approx(6 / 36, abs=1e-6)
    # The first-off layer of the standard database says a side of three has one off already.
    bearoff.probabilities(bearoff.database(), b, out, 3)
    assert out[WIN_GAMMON] == 0.0


def test_the_evaluator_plays_with_hypergammons_own_networks() -> None:
    ev = evaluator_for("hypergammon")
    assert isinstance(ev, NetEvaluator) and ev.weights is bundled("hypergammon")
    assert ev.checkers == 3 and ev.weights is not bundled()
    over = _board(Position.from_checkers({8: 1, 7: 1, 9: 1}, {}, variant="hypergammon"))
    start = _board(Position.initial("hypergammon"))
    chances = ev.evaluate(np.stack([over, start]))
    assert chances[0].tolist() == [0, 0, 0, 1, 0]
    assert 0.3 < chances[1, WIN] < 0.8 and chances[1, WIN_GAMMON] > 0.01


def test_the_bot_plays_a_hypergammon_game_to_its_end() -> None:
    bot = Bot("hard", weights=bundled("hypergammon"))
    p = play_seeded(bot.choose_play, Position.initial("hypergammon"), 3, turns=400)
    assert p.is_game_over and p.result() in (-1, -2, -3)


def test_a_hypergammon_match_between_bots_is_played_to_the_end() -> None:
    bots = (Bot("easy", seed=1, weights=bundled("hypergammon")),
            Bot("medium", weights=bundled("hypergammon")))
    m = Match(length=3, seed=4, variant="hypergammon")
    for _ in range(3000):
        if m.is_over:
            break
        turn = m.turn
        action = None if turn is None else next_action(bots[turn], m)
        m.apply(action if action is not None else m.legal_actions()[0])
    assert m.is_over and max(m.score) >= 3
    assert Match.from_mat(m.to_mat()).score == m.score


def test_duels_score_hypergammon_gammons() -> None:
    # Random play against random play from Hypergammon's start: gammons are common (about
    # half the games in self-play), so some pair scores more than one point a game.
    res = duel(Player(RANDOM), Player(RANDOM), 40, seed=3, start=start_board("hypergammon"))
    assert np.abs(res).max() >= 3


def test_training_from_hypergammons_start(tmp_path: Path) -> None:
    cfg = TrainConfig(checkpoint=tmp_path / "h.npz", games=20, seed=5, hidden=8, chunk=10,
                      check_every=10_000, check_pairs=2, checkpoint_seconds=1e9,
                      log=tmp_path / "log.txt", variant="hypergammon")
    w = train(cfg, io.StringIO())
    assert w.games == 20 and w.meta["variant"] == "hypergammon"
    assert "variant=hypergammon" in (tmp_path / "log.txt").read_text()
    standard = TrainConfig(checkpoint=tmp_path / "h.npz", games=40, seed=5, hidden=8, chunk=10,
                           check_every=10_000, check_pairs=2, checkpoint_seconds=1e9)
    with pytest.raises(TableError, match="trained for hypergammon, not standard"):
        train(standard, io.StringIO())


def test_a_bot_with_the_shipped_networks_plays_hypergammon_with_its_own() -> None:
    # The terminal, hints and reviews make a Bot without naming weights: a Hypergammon
    # position is still judged by Hypergammon's networks, as evaluator_for gives them.
    start = Position.initial("hypergammon")
    own = Bot("medium", weights=bundled("hypergammon")).evaluate(start)
    assert Bot("medium").evaluate(start) == own
    assert bundled("hypergammon") is not bundled()
    # Given other weights, it plays with those.
    other = Bot("medium", weights=Weights.random(8, 3)).evaluate(start)
    assert other != own
