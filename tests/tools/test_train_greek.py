"""Self-play training and duels of Plakoto and Fevga (their own boards and networks)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from table.bot.net import Weights
from table.cli import main
from table.errors import TableError
from table.tools.duel import NETWORK, RANDOM, RULES, Player, duel, start_board
from table.tools.train.trainer import TrainConfig, train


def _cfg(folder: Path, variant: str, games: int, races: bool = False) -> TrainConfig:
    return TrainConfig(checkpoint=folder / f"{variant}.npz", games=games, seed=5, hidden=8,
                       chunk=4, check_every=8, check_pairs=1, checkpoint_seconds=1e9,
                       snapshot_every=10**9, log=folder / "log.txt", variant=variant, races=races)


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_training_resumes_from_its_checkpoint_as_if_never_stopped(tmp_path: Path,
                                                                  variant: str) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    whole = train(_cfg(tmp_path / "a", variant, 16), io.StringIO())
    half = train(_cfg(tmp_path / "b", variant, 8), io.StringIO())
    assert half.games == 8 and (tmp_path / "b" / f"{variant}.npz").exists()
    resumed = train(_cfg(tmp_path / "b", variant, 16), io.StringIO())
    assert resumed.games == whole.games == 16 and resumed.meta["variant"] == variant
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(resumed, name), getattr(whole, name)), name
    assert not np.array_equal(Weights.random(8, 5).w1, whole.w1)
    log = (tmp_path / "b" / "log.txt").read_text()
    assert "resume: games=8" in log and "abandoned=0" in log
    assert "vs rules 0-ply" in log  # pubeval cannot read these boards


def test_a_greek_checkpoint_is_its_games_only(tmp_path: Path) -> None:
    train(_cfg(tmp_path, "plakoto", 4), io.StringIO())
    (tmp_path / "plakoto.npz").rename(tmp_path / "fevga.npz")
    with pytest.raises(TableError, match="trained for plakoto, not fevga"):
        train(_cfg(tmp_path, "fevga", 8), io.StringIO())
    with pytest.raises(TableError, match="--races"):
        train(_cfg(tmp_path / "x", "plakoto", 4, races=True), io.StringIO())


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_duels_play_every_game_to_its_end(variant: str) -> None:
    # Each pair's two games score within -4..4 (a gammon is 2, a draw 0); none abandoned, so
    # the rule-based player, which plays for the board, takes points from random moves.
    start = start_board(variant, greek=True)
    res = duel(Player(RULES), Player(RANDOM), 6, 3, start, variant)
    assert res.min() >= -4 and res.max() <= 4 and res.sum() > 0
    net = duel(Player(NETWORK, Weights.random(8, 1), depth=1), Player(RULES), 1, 3, start, variant)
    assert -4 <= int(net[0]) <= 4


def test_bench_strength_plays_the_greek_games(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    Weights.random(8, 2).save(tmp_path / "net.npz")
    assert main(["bench", "strength", str(tmp_path / "net.npz"), "rules", "--games", "2",
                 "--variant", "fevga"]) == 0
    assert f"{tmp_path / 'net.npz'} vs rules (fevga):" in capsys.readouterr().out
