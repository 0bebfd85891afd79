"""Refinement passes: positions from self-play, 1-ply labels, supervised fitting, the command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from table.bot import bearoff
from table.bot.bot import Bot
from table.bot.net import Weights, bundled
from table.cli import main
from table.rules.position import Position
from table.tools.train.refine import Dataset, FitConfig, collect, fit, label, plies

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def test_collected_positions_are_legal_and_unfinished() -> None:
    positions = collect(bundled(), 400, seed=3)
    assert positions.shape == (400, 26)
    db = bearoff.database()
    for board in positions:
        pos = Position(int(v) for v in board)  # the constructor validates 15 checkers a side
        assert not pos.is_game_over
        assert not bearoff.applies(db, board)
    assert np.array_equal(positions, collect(bundled(), 400, seed=3))
    assert not np.array_equal(positions, collect(bundled(), 400, seed=4))


def _one_ply_by_hand(bot: Bot, pos: Position) -> np.ndarray:
    """The 1-ply chances from the public API: each roll's best play at 0-ply, then averaged."""
    acc = np.zeros(5)
    for roll in ROLLS:
        plays = pos.legal_plays(roll)
        after = [p.position for p in plays] or [pos.swapped()]
        best = max(after, key=lambda a: -bot.evaluate(a, depth=0).equity)
        e = bot.evaluate(best, depth=0).swapped()
        acc += (1 if roll[0] == roll[1] else 2) * np.array(e.as_tuple())
    return acc / 36


def test_labels_are_the_one_ply_chances() -> None:
    positions = collect(bundled(), 60, seed=5)[::20]
    labels = label(bundled(), positions)
    bot = Bot("medium")
    for board, got in zip(positions, labels):
        want = _one_ply_by_hand(bot, Position(int(v) for v in board))
        assert got == pytest.approx(want, abs=1e-4)


def test_two_ply_labels_average_the_one_ply_chances_after_each_best_reply() -> None:
    board = collect(bundled(), 30, seed=6)[29]
    pos = Position(int(v) for v in board)
    bot = Bot("medium")
    acc = np.zeros(5)
    for roll in ROLLS:
        after = [p.position for p in pos.legal_plays(roll)] or [pos.swapped()]
        best = max(after, key=lambda a: -bot.evaluate(a, depth=0).equity)
        theirs = _one_ply_by_hand(bot, best)  # the opponent's chances, turned round below
        acc += (1 if roll[0] == roll[1] else 2) * np.array(
            [1 - theirs[0], theirs[3], theirs[4], theirs[1], theirs[2]])
    got = label(bundled(), board[None, :], depth=2)[0]
    assert got == pytest.approx(acc / 36, abs=1e-4)
    assert plies(2).kind == "2-ply"
    with pytest.raises(ValueError, match="1 to 2 plies"):
        label(bundled(), board[None, :], depth=3)


def test_fitting_moves_the_network_towards_the_targets() -> None:
    positions = collect(bundled(), 3000, seed=7)
    target = np.array([0.8, 0.3, 0.02, 0.05, 0.001], dtype=np.float32)
    data = Dataset(positions, np.tile(target, (len(positions), 1)))
    start = Weights.random(16, 2)
    fitted = fit(start, data, FitConfig(epochs=4, batch=32, lr=1e-2, lr_final=3e-3), log=lambda s: None)
    bot_before, bot_after = Bot("medium", weights=start), Bot("medium", weights=fitted)
    pos = Position(int(v) for v in positions[11])
    before = np.array(bot_before.evaluate(pos).as_tuple())
    after = np.array(bot_after.evaluate(pos).as_tuple())
    assert np.abs(after - target).max() < 0.05 < np.abs(before - target).max()
    assert np.array_equal(start.w1, Weights.random(16, 2).w1)  # the input is left alone


def test_dataset_round_trip(tmp_path: Path) -> None:
    data = Dataset(np.zeros((3, 26), np.int8), np.full((3, 5), 0.25, np.float32))
    data.save(tmp_path / "d.npz")
    assert sorted(f.name for f in tmp_path.iterdir()) == ["d.npz"]  # nothing left beside it
    back = Dataset.load(tmp_path / "d.npz")
    assert np.array_equal(back.positions, data.positions)
    assert np.array_equal(back.targets, data.targets)


def test_refine_command(tmp_path: Path) -> None:
    start = tmp_path / "start.npz"
    Weights.random(8, 1).save(start)
    rc = main(["refine", "--weights", str(start), "--out", str(tmp_path / "out.npz"),
               "--positions", "1000", "--jobs", "1", "--epochs", "1",
               "--data", str(tmp_path / "data.npz"), "--log", str(tmp_path / "log.txt")])
    assert rc == 0
    out = Weights.load(tmp_path / "out.npz")
    assert out.meta["refine_passes"] == "1"
    assert not np.array_equal(out.w1, Weights.load(start).w1)
    log = (tmp_path / "log.txt").read_text()
    assert "labelled 1000/1000" in log and "wrote" in log
    # A second run reuses the saved labels.
    assert main(["refine", "--weights", str(start), "--out", str(tmp_path / "o2.npz"),
                 "--positions", "1000", "--jobs", "1", "--epochs", "1",
                 "--data", str(tmp_path / "data.npz"), "--log", str(tmp_path / "log.txt")]) == 0
    assert "reusing 1000 labelled positions" in (tmp_path / "log.txt").read_text()


def test_refine_fits_to_earlier_datasets_as_well(tmp_path: Path) -> None:
    start = tmp_path / "start.npz"
    Weights.random(8, 1).save(start)
    positions = collect(bundled(), 1000, seed=21)
    Dataset(positions, np.full((1000, 5), 0.5, np.float32)).save(tmp_path / "a.npz")
    Dataset(positions[:400], np.full((400, 5), 0.1, np.float32), "rollout x").save(tmp_path / "b.npz")
    assert main(["refine", "--weights", str(start), "--out", str(tmp_path / "out.npz"),
                 "--epochs", "1", "--data", str(tmp_path / "a.npz"), "--also",
                 str(tmp_path / "b.npz"), "--log", str(tmp_path / "log.txt")]) == 0
    log = (tmp_path / "log.txt").read_text()
    assert "fitting to 1400 positions in all (1-ply + rollout x)" in log
    assert "labels=1-ply + rollout x" in Weights.load(tmp_path / "out.npz").meta["refine_1"]


def test_refine_refuses_a_missing_extra_dataset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refine", "--out", str(tmp_path / "o.npz"), "--also", str(tmp_path / "no.npz")]) == 2
    err = capsys.readouterr().err
    assert "--also" in err and "no such file" in err
    assert not (tmp_path / "o.npz").exists()


def test_joined_datasets_keep_their_order_and_name_each_kind_once() -> None:
    a = Dataset(np.zeros((2, 26), np.int8), np.full((2, 5), 0.1, np.float32))
    b = Dataset(np.ones((1, 26), np.int8), np.full((1, 5), 0.2, np.float32), "rollout")
    assert len(b.labelled().positions) == 1
    half = Dataset(np.zeros((3, 26), np.int8), np.full((3, 5), np.nan, np.float32))
    half.targets[1] = 0.3
    assert half.labelled().targets.tolist() == [[pytest.approx(0.3)] * 5]
    both = Dataset.joined([a, b, a])
    assert both.kind == "1-ply + rollout"
    assert both.positions.shape == (5, 26) and both.positions[2, 0] == 1
    assert both.targets[:, 0].tolist() == pytest.approx([0.1, 0.1, 0.2, 0.1, 0.1])


def test_refine_command_rejects_bad_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refine", "--out", str(tmp_path / "o.npz"), "--positions", "10"]) == 2
    assert "--positions must be at least 1000" in capsys.readouterr().err
    assert not (tmp_path / "o.npz").exists()


def test_bench_strength_plays_a_weights_file_at_a_depth(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "w.npz"
    bundled().save(path)
    assert main(["bench", "strength", f"{path}:1", "random", "--games", "2"]) == 0
    assert f"{path}:1 vs random" in capsys.readouterr().out
    assert main(["bench", "strength", f"{path}:7", "random", "--games", "2"]) == 2
    assert "unknown player" in capsys.readouterr().err


def test_bench_strength_players_may_name_their_move_filters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from table.bot.bot import SETTINGS
    from table.tools.bench.strength import player

    assert player("hard:2:8,2:0.16,0.04")[1].keep == (8, 2)
    assert player("hard:2:8,2:0.16,0.04")[1].margin == (0.16, 0.04)
    assert player("hard:2:8,2:0.16,0.04")[1].depth == 2
    assert player("hard")[1].keep == SETTINGS["hard"].keep  # the level's own when none is named
    path = tmp_path / "w.npz"
    bundled().save(path)
    assert player(f"{path}:1:5:0.2")[1].keep == (5,)
    assert main(["bench", "strength", f"{path}:1:5:0.2", "random", "--games", "2"]) == 0
    assert f"{path}:1:5:0.2 vs random" in capsys.readouterr().out
    for bad in ("hard:2:8,x:0.1", "hard:2:8:-0.1", "hard:2:0:0.1", "hard:3:8:0.1", "hard:2:8"):
        assert main(["bench", "strength", bad, "random", "--games", "2"]) == 2, bad
        assert "unknown player" in capsys.readouterr().err


def test_widened_networks_judge_as_before() -> None:
    w = Weights.random(32, 5)  # one hidden layer (the shipped networks have two)
    wide = w.widened(w.hidden + 16, seed=3)
    assert wide.hidden == w.hidden + 16
    pos = Position(int(v) for v in collect(bundled(), 30, seed=9)[29])
    a = Bot("medium", weights=w).evaluate(pos).as_tuple()
    b = Bot("medium", weights=wide).evaluate(pos).as_tuple()
    assert b == pytest.approx(a, abs=1e-6)


def test_widened_two_layer_networks_judge_as_before() -> None:
    w = bundled()
    wide = w.widened(w.hidden + 8, seed=3, hidden2=w.hidden2 + 4)
    assert (wide.hidden, wide.hidden2) == (w.hidden + 8, w.hidden2 + 4)
    for board in collect(bundled(), 40, seed=9)[::8]:
        pos = Position(int(v) for v in board)
        a = Bot("medium", weights=w).evaluate(pos).as_tuple()
        b = Bot("medium", weights=wide).evaluate(pos).as_tuple()
        assert b == pytest.approx(a, abs=1e-5)
