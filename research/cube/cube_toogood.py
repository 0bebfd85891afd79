"""The money cube model with a "too good" line, judged on the cube references (issue 13).

Table's live cube stops at +1 at the cash point: past it, a position is worth a cash and no
more, so the model doubles every position past the cash point whose dead-cube equity is under 1.
About half of Greu's wrong doubles on the references are such positions where the rollouts play
on for the gammons (no double worth more than 1).  Janowski's full line runs on past the cash
point to ``W`` (the average win) at certain victory; it was measured before and lost more
(docs/cube.md), likely because the network's gammon rates are not reliable enough to follow it
all the way.  This form follows it at a fraction ``s`` of its slope:

    live = 1 + s · (W − 1) · (p − cash point) / (1 − cash point)   past the cash point,

with ``s`` = 0 the model as shipped until December 2026 and ``s`` = 1 Janowski's line
(``cube.money_action``'s ``slope``).  The script judges a grid of ``s`` (and of the contact efficiency) on each reference from Greu's 2-ply
chances (kept in research/cube/chances/ by research/cube/cube_depth.py), cross-validates the choice
(leave one reference out; ten seeded folds of all positions pooled), and prints each ``s``'s
loss a decision against the plain model's, paired by position, with its 95% interval.

Usage: PYTHONPATH=src python3 research/cube/cube_toogood.py [--weights NET.npz] [REFERENCE.npz ...]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from table.bot import cube
from table.tools.cubebench import Reference, position_scores

from cube_depth import REFERENCES, depth_chances

SLOPES = np.round(np.arange(0.0, 1.001, 0.05), 2)
EFFICIENCIES = np.round(np.arange(0.64, 0.821, 0.02), 2)


class Judged:
    """One reference: its rollouts, Greu's chances and each position's cube efficiency."""

    def __init__(self, path: Path, weights: Path | None) -> None:
        ref = Reference.load(path)
        ref = ref.subset(ref.done)
        self.name = path.stem
        self.nd, self.dt = ref.nd, ref.dt
        self.p = depth_chances(path, ref.boards, weights, 2)
        self.x = np.array([cube.board_efficiency(b) for b in ref.boards])
        self._memo: dict[tuple[float, float], tuple[np.ndarray, np.ndarray]] = {}

    def losses(self, slope: float, contact: float) -> tuple[np.ndarray, np.ndarray]:
        """(agreements, loss) per position, each the mean of its two decisions."""
        key = (slope, contact)
        if key not in self._memo:
            x = np.where(self.x == cube.CONTACT_EFFICIENCY, contact, self.x)
            nd_dt = np.array([cube.money_action(p, 0, xi, slope) for p, xi in zip(self.p, x)])
            nd, dt = nd_dt[:, 0], nd_dt[:, 1]
            agree, loss = position_scores(self.nd, self.dt, np.minimum(dt, 1) > nd, dt <= 1)
            self._memo[key] = (agree / 2, loss / 2)
        return self._memo[key]


def _choose(refs: list[Judged], masks: list[np.ndarray], free_x: bool) -> tuple[float, float]:
    best: tuple[float, float, float] | None = None
    for s in SLOPES:
        for xc in (EFFICIENCIES if free_x else [cube.CONTACT_EFFICIENCY]):
            total = sum(float(r.losses(s, xc)[1][m].sum()) for r, m in zip(refs, masks))
            if best is None or total < best[0]:
                best = (total, float(s), float(xc))
    assert best is not None
    return best[1], best[2]


def _score(refs: list[Judged], masks: list[np.ndarray], s: float, xc: float) -> tuple[float, float, int]:
    a = l = 0.0
    n = 0
    for r, m in zip(refs, masks):
        ag, lo = r.losses(s, xc)
        a, l, n = a + float(ag[m].sum()), l + float(lo[m].sum()), n + int(m.sum())
    return a, l, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weights", type=Path)
    ap.add_argument("references", nargs="*", type=Path, default=REFERENCES)
    args = ap.parse_args()
    refs = [Judged(p, args.weights) for p in args.references]
    for s in (0.0, 0.1, 0.15, 0.2, 0.25, 0.5, 1.0):
        row = []
        for r in refs:
            ag, lo = r.losses(s, cube.CONTACT_EFFICIENCY)
            row.append(f"{r.name} {100 * ag.mean():.1f}% {lo.mean():.4f}")
        ag = np.concatenate([r.losses(s, cube.CONTACT_EFFICIENCY)[0] for r in refs])
        lo = np.concatenate([r.losses(s, cube.CONTACT_EFFICIENCY)[1] for r in refs])
        base = np.concatenate([r.losses(0.0, cube.CONTACT_EFFICIENCY)[1] for r in refs])
        diff = lo - base
        half = 1.96 * diff.std() / np.sqrt(len(diff))
        print(f"s {s:.2f}: " + " | ".join(row)
              + f" | all {100 * ag.mean():.1f}% {lo.mean():.4f}, against s 0 {diff.mean():+.5f} ± {half:.5f}")
    if len(refs) < 2:
        return
    everything = [np.ones(len(r.nd), bool) for r in refs]
    for free_x in (False, True):
        label = "slope and efficiency" if free_x else "slope (efficiency 0.72)"
        a = l = 0.0
        n = 0
        for i, r in enumerate(refs):
            masks = [m if j != i else np.zeros_like(m) for j, m in enumerate(everything)]
            s, xc = _choose(refs, masks, free_x)
            ai, li, ni = _score([r], [everything[i]], s, xc)
            print(f"{label}, {r.name} left out: chose s {s:.2f}, x {xc:.2f}; "
                  f"{100 * ai / ni:.1f}% {li / ni:.4f}")
            a, l, n = a + ai, l + li, n + ni
        print(f"{label}, left out by reference: {100 * a / n:.1f}% {l / n:.4f}")
        rng = np.random.default_rng(0)
        folds = [rng.integers(0, 10, len(r.nd)) for r in refs]
        a = l = 0.0
        n = 0
        for k in range(10):
            s, xc = _choose(refs, [f != k for f in folds], free_x)
            ai, li, ni = _score(refs, [f == k for f in folds], s, xc)
            a, l, n = a + ai, l + li, n + ni
        print(f"{label}, ten folds: {100 * a / n:.1f}% {l / n:.4f}")


if __name__ == "__main__":
    main()
