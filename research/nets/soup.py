"""Average the parameters of networks of one shape (a "model soup"): fine-tunes of one parent
often average into a network better than each, at no cost in play.

Usage (from the repository root): python3 research/nets/soup.py OUT.npz A.npz B.npz [C.npz ...]
  [--weights 0.5,0.25,0.25]  (the share of each; equal shares unless given)
Prints each network's distance from the first (relative to the first's size), layer by layer.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from table.bot.net import Weights

LAYERS = ("w1", "b1", "wh", "bh", "w2", "b2")


def soup(nets: list[Weights], shares: list[float]) -> Weights:
    """The share-weighted mean of every layer of ``nets`` (all of one shape)."""
    first = nets[0]
    mixed = {}
    for key in LAYERS:
        arrays = [getattr(n, key) for n in nets]
        if arrays[0] is None:
            continue
        if any(a is None or a.shape != arrays[0].shape for a in arrays):
            raise SystemExit(f"the networks differ in shape at {key}")
        mixed[key] = sum(s * a.astype(np.float64) for s, a in zip(shares, arrays)).astype(np.float32)
    meta = dict(first.meta)
    meta["soup"] = ", ".join(f"{s:g}" for s in shares)
    return Weights(mixed["w1"], mixed["b1"], mixed["w2"], mixed["b2"], first.games, meta,
                   mixed.get("wh"), mixed.get("bh"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("nets", nargs="+")
    ap.add_argument("--weights", help="shares, comma-separated, one per network")
    args = ap.parse_args()
    nets = [Weights.load(p) for p in args.nets]
    shares = [float(s) for s in args.weights.split(",")] if args.weights else [1.0 / len(nets)] * len(nets)
    if len(shares) != len(nets) or abs(sum(shares) - 1.0) > 1e-9:
        raise SystemExit("give one share per network, adding up to 1")
    for path, n in zip(args.nets[1:], nets[1:]):
        parts = []
        for key in LAYERS:
            a, b = getattr(nets[0], key), getattr(n, key)
            if a is not None and b is not None and a.shape == b.shape:
                parts.append(f"{key} {np.linalg.norm(b - a) / np.linalg.norm(a):.3f}")
        print(f"{path}: " + ", ".join(parts), file=sys.stderr)
    soup(nets, shares).save(Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
