"""Greu's cube decisions on chances from other look-ahead depths (issue 13).

Greu reads the money cube model from 2-ply chances.  This judges the same model on 1-, 2- and
3-ply chances (``search.evaluate``: each roll's best play by 0-ply, full width; 3 plies cost about
a second of one core a position, which the ``Bot`` does not offer) and on the mean of two depths,
against the cube references in research/cube/.  The chances are kept in research/cube/chances/
(by reference, network and depth) so that a later run judges at once; 3-ply over the four
references takes about 16 minutes on two cores.

Prints each form's agreement and loss a decision per reference and over all of them, then each
form's loss against the 2-ply model's paired by position (mean and 95% interval a decision).

Usage: PYTHONPATH=src python3 research/cube/cube_depth.py [--weights NET.npz] [REFERENCE.npz ...]
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from table.bot import bearoff, search
from table.bot.bot import consistent
from table.bot.net import Weights, bundled
from table.tools import cubebench

HERE = Path(__file__).parent
REFERENCES = [HERE / f"{n}.npz" for n in ("A-w256", "A-deep", "C-r14", "D-2029")]
FORMS: dict[str, dict[int, float]] = {
    "1-ply": {1: 1.0}, "2-ply": {2: 1.0}, "3-ply": {3: 1.0},
    "mean of 2 and 3": {2: 0.5, 3: 0.5}, "mean of 1 and 2": {1: 0.5, 2: 0.5},
}


def _chunk(job: tuple[str | None, int, np.ndarray]) -> np.ndarray:
    path, depth, boards = job
    w = bundled() if path is None else Weights.load(Path(path))
    net = search.make_net(w, bearoff.database())
    work = search.make_work(w.hidden)
    out = np.zeros((len(boards), 5), dtype=np.float32)
    for i, b in enumerate(boards):
        search.evaluate(net, work, np.asarray(b, dtype=np.int8), depth, 0, out[i])
    return out


def depth_chances(ref: Path, boards: np.ndarray, weights: Path | None, depth: int) -> np.ndarray:
    """The chances at ``depth`` plies of each board, computed once and kept."""
    w = bundled() if weights is None else Weights.load(weights)
    cache = HERE / "chances" / f"{ref.stem}-{cubebench.network_digest(w)}-d{depth}.npy"
    if cache.exists():
        kept: np.ndarray = np.load(cache)
        return kept
    jobs = [(None if weights is None else str(weights), depth, boards[i:i + 25])
            for i in range(0, len(boards), 25)]
    with Pool(2) as pool:
        p = np.concatenate(pool.map(_chunk, jobs, chunksize=1))
    cache.parent.mkdir(exist_ok=True)
    np.save(cache, p)
    return p


def per_position_loss(ref: cubebench.Reference, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equity lost and decisions agreed, per position, by the model on chances ``p``."""
    p = np.array([consistent([float(v) for v in row]).as_tuple() for row in p])
    d, t = cubebench.decisions(p, ref.boards)
    lost, agreed = np.empty(len(d)), np.empty(len(d))
    for i in range(len(d)):
        v = cubebench.verdict(ref.nd[i:i + 1], ref.dt[i:i + 1], d[i:i + 1], t[i:i + 1])
        lost[i], agreed[i] = v.loss, v.agree
    return lost, agreed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=Path, default=None)
    ap.add_argument("references", nargs="*", type=Path, default=REFERENCES)
    args = ap.parse_args()
    lost: dict[str, list[np.ndarray]] = {f: [] for f in FORMS}
    agreed: dict[str, list[np.ndarray]] = {f: [] for f in FORMS}
    for path in args.references:
        ref = cubebench.Reference.load(path)
        ref = ref.subset(ref.done)
        ps = {d: depth_chances(path, ref.boards, args.weights, d) for d in (1, 2, 3)}
        cells = []
        for form, mix in FORMS.items():
            lo, ag = per_position_loss(ref, sum((w * ps[d] for d, w in mix.items()), np.zeros_like(ps[1])))
            lost[form].append(lo)
            agreed[form].append(ag)
            cells.append(f"{form} {ag.sum() / (2 * len(ag)):.1%}, {lo.sum() / (2 * len(lo)):.4f}")
        print(f"{path.stem}: " + " | ".join(cells), flush=True)
    base = np.concatenate(lost["2-ply"]) / 2
    for form in FORMS:
        lo, ag = np.concatenate(lost[form]) / 2, np.concatenate(agreed[form])
        diff = lo - base
        print(f"all {len(lo)} positions, {form}: {ag.sum() / (2 * len(ag)):.1%}, {lo.mean():.4f} a "
              f"decision; against 2-ply {diff.mean():+.5f} +- {1.96 * diff.std(ddof=1) / np.sqrt(len(diff)):.5f}"
              f" ({np.count_nonzero(diff)} positions change)")


if __name__ == "__main__":
    main()
