"""Networks with a second hidden layer: the file format, the evaluation, fitting and the commands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from table.bot import bearoff, features
from table.bot.bot import Bot
from table.bot.net import CONTACT, RACE, Weights, WeightsError, bundled, evaluate_board, forward2
from table.cli import main
from table.errors import TableError
from table.rules.position import Position
from table.tools.train.refine import Dataset, FitConfig, collect, fit
from table.tools.train.trainer import TrainConfig, train


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-v)))


def _deep(seed: int = 4) -> Weights:
    """Two small layers with weights big enough that every layer changes the outputs."""
    w = Weights.random(12, seed).deepened(7, seed)
    rng = np.random.default_rng(seed)
    assert w.wh is not None and w.bh is not None
    w.bh[:] = rng.normal(0, 0.5, w.bh.shape)
    w.b2[:] = rng.normal(0, 0.5, w.b2.shape)
    return w


def test_a_second_layer_round_trips_as_format_2(tmp_path: Path) -> None:
    w = _deep()
    w.save(tmp_path / "deep.npz")
    with np.load(tmp_path / "deep.npz") as raw:
        assert int(raw["version"]) == 2 and raw["wh"].shape == (2, 12, 7)
    back = Weights.load(tmp_path / "deep.npz")
    assert (back.hidden, back.hidden2) == (12, 7)
    for name in ("w1", "b1", "wh", "bh", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(w, name)), name
    # One layer is still written as format 1, which older copies of Table read.
    Weights.random(5, 1).save(tmp_path / "flat.npz")
    with np.load(tmp_path / "flat.npz") as raw:
        assert int(raw["version"]) == 1 and "wh" not in raw.files


def test_the_compiled_evaluation_is_the_two_layer_formula() -> None:
    w = _deep()
    wh, bh = w.second_layer()
    x = np.zeros(features.N_INPUTS, np.float32)
    hidden = np.zeros(w.hidden, np.float32)
    scratch = np.empty(26, np.int8)
    raw = np.zeros(5, np.float32)
    tidied = np.zeros(5, np.float32)
    for board in collect(bundled(), 200, seed=3)[::10]:
        kind = RACE if features.is_race(board) else CONTACT
        features.encode(board, x, scratch)
        forward2(w.w1, w.b1, wh, bh, w.w2, w.b2, kind, x, hidden, raw)
        h = _sigmoid(w.b1[kind] + x.astype(np.float64) @ w.w1[kind])
        h2 = _sigmoid(bh[kind] + h @ wh[kind])
        assert raw == pytest.approx(_sigmoid(w.b2[kind] + h2 @ w.w2[kind]), abs=1e-5)
        # evaluate_board takes the second layer when the weights have one
        assert evaluate_board(w.w1, w.b1, wh, bh, w.w2, w.b2, bearoff.empty(), board, x, hidden,
                              scratch, tidied) == kind
        assert tidied[0] == pytest.approx(raw[0], abs=1e-6)


def test_the_second_layer_changes_the_judgement() -> None:
    w = _deep()
    other = w.copy()
    assert other.wh is not None
    other.wh[:] *= -1.0
    pos = Position.initial()
    a = Bot("medium", weights=w).evaluate(pos).as_tuple()
    b = Bot("medium", weights=other).evaluate(pos).as_tuple()
    assert a != pytest.approx(b, abs=1e-4)


def test_fitting_a_two_layer_network_moves_it_to_the_targets() -> None:
    positions = collect(bundled(), 3000, seed=7)
    target = np.array([0.8, 0.3, 0.02, 0.05, 0.001], dtype=np.float32)
    data = Dataset(positions, np.tile(target, (len(positions), 1)))
    start = Weights.random(16, 2).deepened(8, 2)
    fitted = fit(start, data, FitConfig(epochs=4, batch=32, lr=1e-2, lr_final=3e-3), log=lambda s: None)
    pos = Position(int(v) for v in positions[11])
    before = np.array(Bot("medium", weights=start).evaluate(pos).as_tuple())
    after = np.array(Bot("medium", weights=fitted).evaluate(pos).as_tuple())
    assert np.abs(after - target).max() < 0.05 < np.abs(before - target).max()
    assert start.wh is not None and fitted.wh is not None
    assert not np.array_equal(start.wh, fitted.wh)  # the second layer learned too


def test_bad_second_layers_are_refused(tmp_path: Path) -> None:
    w = _deep()
    assert w.wh is not None and w.bh is not None
    arrays = dict(w1=w.w1, b1=w.b1, w2=w.w2, b2=w.b2, version=np.int64(2))
    np.savez(tmp_path / "half.npz", wh=w.wh, **arrays)
    with pytest.raises(WeightsError, match="half of a second layer"):
        Weights.load(tmp_path / "half.npz")
    np.savez(tmp_path / "shape.npz", wh=w.wh, bh=w.bh[:, :3], **arrays)
    with pytest.raises(WeightsError, match="bh has shape"):
        Weights.load(tmp_path / "shape.npz")
    with pytest.raises(WeightsError, match="already"):
        w.deepened(3, 1)
    with pytest.raises(WeightsError, match="narrow"):
        w.widened(w.hidden - 1, 1)
    with pytest.raises(WeightsError, match="by widening"):
        w.widened(w.hidden, 1, hidden2=w.hidden2 - 1)
    with pytest.raises(WeightsError, match="by widening"):
        Weights.random(4, 1).widened(4, 1, hidden2=3)
    with pytest.raises(WeightsError, match="at least one unit"):
        Weights.random(4, 1).deepened(0, 1)


def test_self_play_training_refuses_two_layers(tmp_path: Path) -> None:
    _deep().save(tmp_path / "deep.npz")
    cfg = TrainConfig(checkpoint=tmp_path / "deep.npz", games=10, seed=5, hidden=8, chunk=10)
    with pytest.raises(TableError, match="two hidden layers"):
        train(cfg, open(tmp_path / "log.txt", "w"))


def test_refine_adds_a_second_layer(tmp_path: Path) -> None:
    start = tmp_path / "start.npz"
    Weights.random(8, 1).save(start)
    positions = collect(bundled(), 1000, seed=21)
    Dataset(positions, np.full((1000, 5), 0.3, np.float32)).save(tmp_path / "a.npz")
    assert main(["refine", "--weights", str(start), "--out", str(tmp_path / "out.npz"),
                 "--epochs", "1", "--data", str(tmp_path / "a.npz"), "--hidden2", "4",
                 "--lr", "3e-3", "--lr-final", "3e-5", "--log", str(tmp_path / "log.txt")]) == 0
    out = Weights.load(tmp_path / "out.npz")
    assert (out.hidden, out.hidden2) == (8, 4)
    assert np.array_equal(out.w1.shape, (2, features.N_INPUTS, 8))
    assert "lr_final=3e-05 labels=1-ply hidden2=4" in (tmp_path / "log.txt").read_text()


def test_refine_refuses_a_final_rate_above_the_first(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refine", "--out", str(tmp_path / "o.npz"), "--lr", "1e-3",
                 "--lr-final", "1e-2"]) == 2
    assert "--lr-final must be above 0 and at most --lr" in capsys.readouterr().err
