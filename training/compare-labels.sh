#!/usr/bin/env bash
# A short experiment for issue 13: do truncated-rollout labels teach the network more than its
# own 1-ply labels?  Both arms start from refine-6 and fit the same self-play positions (same
# seed), labelled one way or the other; each result plays refine-6 over 40,000 games (0-ply,
# duplicate dice) and pubeval over 10,000, appended to training/bench.txt.  Resumable: a
# finished arm is skipped, a recorded benchmark is not rerun, labelling resumes from its
# partial file.
# Usage: nohup nice -n 19 bash training/compare-labels.sh [positions, default 100000] > training/run-labels.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
source training/bench-once.sh
n="${1:-100000}"
base=training/checkpoints/refine-6.npz
for arm in 1-ply rollout; do
  out="training/checkpoints/labels-$arm-$n.npz"
  if [ ! -f "$out" ]; then
    python3 -m table refine --weights "$base" --out "$out" --positions "$n" --data "training/data/labels-$arm-$n.npz" \
      --seed 17 --jobs 2 --epochs 40 --lr 3e-3 --label "$arm"
  fi
  bench "$out $base --games 40000 --jobs 2"
  bench "$out pubeval --games 10000 --jobs 2"
done
