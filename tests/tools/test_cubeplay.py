"""Cubeful money play: duels with the cube, cubeful rollouts, the cube benchmark and its commands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.bot import Bot
from table.bot.bot import SETTINGS
from table.tools.cubebench import (
    ROUND,
    Reference,
    ReferenceError,
    best_efficiency,
    chances,
    decisions,
    network_digest,
    noise_ceiling,
    pool,
    roll_out,
    sample_positions,
    verdict,
)
from table.bot.net import bundled
from table.cli import main
from table.tools.cubeplay import CubePlayer, cube_duel, rollout
from table.tools.duel import NETWORK, PUBEVAL, Player


def board(p: Position) -> np.ndarray:
    return np.array(p.board, dtype=np.int8)


def test_rollout_of_a_certain_gammon() -> None:
    # Last checker on the ace point, the opponent has borne off nothing: a gammon next roll.
    # Too good to double: no double wins 2 points; after a double and take, 4.
    r = rollout(board(Position.from_checkers({1: 1}, {6: 15})), 36, seed=3)
    assert np.all(r[:, 0] == 2) and np.all(r[:, 1] == 4)


def test_rollout_of_a_certain_gammon_loss() -> None:
    # The opponent bears off his last checker on his turn; the player on roll cannot
    # bring all his checkers home first.  The opponent is too good to double.
    r = rollout(board(Position.from_checkers({13: 15}, {1: 1})), 36, seed=3)
    assert np.all(r[:, 0] == -2) and np.all(r[:, 1] == -4)


def test_rollout_is_seeded() -> None:
    b = board(Position.initial())
    assert np.array_equal(rollout(b, 12, seed=1), rollout(b, 12, seed=1))
    assert not np.array_equal(rollout(b, 12, seed=1), rollout(b, 12, seed=2))
    with pytest.raises(ValueError, match="at least one"):
        rollout(b, 0, seed=1)


def medium() -> CubePlayer:
    s = SETTINGS["medium"]
    return CubePlayer(Player(NETWORK, bundled(), 0, 0.0, s.keep, s.margin), judge_depth=0)


def test_duel_of_a_player_with_itself_cancels_in_every_pair() -> None:
    # Same dice, sides swapped, the same deterministic player (checkers and cube):
    # the second game mirrors the first.
    res, stats = cube_duel(medium(), medium(), 6, seed=4)
    assert np.all(res == 0)
    assert stats[0] > 0  # the cube was turned


def test_two_cube_models_on_the_same_checkers_differ_only_where_their_cube_does() -> None:
    # The too-good line at Janowski's full slope against none: the same checker play, so a
    # pair cancels unless a double or a take went differently; with 200 pairs some do.
    capped = CubePlayer(medium().player, judge_depth=0, too_good=0.0)
    res, _ = cube_duel(CubePlayer(medium().player, judge_depth=0, too_good=1.0), capped, 200, seed=6)
    assert 0 < np.count_nonzero(res) < 100
    res, _ = cube_duel(CubePlayer(medium().player, judge_depth=0, too_good=0.0), capped, 200, seed=6)
    assert np.all(res == 0)


def test_passive_player_never_doubles_and_always_takes() -> None:
    res, stats = cube_duel(medium(), CubePlayer(medium().player, passive=True, judge_depth=0),
                           8, seed=5)
    assert stats[0] > 0 and stats[1] == 0
    assert len(res) == 8


def test_pubeval_with_greu_cube_plays() -> None:
    res, stats = cube_duel(CubePlayer(Player(PUBEVAL), judge_depth=0), medium(), 3, seed=6)
    assert res.shape == (3,) and stats[2] >= 6  # every game ends at a cube of 1 or more


def test_verdict_counts_and_losses() -> None:
    nd = np.array([0.5, 0.7, 0.9])
    dt = np.array([0.8, 0.6, 1.2])
    # The rollout says: double/take, no double/take, double/pass.
    right = verdict(nd, dt, np.array([True, False, True]), np.array([True, True, False]))
    assert right.agreement == 1.0 and right.mean_loss == 0.0
    wrong = verdict(nd, dt, np.array([False, True, False]), np.array([False, False, True]))
    assert wrong.agree == 0 and wrong.doubles_missed == 2 and wrong.doubles_wrong == 1
    assert wrong.loss == pytest.approx(0.3 + 0.1 + 0.1 + 0.2 + 0.4 + 0.2)


def _close_reference(se: float) -> Reference:
    # Two positions on the doubling line (no double = double-take) and two on the take line.
    nd = np.array([0.70, 0.80, 0.50, 0.60])
    dt = np.array([0.70, 0.80, 1.00, 1.00])
    n = len(nd)
    return Reference(np.zeros((n, 26), np.int8), nd, dt, np.full(n, se), np.full(n, se),
                     np.full(n, se), 2592, 1)


def test_noise_ceiling_grows_with_fewer_close_calls_and_less_noise() -> None:
    # On the lines, a noisy reference flips each close decision half the time.
    agree, loss = noise_ceiling(_close_reference(0.05), samples=2000, seed=3)
    assert 0.6 < agree < 0.9 and loss > 0.0
    tiny, tiny_loss = noise_ceiling(_close_reference(1e-12), samples=50, seed=3)
    assert tiny > agree and tiny_loss < 1e-9
    far = Reference(np.zeros((2, 26), np.int8), np.array([0.2, 0.5]), np.array([0.5, 1.6]),
                    np.full(2, 0.05), np.full(2, 0.05), np.full(2, 0.05), 2592, 1)
    assert noise_ceiling(far, samples=200) == (1.0, 0.0)


def test_sampled_positions_are_in_the_window_and_seeded() -> None:
    ps = sample_positions(3, seed=9)
    assert [p.id for p in ps] == [p.id for p in sample_positions(3, seed=9)]
    bot = Bot("medium")
    assert all(0.60 <= bot.evaluate(p, depth=0).win <= 0.88 for p in ps)


def test_reference_rolls_out_saves_and_resumes(tmp_path: Path) -> None:
    ps = sample_positions(2, seed=2)
    path = tmp_path / "ref.npz"
    ref = roll_out(Reference.empty(ps, 6, seed=1), 1, path)
    assert ref.done.all()
    again = Reference.load(path)
    assert np.array_equal(again.nd, ref.nd) and np.array_equal(again.boards, ref.boards)
    # Resuming: a position already done is not rolled out again.
    again.nd[0] = 123.0
    again.nd[1] = np.nan
    again.counts[1] = 0  # as a run stopped before the second position leaves its file
    roll_out(again, 1, path)
    resumed = Reference.load(path)
    assert resumed.nd[0] == 123.0 and resumed.nd[1] == ref.nd[1]


_values = st.lists(st.integers(-8, 8).map(float), min_size=2, max_size=30)


@settings(max_examples=60, deadline=None)
@given(_values, _values)
def test_pooling_two_samples_is_the_statistics_of_both_together(a: list[float],
                                                                 b: list[float]) -> None:
    def stats(x: np.ndarray) -> tuple[float, float]:
        return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))

    both = stats(np.array(a + b))
    assert pool(len(a), *stats(np.array(a)), len(b), *stats(np.array(b))) == pytest.approx(
        both, abs=1e-9)
    assert pool(0, np.nan, np.nan, len(b), *stats(np.array(b))) == stats(np.array(b))


def test_more_trials_add_a_round_with_new_dice_pooled_with_the_old(tmp_path: Path) -> None:
    ps = sample_positions(2, seed=2)
    path = tmp_path / "ref.npz"
    first = roll_out(Reference.empty(ps, 6, seed=1), 1, path)
    assert first.net == network_digest(bundled()) and list(first.counts) == [6, 6]
    ref = Reference.load(path)
    ref.extend_to(12, network_digest(bundled()))
    roll_out(ref, 1, path)
    more = Reference.load(path)
    assert more.trials == 12 and list(more.counts) == [12, 12]
    for i, p in enumerate(ps):
        # The first six trials keep their dice; the next six are new ones (their seed moves).
        old = rollout(board(p), 6, 1 * 100_003 + i)
        new = rollout(board(p), 6, 1 * 100_003 + i + 6 * 2_999)
        assert first.nd[i] == pytest.approx(old[:, 0].mean())
        both = np.concatenate([old, new])
        assert more.nd[i] == pytest.approx(both[:, 0].mean())
        assert more.dt[i] == pytest.approx(both[:, 1].mean())
        assert more.dt_se[i] == pytest.approx(both[:, 1].std(ddof=1) / np.sqrt(12))
        assert more.diff_se[i] == pytest.approx((both[:, 0] - both[:, 1]).std(ddof=1) / np.sqrt(12))


def test_a_reference_is_extended_only_by_the_network_that_rolled_it_out() -> None:
    ps = sample_positions(2, seed=2)
    legacy = Reference(np.array([p.board for p in ps], np.int8), np.array([0.5, 0.6]),
                       np.array([0.8, 0.9]), np.full(2, 0.1), np.full(2, 0.1), np.full(2, 0.1),
                       ROUND, 1)
    assert list(legacy.counts) == [ROUND, ROUND]
    legacy.extend_to(ROUND, "abc")  # nothing to add: nothing to refuse
    assert legacy.net == ""
    with pytest.raises(ReferenceError, match="did not record"):
        legacy.extend_to(2 * ROUND, "abc")
    other = Reference.empty(ps, 6, seed=1)
    other.n = np.array([6, 0])
    other.net = "abc"
    with pytest.raises(ReferenceError, match="network abc"):
        roll_out(other, 1)


def test_decisions_are_the_bots() -> None:
    ps = sample_positions(4, seed=3)
    boards = np.array([p.board for p in ps], dtype=np.int8)
    bot = Bot("hard")
    # At the depth Greu's cube decisions look (it was 1 here while Greu looked 2 plies ahead,
    # and agreed by chance until the network changed).
    d, t = decisions(chances(boards, bot.settings.depth), boards)
    assert [(c.double, c.take) for c in map(bot.cube_decision, ps)] == list(zip(d, t))


def test_best_efficiency_is_no_worse_than_the_model() -> None:
    ps = sample_positions(6, seed=4)
    ref = roll_out(Reference.empty(ps, 6, seed=1), 1)
    p = chances(ref.boards, 0)
    mask = np.ones(len(ps), dtype=bool)
    x, best = best_efficiency(ref, p, mask)
    d, t = decisions(p, ref.boards)
    assert 0.3 <= x <= 1.0
    assert best.loss <= verdict(ref.nd, ref.dt, d, t).loss + 1e-12


def test_bench_cube_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "ref.npz"
    args = ["bench", "cube", "--positions", "2", "--trials", "4", "--jobs", "1", "--depth", "0"]
    assert main(args + ["--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "decisions agree" in out and "points lost per decision" in out
    assert "a judge that knew the true equities would agree" in out
    assert main(args + ["--data", str(data)]) == 0  # reused
    assert "reference from" in capsys.readouterr().out
    assert main(args + ["--data", str(data), "--judge-only"]) == 0
    capsys.readouterr()
    assert main(args[:5] + ["8"] + args[6:] + ["--data", str(data)]) == 0  # 4 more trials
    assert "rollouts of 8 games each" in capsys.readouterr().out
    assert list(Reference.load(data).counts) == [8, 8]
    assert main(args + ["--data", str(tmp_path / "none.npz"), "--judge-only"]) == 2
    assert main(["bench", "cube", "--positions", "0"]) == 2


def test_bench_cube_judges_the_weights_it_is_given(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    ps = sample_positions(3, seed=5)
    boards = np.array([p.board for p in ps], dtype=np.int8)
    gloomy = bundled().copy()
    gloomy.b2[:, 0] -= 3.0  # the player on roll's win output pushed far down
    assert (chances(boards, 0, gloomy)[:, 0] < chances(boards, 0)[:, 0] - 0.1).all()
    data, path = tmp_path / "ref.npz", tmp_path / "gloomy.npz"
    gloomy.save(path)
    args = ["bench", "cube", "--positions", "2", "--trials", "4", "--jobs", "1", "--depth", "0",
            "--data", str(data)]
    assert main(args) == 0
    shipped = capsys.readouterr().out
    assert main(args + ["--judge-only", "--weights", str(path)]) == 0
    judged = capsys.readouterr().out
    assert "gloomy.npz Mediu (0-ply) all" in judged and "gloomy.npz" not in shipped
    assert main(args + ["--judge-only", "--weights", str(tmp_path / "none.npz")]) == 2
    assert "cannot read weights file" in capsys.readouterr().err


def test_bench_strength_cube_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "strength", "medium", "pubeval", "--cube", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "cubeful money" in out and "doubles" in out
    assert main(["bench", "strength", "medium", "medium", "--cube", "--passive", "b",
                 "--games", "2", "--jobs", "2"]) == 0
    assert "(medium passive)" in capsys.readouterr().out
    assert main(["bench", "strength", "medium", "--passive", "b", "--games", "2"]) == 2
