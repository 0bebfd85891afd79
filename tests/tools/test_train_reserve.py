"""Self-play training for the variants whose checkers start off the board (28-entry boards)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from table.bot.net import Weights
from table.errors import TableError
from table.tools.train.trainer import TrainConfig, train


def _cfg(tmp: Path, variant: str, games: int, init: Path | None = None) -> TrainConfig:
    return TrainConfig(checkpoint=tmp / f"{variant}.npz", games=games, seed=5, hidden=8,
                       chunk=4, check_every=4, check_pairs=1, checkpoint_seconds=1e9,
                       log=tmp / "log.txt", variant=variant, init=init)


@pytest.mark.parametrize("variant", ["race", "dutch", "acey-deucey"])
def test_self_play_from_the_reserve_start_learns(tmp_path: Path, variant: str) -> None:
    trained = train(_cfg(tmp_path, variant, 4), io.StringIO())
    assert trained.games == 4 and trained.meta["variant"] == variant
    assert not np.array_equal(Weights.random(8, 5).w1, trained.w1)
    assert np.all(np.isfinite(trained.w1))
    log = (tmp_path / "log.txt").read_text()
    assert "abandoned=0" in log  # every game was played to its end
    assert "vs rules 0-ply" in log  # pubeval cannot read the waiting checkers


def test_fine_tuning_starts_from_the_given_weights(tmp_path: Path) -> None:
    init = Weights.random(8, 9)
    init.games = 1_000_000  # the schedule goes on from here: the late, small steps
    init.save(tmp_path / "init.npz")
    tuned = train(_cfg(tmp_path, "race", 1_000_004, tmp_path / "init.npz"), io.StringIO())
    assert tuned.games == 1_000_004 and tuned.meta["init_games"] == "1000000"
    assert tuned.meta["variant"] == "race"
    assert not np.array_equal(tuned.w1, init.w1)
    # Near where it started (four games of learning), not a fresh random start.
    assert np.corrcoef(tuned.w1.ravel(), init.w1.ravel())[0, 1] > 0.9


def test_fine_tuning_refuses_two_hidden_layers(tmp_path: Path) -> None:
    Weights.random(8, 9).deepened(4, 1).save(tmp_path / "deep.npz")
    with pytest.raises(TableError, match="two hidden layers"):
        train(_cfg(tmp_path, "race", 4, tmp_path / "deep.npz"), io.StringIO())
