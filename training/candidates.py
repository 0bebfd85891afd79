"""Label the plays a network has to choose between (issue 13, candidate pass).

The refinement passes label positions met in self-play, plus now and then the
position after a random other play.  What decides the network's play is how it
ranks the few best plays of each roll, and the positions after the plays it did
not choose are seldom met otherwise.  This collects, from the network's own
self-play at 0-ply, the positions after the 2nd to ``K``-th best plays of each
roll that are within ``MARGIN`` of the best (by 0-ply), labels each by the
network's 1-ply, and saves them as a refinement dataset that ``table refine
--data`` fits to (with ``--also`` for the earlier sets).

Usage: PYTHONPATH=src python3 training/candidates.py WEIGHTS COUNT SEED OUT [JOBS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from table.bot import bearoff, search
from table.bot.net import N_OUTPUTS, Weights, final_probs
from table.tools.train import refine
from table.tools.train.selfplay import roll_dice

K = 4  # the best play and up to three others
MARGIN = 0.12  # equity below the best within which another play is a real candidate


@njit(cache=True)
def _collect(net: search.Net, work: search.Work, seed: int, noise: float, k: int,
             margin: float, with_best: bool, start: np.ndarray, out: np.ndarray,
             groups: np.ndarray) -> int:  # pragma: no cover
    np.random.seed(seed)
    board = np.empty(26, dtype=np.int8)
    other = np.empty(26, dtype=np.int8)
    scratch = np.empty(N_OUTPUTS, dtype=np.float32)
    no_filter = np.ones(search.MAX_DEPTH, dtype=np.int64)
    no_margin = np.zeros(search.MAX_DEPTH, dtype=np.float64)
    taken = np.zeros(k, dtype=np.int64)
    count = 0
    decision = 0  # groups[i]: which roll position i's play was one of the plays for
    cap = out.shape[0]
    while count < cap:
        board[:] = start
        for turn in range(refine.MAX_TURNS):
            d1, d2 = roll_dice(turn == 0)
            n, best = search.choose(net, work, board, d1, d2, 0, noise, no_filter, no_margin)
            eqs = work.eqs[0]
            # the next best k-1 plays after the chosen one, by their (noisy) 0-ply equity
            m = 0
            for _ in range(k - 1):
                pick = -1
                for c in range(n):
                    if c == best:
                        continue
                    seen = False
                    for j in range(m):
                        if taken[j] == c:
                            seen = True
                    if not seen and (pick < 0 or eqs[c] > eqs[pick]):
                        pick = c
                if pick < 0 or eqs[pick] < eqs[best] - margin:
                    break
                taken[m] = pick
                m += 1
            for j in range(m):
                if count >= cap:
                    break
                search.flip_into(work.boards[0, taken[j]], other)
                if not final_probs(other, scratch) and not bearoff.applies(net.db, other):
                    out[count] = other
                    groups[count] = decision
                    count += 1
            search.flip_into(work.boards[0, best], board)
            # The chosen play's position too, when it has rivals: a ranking is learnt from both sides.
            if with_best and m > 0 and count < cap and not final_probs(board, scratch) \
                    and not bearoff.applies(net.db, board):
                out[count] = board
                groups[count] = decision
                count += 1
            decision += 1
            if final_probs(board, scratch) or bearoff.applies(net.db, board) or count >= cap:
                break
    return count


def collect_groups(weights: Weights, count: int, seed: int,
                   with_best: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``count`` positions after the close plays of the network's self-play (see ``_collect``),
    and for each the number of the roll whose play it follows (siblings share it)."""
    pos = np.empty((count, 26), dtype=np.int8)
    groups = np.empty(count, dtype=np.int64)
    n = _collect(search.make_net(weights, bearoff.database()), search.make_work(weights.hidden),
                 seed, 0.02, K, MARGIN, with_best, refine.START, pos, groups)
    return pos[:n], groups[:n]


def collect(weights: Weights, count: int, seed: int, with_best: bool = False) -> np.ndarray:
    """The positions of ``collect_groups``."""
    return collect_groups(weights, count, seed, with_best)[0]


def main() -> None:
    weights_path, count, seed, out_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    jobs = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    weights = Weights.load(weights_path)
    t = time.monotonic()
    pos = collect(weights, count, seed)
    n = len(pos)
    print(f"collected {n} candidate positions in {time.monotonic() - t:.0f}s", flush=True)
    t = time.monotonic()
    targets = refine.label(weights, pos, jobs,
                           lambda d: print(f"labelled {d}/{n} ({d / (time.monotonic() - t):.0f}/s)", flush=True)
                           if d % 100_000 < 20_000 else None)
    refine.Dataset(pos, targets, "1-ply").save(out_path)
    print(f"saved {out_path} in {time.monotonic() - t:.0f}s of labelling", flush=True)


if __name__ == "__main__":
    main()
