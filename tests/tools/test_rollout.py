"""Truncated-rollout labels: exact endings, determinism, stratification, agreement with 1-ply."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from table.bot.bot import Bot
from table.bot.net import Weights, bundled
from table.tools.train import refine
from table.tools.train import rollout
from table.tools.train.refine import (
    Dataset, FitConfig, Labeller, Progress, collect, label, partial_path, run_pass,
)
from table.tools.train.rollout import (
    EVERY_ROLL, RANDOM_DICE, rollout_errors, rollout_label, stratified_roll,
)
from table.cli import main
from table.errors import TableError
from table.rules.position import Position


def _board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A board from the player on roll's side: ``mine`` on its points, ``theirs`` on the
    opponent's own points (its 1-point is our 24-point)."""
    b = np.zeros(26, dtype=np.int8)
    for p, n in mine.items():
        b[p] = n
    for p, n in theirs.items():
        b[25 - p] = -n
    Position(int(v) for v in b)  # validates 15 checkers or fewer a side
    return b


def _contact(n: int) -> np.ndarray:
    return collect(bundled(), n, seed=21)


def test_a_sure_win_is_labelled_a_win() -> None:
    # One checker on our 1-point, the opponent with all 15 on: a certain gammon.
    home = _board({1: 1}, {6: 15})  # both home: the bear-off database knows it
    away = _board({1: 1}, {12: 15})  # not home: the trial plays it out
    labels = rollout_label(bundled(), np.stack([home, away]), trials=36, depth=5, seed=1)
    assert labels[:, :3] == pytest.approx(np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]]), abs=1e-6)
    assert labels[:, 3:] == pytest.approx(np.zeros((2, 2)), abs=1e-6)


def test_a_sure_loss_is_labelled_a_loss() -> None:
    # Two checkers on our 13-point can't be borne off this turn; the opponent's last checker
    # on its 1-point is off next turn.  We have borne off 13, so no gammon.
    lost = _board({13: 2}, {1: 1})
    labels = rollout_label(bundled(), lost[None, :], trials=36, depth=3, seed=1, luck=3)
    assert labels[0] == pytest.approx(np.zeros(5), abs=1e-6)


def test_same_seed_same_labels_other_seed_other_labels() -> None:
    positions = _contact(4)
    a = rollout_label(bundled(), positions, trials=6, depth=3, seed=5)
    assert np.array_equal(a, rollout_label(bundled(), positions, trials=6, depth=3, seed=5))
    assert not np.array_equal(a, rollout_label(bundled(), positions, trials=6, depth=3, seed=6))


def test_labels_do_not_depend_on_how_the_work_is_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _contact(5)
    monkeypatch.setattr(rollout, "PART", 2)  # three parts
    one = rollout_label(bundled(), positions, trials=3, depth=2, seed=9, jobs=1)
    two = rollout_label(bundled(), positions, trials=3, depth=2, seed=9, jobs=2)
    assert np.array_equal(one, two)


def test_the_first_rolls_of_36_trials_are_the_36_outcomes() -> None:
    every = {(a, b) for a in range(1, 7) for b in range(1, 7)}
    for order in (np.arange(36), np.random.default_rng(3).permutation(36)):
        first = [stratified_roll(k, order) for k in range(36)]
        assert set(first) == every and len(first) == 36
        # and the next 36 trials take them all again, in the same order
        assert [stratified_roll(k, order) for k in range(36, 72)] == first


def test_depth_zero_is_the_network_at_zero_ply() -> None:
    positions = _contact(3)
    labels = rollout_label(bundled(), positions, trials=4, depth=0, seed=1)
    bot = Bot("medium")
    for board, got in zip(positions, labels):
        want = bot.evaluate(Position(int(v) for v in board), depth=0).as_tuple()
        assert got == pytest.approx(np.array(want), abs=1e-5)


def test_depth_one_over_36_trials_is_the_one_ply_label() -> None:
    # Stratified first rolls make one half-move over 36 trials exactly the 1-ply average.
    positions = _contact(4)
    got = rollout_label(bundled(), positions, trials=36, depth=1, seed=2)
    assert got == pytest.approx(label(bundled(), positions), abs=1e-5)


def _races() -> np.ndarray:
    """Quiet races, a few checkers still outside home (the database does not decide them)."""
    return np.stack([
        _board({6: 4, 5: 3, 4: 3, 3: 2, 8: 2, 9: 1}, {6: 4, 5: 3, 4: 3, 3: 2, 8: 2, 9: 1}),
        _board({6: 5, 5: 3, 4: 2, 2: 2, 7: 3}, {6: 3, 5: 3, 4: 3, 3: 3, 8: 3}),
        _board({6: 3, 5: 3, 4: 3, 10: 3, 11: 3}, {6: 5, 5: 4, 4: 3, 2: 3}),
        _board({6: 4, 4: 4, 3: 2, 1: 2, 9: 3}, {6: 4, 5: 4, 4: 3, 9: 2, 12: 2}),
    ])


def test_race_rollouts_agree_with_one_ply_roughly() -> None:
    races = _races()
    one_ply = label(bundled(), races)
    for luck in (0, 7):
        got = rollout_label(bundled(), races, trials=72, depth=7, seed=3, luck=luck)
        assert np.abs(got[:, 0] - one_ply[:, 0]).max() < 0.06, luck
        assert np.abs(got.mean(axis=0) - one_ply.mean(axis=0)).max() < 0.03, luck


def test_variance_reduction_keeps_the_mean() -> None:
    positions = _contact(2)
    plain, se_plain = rollout_errors(bundled(), positions, trials=180, depth=3, seed=4, luck=0,
                                     stratify=RANDOM_DICE)
    for luck, stratify in ((0, EVERY_ROLL), (3, EVERY_ROLL), (3, RANDOM_DICE)):
        reduced, se = rollout_errors(bundled(), positions, trials=180, depth=3, seed=4,
                                     luck=luck, stratify=stratify)
        assert (np.abs(plain[:, 0] - reduced[:, 0]) < 4 * np.hypot(se_plain, se)).all()
        if luck:
            assert (se < se_plain / 2).all()  # it takes out most of the dice's swing


@pytest.mark.parametrize("trials,depth,luck,message", [
    (0, 7, 0, "trials must be at least 1, not 0"),
    (36, -1, 0, "depth must be 0 or more half-moves, not -1"),
    (36, 7, -2, "luck plies must be 0 or more, not -2"),
])
def test_bad_settings_are_refused(trials: int, depth: int, luck: int, message: str) -> None:
    with pytest.raises(TableError, match=message):
        rollout_label(bundled(), _contact(1), trials, depth, seed=1, luck=luck)


def test_bad_positions_are_refused() -> None:
    with pytest.raises(TableError, match=r"shape \(N, 26\), not \(26,\)"):
        rollout_label(bundled(), np.zeros(26, np.int8), 36, 7, seed=1)


def _refine(tmp_path: Path, *extra: str) -> int:
    start = tmp_path / "start.npz"
    if not start.exists():
        Weights.random(8, 1).save(start)
    return main(["refine", "--weights", str(start), "--out", str(tmp_path / "out.npz"),
                 "--positions", "1000", "--jobs", "1", "--epochs", "1",
                 "--data", str(tmp_path / "data.npz"), "--log", str(tmp_path / "log.txt"),
                 *extra])


def test_refine_by_rollouts_records_the_kind_and_refuses_to_mix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _refine(tmp_path, "--label", "rollout", "--trials", "2", "--depth", "1") == 0
    kind = "rollout trials=2 depth=1 luck=0"
    assert Dataset.load(tmp_path / "data.npz").kind == kind
    assert f"labels={kind}" in Weights.load(tmp_path / "out.npz").meta["refine_1"]
    assert f"labelled 1000/1000 by {kind}" in (tmp_path / "log.txt").read_text()
    before = (tmp_path / "data.npz").read_bytes()
    (tmp_path / "out.npz").unlink()
    # Reusing the labels with other settings (or the 1-ply default) is refused, before any work.
    for other in ([], ["--label", "rollout", "--trials", "2", "--depth", "2"]):
        assert _refine(tmp_path, *other) == 2
        err = capsys.readouterr().err
        assert f"holds positions labelled by {kind}, but this run labels by" in err
        assert not (tmp_path / "out.npz").exists()
    assert (tmp_path / "data.npz").read_bytes() == before
    # The same settings reuse them.
    assert _refine(tmp_path, "--label", "rollout", "--trials", "2", "--depth", "1") == 0
    assert "reusing 1000 labelled positions (rollout" in (tmp_path / "log.txt").read_text()


def test_a_one_ply_dataset_is_not_taken_for_rollouts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Dataset(np.zeros((3, 26), np.int8), np.full((3, 5), 0.25, np.float32)).save(
        tmp_path / "data.npz")
    assert _refine(tmp_path, "--label", "rollout") == 2
    assert "labelled by 1-ply, but this run labels by rollout trials=36" in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["--label", "rollout", "--trials", "0"], "rollout trials must be at least 1"),
    (["--label", "rollout", "--depth", "-3"], "rollout depth must be 0 or more"),
    (["--trials", "36"], "--trials, --depth and --luck need --label rollout"),
])
def test_refine_refuses_bad_rollout_options(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            args: list[str], message: str) -> None:
    assert _refine(tmp_path, *args) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out.npz").exists() and not (tmp_path / "log.txt").exists()


def test_a_stopped_labelling_resumes_where_it_left_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(refine, "LABEL_CHUNK", 300)
    monkeypatch.setattr(refine, "SAVE_SECONDS", 0.0)
    real = rollout.labeller(trials=2, depth=2, seed=3)
    starts: list[int] = []

    def stopping(weights: Weights, positions: np.ndarray, jobs: int,
                 progress: Progress | None, start: int) -> np.ndarray:
        if start >= 600:
            raise KeyboardInterrupt  # the run is stopped while labelling
        starts.append(start)
        return real.run(weights, positions, jobs, progress, start)

    def run(data: Path, labeller: Labeller) -> Dataset:
        run_pass(Weights.random(8, 1), 1000, 5, 1, FitConfig(epochs=1), data, lambda s: None,
                 labeller)
        return Dataset.load(data)

    data = tmp_path / "data.npz"
    with pytest.raises(KeyboardInterrupt):
        run(data, Labeller(real.kind, stopping))
    assert not data.exists()
    part = Dataset.load(partial_path(data))
    assert part.kind == real.kind
    assert not np.isnan(part.targets[:600]).any() and np.isnan(part.targets[600:]).all()
    # Another kind of label may not finish it ...
    assert _refine(tmp_path, "--label", "1-ply") == 2
    assert "data.partial.npz holds positions labelled by rollout" in capsys.readouterr().err
    # ... the same kind labels only the rest, and gets what one uninterrupted run gets.
    starts.clear()
    resumed = run(data, Labeller(real.kind, _counting(real, starts)))
    assert starts == [600, 900]
    assert not partial_path(data).exists()
    whole = run(tmp_path / "whole.npz", real)
    assert np.array_equal(resumed.positions, whole.positions)
    assert np.array_equal(resumed.targets, whole.targets)


def _counting(real: Labeller, starts: list[int]) -> Callable[..., np.ndarray]:
    def counting(weights: Weights, positions: np.ndarray, jobs: int,
                 progress: Progress | None, start: int) -> np.ndarray:
        starts.append(start)
        return real.run(weights, positions, jobs, progress, start)
    return counting
