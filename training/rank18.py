"""Pass 18r (issue 13): fit the 0-ply network to how the plays of one roll rank, not only to each.

Mediu chooses the play whose position its network judges best, so what decides its play is the
network's *differences* between sibling positions (after the plays of one roll), not their
level.  The usual fit (``refine.fit``) lowers the cross-entropy of each position on its own.
This adds, for the siblings of pass 18's set (``training/cand18.sh``: positions after the best
play and its rivals, labelled by 2-ply), the squared error of each sibling's equity relative to
its siblings' mean against the same of the labels, weighted by ``LAMBDA``:

    loss = cross-entropy + LAMBDA * mean over positions of ((e - mean e) - (t - mean t))**2

with ``e`` the network's cubeless equity and ``t`` the label's, the means over the siblings
judged by the same network (contact or race) in the same batch.  The sibling groups are found
again by collecting the set's positions once more with the same seed (and checked equal).

Usage: PYTHONPATH=src python3 training/rank18.py WEIGHTS SET_STEM N LAMBDA OUT [EPOCHS LR LR_FINAL]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import candidates  # noqa: E402

from table.bot import features  # noqa: E402
from table.bot.net import Weights  # noqa: E402
from table.bot.train import refine  # noqa: E402

EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0], dtype=np.float32)  # cubeless equity = EQUITY @ p - 1
BATCH = 256
SEED = 181  # pass 18's collection seed
COLLECTED = 300_000  # and its size


def log(msg: str) -> None:
    line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} rank18 {msg}"
    print(line, flush=True)
    with open("training/log.txt", "a") as f:
        f.write(line + "\n")


def _residuals(out: np.ndarray, y: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Each position's equity error less its siblings' mean (0 where it has no sibling)."""
    d = out @ EQUITY - y @ EQUITY
    _, inv, counts = np.unique(keys, return_inverse=True, return_counts=True)
    r = d - (np.bincount(inv, weights=d) / counts)[inv]
    r[counts[inv] < 2] = np.nan
    return r


def _sibling_deltas(out: np.ndarray, y: np.ndarray, keys: np.ndarray, lam: float) -> np.ndarray:
    """The ranking term's gradient with respect to the output layer's pre-activations."""
    r = np.nan_to_num(_residuals(out, y, keys))
    # d/de of lam * mean(r**2) is 2 lam r / len (centring is a projection); then through the
    # equity's weights and each sigmoid.
    return (2.0 * lam / len(out)) * r[:, None] * EQUITY[None, :] * out * (1.0 - out)


def _rank_error(params: list[np.ndarray], x: np.ndarray, y: np.ndarray, keys: np.ndarray) -> float:
    return float(np.nanmean(np.abs(_residuals(refine._forward(params, x)[-1], y, keys))))


def fit(weights: Weights, data: refine.Dataset, groups: np.ndarray, lam: float, epochs: int,
        lr0: float, lr1: float) -> Weights:
    new = weights.copy()
    rng = np.random.default_rng(1)
    xs = np.zeros((len(data.positions), features.N_INPUTS), dtype=np.float32)
    nets = np.zeros(len(data.positions), dtype=np.int64)
    refine._encode_all(data.positions, xs, nets)
    for net, name in ((refine.CONTACT, "contact"), (refine.RACE, "race")):
        idx = np.flatnonzero(nets == net)
        # Hold out whole groups, so that a held-out position's siblings are held out too.
        ids = np.unique(groups[idx])
        held_ids = rng.choice(ids, max(1, len(ids) // 50), replace=False)
        held = np.isin(groups[idx], held_ids)
        hold, train = idx[held], idx[~held]
        gid = groups[train]
        order_ids = np.unique(gid)
        params = [new.w1[net], new.b1[net]]
        if new.wh is not None and new.bh is not None:
            params += [new.wh[net], new.bh[net]]
        params += [new.w2[net], new.b2[net]]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        steps_total = epochs * ((len(train) + BATCH - 1) // BATCH)
        t = 0

        def report(when: str) -> None:
            log(f"fit {name} (lambda {lam}) {when}: {refine._loss(params, xs[hold], data.targets[hold])}, "
                f"sibling rank error {_rank_error(params, xs[hold], data.targets[hold], groups[hold]):.4f}")

        report(f"{len(train)} positions, {len(hold)} held out; before")
        for epoch in range(epochs):
            # Whole groups in a shuffled order, so that siblings share a batch.
            perm = rng.permutation(len(order_ids))
            rank_of = np.empty(order_ids.max() + 1, dtype=np.int64)
            rank_of[order_ids[perm]] = np.arange(len(order_ids))
            batch_order = train[np.argsort(rank_of[gid], kind="stable")]
            for s in range(0, len(batch_order), BATCH):
                b = batch_order[s:s + BATCH]
                acts = refine._forward(params, xs[b])
                delta = (acts[-1] - data.targets[b]) / len(b)
                if lam:
                    delta = delta + _sibling_deltas(acts[-1], data.targets[b], groups[b], lam)
                t += 1
                refine.adam_step(params, refine.backprop(params, acts, delta), m, v, t,
                                 lr0 * (lr1 / lr0) ** (t / steps_total))
            report(f"epoch {epoch + 1}/{epochs}")
    return new


def main() -> None:
    weights_path, stem, n, lam, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), Path(sys.argv[5])
    epochs = int(sys.argv[6]) if len(sys.argv) > 6 else 12
    lr0 = float(sys.argv[7]) if len(sys.argv) > 7 else 3e-4
    lr1 = float(sys.argv[8]) if len(sys.argv) > 8 else 3e-6
    src = Path(stem + ".npz")
    if not src.exists():
        src = Path(stem + ".partial.npz")
    d = refine.Dataset.load(src)
    weights = Weights.load(Path(weights_path))
    pos, groups = candidates.collect_groups(weights, COLLECTED, SEED, with_best=True)
    if not np.array_equal(pos, d.positions):
        raise SystemExit(f"{src}'s positions are not pass 18's collection (seed {SEED})")
    data = refine.Dataset(d.positions[:n], d.targets[:n], d.kind)
    if np.isnan(data.targets).any():
        raise SystemExit(f"{src} has only part of its first {n} positions labelled")
    log(f"start: {weights_path} -> {out}, first {n} of {src}, lambda {lam}, {epochs} epochs, "
        f"lr {lr0} -> {lr1}")
    new = fit(weights, data, groups[:n], lam, epochs, lr0, lr1)
    new.save(out)
    log(f"wrote {out}")


if __name__ == "__main__":
    main()
