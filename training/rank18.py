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

Two knobs keep the network's equity *levels* (which the cube decisions read) where they were
while the term moves its differences:

- ``CE_W`` (environment, default 1): the weight of the cross-entropy on pass 18's own positions;
- ``ANCHOR`` (environment): a set of positions (``.npz``, e.g. ``training/sets/rollout-17.npz``)
  whose every batch adds ``ANCHOR_W`` (default 1) times the cross-entropy against the starting
  network's own outputs there (``ANCHOR_TARGET=self``, the default) or the set's labels
  (``ANCHOR_TARGET=labels``).

Usage: PYTHONPATH=src python3 training/rank18.py WEIGHTS SET_STEM N LAMBDA OUT [EPOCHS LR LR_FINAL]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import candidates  # noqa: E402

from table.bot import features  # noqa: E402
from table.bot.net import CONTACT, RACE, Weights  # noqa: E402
from table.tools.train import refine  # noqa: E402

EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0], dtype=np.float32)  # cubeless equity = EQUITY @ p - 1
BATCH = 256
SEED = int(os.environ.get("SEED", "181"))  # the collection's seed: pass 18's unless told (pass 19: 191)
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
    grad: np.ndarray = (2.0 * lam / len(out)) * r[:, None] * EQUITY[None, :] * out * (1.0 - out)
    return grad


def _rank_error(params: list[np.ndarray], x: np.ndarray, y: np.ndarray, keys: np.ndarray) -> float:
    return float(np.nanmean(np.abs(_residuals(refine.forward(params, x)[-1], y, keys))))


def encoded(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    xs = np.zeros((len(positions), features.N_INPUTS), dtype=np.float32)
    nets = np.zeros(len(positions), dtype=np.int64)
    refine.encode_all(positions, xs, nets)
    return xs, nets


def fit(weights: Weights, data: refine.Dataset, groups: np.ndarray, lam: float, epochs: int,
        lr0: float, lr1: float, ce_w: float = 1.0, anchor: refine.Dataset | None = None,
        anchor_w: float = 1.0, anchor_self: bool = True) -> Weights:
    new = weights.copy()
    rng = np.random.default_rng(1)
    xs, nets = encoded(data.positions)
    if anchor is not None:
        axs, anets = encoded(anchor.positions)
    for net, name in ((CONTACT, "contact"), (RACE, "race")):
        idx = np.flatnonzero(nets == net)
        # Hold out whole groups, so that a held-out position's siblings are held out too.
        ids = np.unique(groups[idx])
        held_ids = rng.choice(ids, max(1, len(ids) // 50), replace=False)
        held = np.isin(groups[idx], held_ids)
        hold, train = idx[held], idx[~held]
        gid = groups[train]
        order_ids = np.unique(gid)
        params = refine.layer_params(new, net)
        ax = ay = None
        if anchor is not None and (anets == net).any():
            ax = axs[anets == net]
            ay = refine.forward(params, ax)[-1] if anchor_self else anchor.targets[anets == net]
            log(f"anchor {name}: {len(ax)} positions, weight {anchor_w}, "
                f"{'own outputs' if anchor_self else 'labels'}")
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        steps_total = epochs * ((len(train) + BATCH - 1) // BATCH)
        t = 0

        def report(when: str) -> None:
            log(f"fit {name} (lambda {lam}) {when}: {refine.loss_text(params, xs[hold], data.targets[hold])}, "
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
                acts = refine.forward(params, xs[b])
                delta = ce_w * (acts[-1] - data.targets[b]) / len(b)
                if lam:
                    delta = delta + _sibling_deltas(acts[-1], data.targets[b], groups[b], lam)
                grads = refine.backprop(params, acts, delta)
                if ax is not None and ay is not None:
                    a = rng.integers(0, len(ax), BATCH)
                    aacts = refine.forward(params, ax[a])
                    agrads = refine.backprop(params, aacts, anchor_w * (aacts[-1] - ay[a]) / BATCH)
                    grads = [g + h for g, h in zip(grads, agrads)]
                t += 1
                refine.adam_step(params, grads, m, v, t, lr0 * (lr1 / lr0) ** (t / steps_total))
            report(f"epoch {epoch + 1}/{epochs}")
            if ax is not None and ay is not None:
                log(f"anchor {name} epoch {epoch + 1}: {refine.loss_text(params, ax[:20000], ay[:20000])}")
    return new


def load_set(stem: str, weights: Weights, name: str, seed: int,
             n: int | None = None) -> tuple[refine.Dataset, np.ndarray]:
    """The first ``n`` (all by default) labelled positions of the set ``stem`` (``.npz``, else
    ``.partial.npz``) and their sibling groups, found again by collecting with ``weights``
    (called ``name``) and ``seed``, the network and seed that made the set."""
    src = Path(stem + ".npz")
    if not src.exists():
        src = Path(stem + ".partial.npz")
    d = refine.Dataset.load(src)
    pos, groups = candidates.collect_groups(weights, COLLECTED, seed, with_best=True)
    if not np.array_equal(pos, d.positions):
        raise SystemExit(f"{src}'s positions are not {name}'s collection (seed {seed}; SEED says another)")
    n = len(pos) if n is None else n
    if np.isnan(d.targets[:n]).any():
        raise SystemExit(f"{src} has only part of its first {n} positions labelled")
    return refine.Dataset(d.positions[:n], d.targets[:n], d.kind), groups[:n]


def main() -> None:
    weights_path, stem, n, lam, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), Path(sys.argv[5])
    epochs = int(sys.argv[6]) if len(sys.argv) > 6 else 12
    lr0 = float(sys.argv[7]) if len(sys.argv) > 7 else 3e-4
    lr1 = float(sys.argv[8]) if len(sys.argv) > 8 else 3e-6
    weights = Weights.load(Path(weights_path))
    data, groups = load_set(stem, weights, weights_path, SEED, n)
    ce_w = float(os.environ.get("CE_W", "1"))
    anchor_path = os.environ.get("ANCHOR")
    anchor = refine.Dataset.load(Path(anchor_path)) if anchor_path else None
    anchor_w = float(os.environ.get("ANCHOR_W", "1"))
    anchor_self = os.environ.get("ANCHOR_TARGET", "self") == "self"
    log(f"start: {weights_path} -> {out}, first {n} of {stem}, lambda {lam}, {epochs} epochs, "
        f"lr {lr0} -> {lr1}, CE weight {ce_w}"
        + (f", anchor {anchor_path} weight {anchor_w} ({'self' if anchor_self else 'labels'})"
           if anchor_path else ""))
    new = fit(weights, data, groups, lam, epochs, lr0, lr1, ce_w, anchor, anchor_w, anchor_self)
    new.save(out)
    log(f"wrote {out}")


if __name__ == "__main__":
    main()
