"""Where Greu's cube loses: the largest-loss positions of a cube reference, the network's
cubeless equity against a cubeless rollout (Mediu's checker play to the end, as in the reference).

Usage (from the repository root, PYTHONPATH=src or the package installed):

    python3 research/cube/cube_cubeless_check.py research/cube/A-deep.npz 12 1000

prints the total loss of Greu's decisions (2-ply chances, the shipped cube model), then for the
12 costliest positions the 2-ply cubeless equity beside 1,000 cubeless rollout games: a large
gap means the chances, not the cube model, are wrong there.  About 7 s per position on one core.
"""
import sys
from pathlib import Path

import numpy as np

from table import Position
from table.bot import search
from table.bot.net import bundled, final_probs
from table.tools import cubebench
from table.tools.cubeplay import network


def cubeless(net: search.Net, work: search.Work, board0: np.ndarray, games: int,
             rng: np.random.Generator) -> tuple[float, float]:
    """Mean points and standard error of ``games`` cubeless games from ``board0`` (player on roll)."""
    keep, margin = search.filters((8,), (0.16,))
    pts = []
    for _ in range(games):
        board, sign = board0.copy(), 1
        while True:
            d1, d2 = rng.integers(1, 7, 2)
            _, best = search.choose(net, work, board, int(d1), int(d2), 0, 0.0, keep, margin)
            board = np.empty(26, np.int8)
            search.flip_into(work.boards[0, best], board)
            if final_probs(board, work.p[0]):
                pts.append(sign * (1 + int(work.p[0, 3]) + int(work.p[0, 4])))
                break
            sign = -sign
    a = np.array(pts, float)
    return float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a)))


def main(path: str, top: int, games: int) -> None:
    ref = cubebench.Reference.load(Path(path))
    ref = ref.subset(ref.done)
    w = bundled()
    net, work = network(w, True), search.make_work(w.hidden)
    rng = np.random.default_rng(1)
    p2 = cubebench.chances(ref.boards, 2)
    d, t = cubebench.decisions(p2, ref.boards)
    should_double, should_take = np.minimum(ref.dt, 1) > ref.nd, ref.dt <= 1
    loss = (np.where(d != should_double, np.abs(np.minimum(ref.dt, 1) - ref.nd), 0)
            + np.where(t != should_take, np.abs(ref.dt - 1), 0))
    print(f"total loss {loss.sum():.3f} over {2 * len(loss)} decisions")
    covered = 0.0
    for i in np.argsort(-loss)[:top]:
        pos = Position(ref.boards[i].tolist())
        e2 = p2[i][0] * 2 - 1 + p2[i][1] + p2[i][2] - p2[i][3] - p2[i][4]
        m, se = cubeless(net, work, ref.boards[i], games, rng)
        covered += loss[i]
        print(f"{pos.id} loss {loss[i]:.3f}  pips {pos.pip_counts()}  2-ply cubeless equity "
              f"{e2:+.3f}, cubeless rollout {m:+.3f} ± {1.96 * se:.3f}  (off by {e2 - m:+.3f})",
              flush=True)
    print(f"these {top} positions carry {covered / loss.sum():.0%} of the loss")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
