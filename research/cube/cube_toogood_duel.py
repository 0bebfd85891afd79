"""Cubeful money games between two cube models: the too-good line at one slope against another.

Both sides play the same checkers (the same player spec) on the same duplicate dice; only
their cube decisions differ (``cubeplay.CubePlayer.too_good``), each side judging its own
doubles and takes.  Most pairs of games then end the same both ways and cancel, so the
difference between the models shows far sooner than between two networks.  Prints player A's
points a game with its 95% interval, per seed and pooled.

Usage: PYTHONPATH=src python3 research/cube/cube_toogood_duel.py [--a 0.15] [--b 0] [--player medium]
           [--games 40000] [--seeds 2026 7 8 9]
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from table.tools.bench.strength import cube_player
from table.tools.cubeplay import CubePlayer, cube_duel


def _share(job: tuple[str, float, float, int, int]) -> np.ndarray:
    spec, a, b, pairs, seed = job
    base = cube_player(spec, False)
    pa = CubePlayer(base.player, base.judge, base.judge_depth, False, a)
    pb = CubePlayer(base.player, base.judge, base.judge_depth, False, b)
    return cube_duel(pa, pb, pairs, seed)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", type=float, default=0.15)
    ap.add_argument("--b", type=float, default=0.0)
    ap.add_argument("--player", default="medium")
    ap.add_argument("--games", type=int, default=40000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[2026, 7, 8, 9])
    args = ap.parse_args()
    pairs = args.games // 2
    everything = []
    with ProcessPoolExecutor(2) as pool:
        for seed in args.seeds:
            jobs = [(args.player, args.a, args.b, pairs // 2 + i * (pairs % 2), seed * 1000 + i)
                    for i in range(2)]
            r = np.concatenate(list(pool.map(_share, jobs))) / 2.0  # points a game, per pair
            everything.append(r)
            half = 1.96 * r.std() / np.sqrt(len(r))
            print(f"seed {seed}: slope {args.a} against {args.b}, {args.player}: "
                  f"{r.mean():+.4f} ± {half:.4f} a game over {2 * len(r)} games "
                  f"({np.count_nonzero(r)} of {len(r)} pairs did not cancel)", flush=True)
    r = np.concatenate(everything)
    print(f"pooled: {r.mean():+.4f} ± {1.96 * r.std() / np.sqrt(len(r)):.4f} a game over {2 * len(r)} games")


if __name__ == "__main__":
    main()
