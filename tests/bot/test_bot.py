"""The bot with its bundled weights: valid chances, legal plays, determinism, strength."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.bot import Bot, BotError, Evaluation, Weights, WeightsError
from table.bot.net import bundled
from table.rules.dice import SeededDice, roll
from table.tools.duel import NETWORK, RANDOM, Player, duel, summary
from tests.rules.strategies import dice, positions

# The weights shipped before the current ones (kept for this comparison; see training/README.md).
PREVIOUS = Path(__file__).resolve().parents[2] / "training" / "checkpoints" / "refine-3.npz"
MEDIUM = Bot("medium")
EASY = Bot("easy", seed=5)
HARD = Bot("hard")


def check_chances(e: Evaluation) -> None:
    for v in e.as_tuple():
        assert 0.0 <= v <= 1.0
    assert e.win_backgammon <= e.win_gammon <= e.win
    assert e.lose_backgammon <= e.lose_gammon <= e.lose + 1e-6
    assert -3.0 <= e.equity <= 3.0


@settings(max_examples=200, deadline=None)
@given(positions())
def test_chances_are_valid(p: Position) -> None:
    check_chances(MEDIUM.evaluate(p))


@settings(max_examples=25, deadline=None)
@given(positions())
def test_one_ply_chances_are_valid(p: Position) -> None:
    check_chances(HARD.evaluate(p))


def test_finished_game_is_exact() -> None:
    # The opponent has borne off everything; the player on roll still has 15 home: a gammon.
    p = Position.from_checkers({6: 15}, {})
    assert MEDIUM.evaluate(p).as_tuple() == (0.0, 0.0, 0.0, 1.0, 0.0)


def test_no_gammon_once_a_checker_is_off() -> None:
    e = MEDIUM.evaluate(Position.from_checkers({6: 14}, {24: 15}))
    assert e.lose_gammon == 0.0 and e.lose_backgammon == 0.0


@pytest.mark.parametrize("bot", [MEDIUM, EASY, HARD], ids=["medium", "easy", "hard"])
@settings(max_examples=40, deadline=None)
@given(p=positions(), d=dice)
def test_chosen_play_is_legal(bot: Bot, p: Position, d: tuple[int, int]) -> None:
    plays = p.legal_plays(d)
    chosen = bot.choose_play(p, d)
    if not plays:
        assert chosen is None
    else:
        assert chosen in plays


def _game_moves(bot: Bot, seed: int, turns: int = 40) -> list[str]:
    src = SeededDice(seed)
    p = Position.initial()
    out = []
    for _ in range(turns):
        if p.is_game_over:
            break
        play = bot.choose_play(p, roll(src))
        out.append(str(play))
        p = play.position if play is not None else p.swapped()
    return out


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_deterministic_for_a_seed(level: str) -> None:
    turns = 12 if level == "hard" else 40
    assert _game_moves(Bot(level, seed=3), 11, turns) == _game_moves(Bot(level, seed=3), 11, turns)


def test_easy_depends_on_its_seed() -> None:
    games = {tuple(_game_moves(Bot("easy", seed=s), 11)) for s in range(4)}
    assert len(games) > 1


def test_unknown_level() -> None:
    with pytest.raises(BotError, match="unknown level"):
        Bot("grandmaster")


def test_bundled_weights_beat_random_by_far() -> None:
    res = duel(Player(NETWORK, bundled()), Player(RANDOM), 50, seed=99)
    ppg, ci = summary(res)
    assert ppg - ci > 1.0


def test_bundled_weights_beat_the_previous_weights() -> None:
    # Duplicate dice: the same player on both sides scores exactly 0, so a margin can only come
    # from the weights.  At this seed the shipped weights lead by 0.098 ± 0.077 over 500 pairs
    # (0.097 over 160,000 games, research/bench.txt); weights no better than the old ones would not.
    res = duel(Player(NETWORK, bundled()), Player(NETWORK, Weights.load(PREVIOUS)), 500, seed=13)
    ppg, _ = summary(res)
    assert ppg > 0.02
    same = duel(Player(NETWORK, bundled()), Player(NETWORK, bundled()), 50, seed=13)
    assert not same.any()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_evaluation_swap_is_involutive(seed: int) -> None:
    e = Evaluation(0.6, 0.2, 0.01, 0.1, 0.005)
    assert e.swapped().swapped() == e
    assert e.swapped().equity == pytest.approx(-e.equity)


def test_weights_errors(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="cannot read"):
        Weights.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "bad.npz", w1=np.zeros((2, 3, 4)))
    with pytest.raises(WeightsError, match="no array 'b1'"):
        Weights.load(tmp_path / "bad.npz")
    w = Weights.random(4, 1)
    np.savez(tmp_path / "shape.npz", w1=w.w1[:, :5], b1=w.b1, w2=w.w2, b2=w.b2)
    with pytest.raises(WeightsError, match="w1 has shape"):
        Weights.load(tmp_path / "shape.npz")
    np.savez(tmp_path / "future.npz", w1=w.w1, b1=w.b1, w2=w.w2, b2=w.b2, version=99)
    with pytest.raises(WeightsError, match="format 99"):
        Weights.load(tmp_path / "future.npz")
    w.games = 7
    w.meta["seed"] = "3"
    w.save(tmp_path / "ok.npz")
    back = Weights.load(tmp_path / "ok.npz")
    assert back.games == 7 and back.meta == {"seed": "3"}
    assert np.array_equal(back.w1, w.w1)


@settings(max_examples=15, deadline=None)
@given(positions(), dice)
def test_ranked_plays_are_every_play_best_first_at_the_levels_depth(
    p: Position, d: tuple[int, int]
) -> None:
    for bot, depth in ((MEDIUM, 0), (HARD, 1)):
        ranked = bot.ranked_plays(p, d)
        assert {str(play) for play, _ in ranked} == {str(play) for play in p.legal_plays(d)}
        equities = [e for _, e in ranked]
        assert equities == sorted(equities, reverse=True)
        for play, equity in ranked[:3]:
            # The mover's equity after the play is minus the opponent's, now on roll.
            assert equity == pytest.approx(-bot.evaluate(play.position, depth=depth).equity)


def test_ranked_plays_take_the_roll_as_text_and_a_depth() -> None:
    start = Position.initial()
    as_text = [(str(p), e) for p, e in HARD.ranked_plays(start, "3-1", depth=0)]
    assert as_text == [(str(p), e) for p, e in MEDIUM.ranked_plays(start, (3, 1))]
    analysed = MEDIUM.analyse_plays(start, "31")
    assert [(str(p), e.equity) for p, e in analysed] == as_text
    assert all(0.0 <= e.win_gammon <= e.win <= 1.0 for _, e in analysed)


def test_greu_plays_two_plies_ahead_and_advises_one_ply_ahead() -> None:
    from table.bot.bot import SETTINGS, LevelSettings

    p = Position.from_id("4HPwATDgc/ABMA")  # the opening position
    assert HARD.evaluate(p).as_tuple() == HARD.evaluate(p, depth=2).as_tuple()
    assert HARD.evaluate(p).as_tuple() != HARD.evaluate(p, depth=1).as_tuple()
    # Every play judged at Greu's analysis depth, not its (costlier) playing depth.
    advice = [(str(pl), e.as_tuple()) for pl, e in HARD.analyse_plays(p, (4, 2))]
    assert advice == [(str(pl), e.as_tuple()) for pl, e in HARD.analyse_plays(p, (4, 2), depth=1)]
    assert SETTINGS["hard"].analysis == 1 and SETTINGS["hard"].depth == 2
    # A level without its own analysis depth advises at its playing depth; so does a bot whose
    # depth is set explicitly (a review two plies deep judges every play two plies deep).
    assert LevelSettings(depth=1, noise=0.0).analysis == 1
    assert Bot("medium", depth=2).settings.analysis == 2
