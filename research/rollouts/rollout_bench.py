"""Speed and noise of rollout labels (``table.tools.train.rollout``) on contact positions.

Usage (from the repository root, niced on a shared machine):

    PYTHONPATH=src nice -n 19 python3 research/rollouts/rollout_bench.py --stratify none
    PYTHONPATH=src nice -n 19 python3 research/rollouts/rollout_bench.py --stratify first
    PYTHONPATH=src nice -n 19 python3 research/rollouts/rollout_bench.py
    PYTHONPATH=src nice -n 19 python3 research/rollouts/rollout_bench.py --luck 2

Labels ``--positions`` contact positions from the shipped network's seeded
self-play, once per seed (``--seeds``), on one core.  Prints labels per
second and the standard error of the win label, measured as the spread of
one position's label between seeds (root mean square over the positions), and
that error scaled to one CPU second per label (``SE x sqrt(seconds per
label)``): the figure to compare between settings at the same cost.
``--stratify`` says which rolls are stratified (see the module).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from table.bot import features
from table.bot.net import bundled
from table.tools.train.refine import collect
from table.tools.train.rollout import EVERY_ROLL, FIRST_ROLL, RANDOM_DICE, rollout_errors

STRATIFY = {"none": RANDOM_DICE, "first": FIRST_ROLL, "every": EVERY_ROLL}


def contact_positions(count: int, start: int, seed: int) -> np.ndarray:
    """``count`` contact positions from seeded self-play, skipping the first ``start``."""
    pos = collect(bundled(), 4 * (count + start) + 100, seed)
    contact = np.array([p for p in pos if not features.is_race(p)])
    return contact[start:start + count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--start", type=int, default=0, help="skip this many positions first")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--trials", type=int, default=36)
    ap.add_argument("--depth", type=int, default=7)
    ap.add_argument("--luck", type=int, default=0)
    ap.add_argument("--stratify", choices=("none", "first", "every"), default="every",
                    help="stratify no roll, the first roll, or every roll (default)")
    args = ap.parse_args()
    w = bundled()
    pos = contact_positions(args.positions, args.start, 2026)
    rollout_errors(w, pos[:2], 2, 2, 0, luck=args.luck)  # load the compiled code first
    labels = []
    naive = []
    cpu = time.process_time()
    for s in range(args.seeds):
        lab, run_se = rollout_errors(w, pos, args.trials, args.depth, 100 + s, luck=args.luck,
                                 stratify=STRATIFY[args.stratify])
        labels.append(lab[:, 0])
        naive.append(run_se)
    cpu = time.process_time() - cpu
    per_label = cpu / (len(pos) * args.seeds)
    wins = np.array(labels)
    se = float(np.sqrt(np.mean(wins.var(axis=0, ddof=1))))
    rms_naive = float(np.sqrt(np.mean(np.square(naive))))
    kind = {"none": "random dice", "first": "first roll stratified",
            "every": "every roll stratified"}[args.stratify]
    print(f"{len(pos)} contact positions x {args.seeds} seeds, trials {args.trials}, depth "
          f"{args.depth}, luck {args.luck}, {kind}: {1 / per_label:.1f} labels/s on one core; "
          f"SE(win) {se:.4f} between seeds (naive within a run {rms_naive:.4f}); "
          f"SE at 1 CPU-second per label {se * np.sqrt(per_label):.4f}")


if __name__ == "__main__":
    main()
