"""Self-play training: seeded, resumable, learning, and the command line."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from table.bot.net import Weights
from table.cli import main
from table.tools.train.trainer import Schedule, TrainConfig, train


def cfg(tmp: Path, games: int, name: str = "ck.npz") -> TrainConfig:
    return TrainConfig(checkpoint=tmp / name, games=games, seed=5, hidden=8, chunk=10,
                       check_every=10_000, check_pairs=2, checkpoint_seconds=1e9,
                       log=tmp / "log.txt", bearoff=False)


def test_resuming_gives_the_same_weights(tmp_path: Path) -> None:
    straight = train(cfg(tmp_path, 40, "a.npz"), io.StringIO())
    train(cfg(tmp_path, 20, "b.npz"), io.StringIO())
    resumed = train(cfg(tmp_path, 40, "b.npz"), io.StringIO())
    assert resumed.games == straight.games == 40
    assert np.array_equal(resumed.w1, straight.w1)
    assert np.array_equal(resumed.w2, straight.w2)
    assert Weights.load(tmp_path / "b.npz").games == 40
    log = (tmp_path / "log.txt").read_text()
    assert "resume: games=20" in log and "games/s" in log


def test_learning_changes_the_weights(tmp_path: Path) -> None:
    start = Weights.random(8, 5)
    trained = train(cfg(tmp_path, 20), io.StringIO())
    assert not np.array_equal(start.w1, trained.w1)
    assert np.all(np.isfinite(trained.w1))


def test_schedule() -> None:
    s = Schedule()
    assert s.at(0) == (s.alpha, s.lam)
    assert s.at(s.late_after)[0] == s.alpha_late
    assert s.at(s.final_after)[0] == s.alpha_final


def test_train_command(tmp_path: Path) -> None:
    rc = main(["train", "--checkpoint", str(tmp_path / "c.npz"), "--games", "20", "--hidden", "8",
               "--chunk", "10", "--check-every", "20", "--check-pairs", "2",
               "--log", str(tmp_path / "l.txt"), "--export", str(tmp_path / "w.npz")])
    assert rc == 0
    assert Weights.load(tmp_path / "w.npz").games == 20
    assert "check games=20 vs pubeval" in (tmp_path / "l.txt").read_text()


def test_bench_strength_command(capsys: object) -> None:
    assert main(["bench", "strength", "medium", "random", "--games", "10"]) == 0


def test_race_pass_counts_apart(tmp_path: Path) -> None:
    c = cfg(tmp_path, 20)
    train(c, io.StringIO())
    c.races = True
    c.bearoff = True
    w = train(c, io.StringIO())
    assert w.games == 20
    assert w.meta["race_games"] == "20"
    assert "race-games=20" in (tmp_path / "log.txt").read_text()


def test_bench_latency_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "latency", "--positions", "5", "--levels", "medium,hard"]) == 0
    out = capsys.readouterr().out
    assert "medium: median" in out and "hard" in out
