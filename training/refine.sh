#!/usr/bin/env bash
# The refinement passes that turned the TD(lambda) network into the shipped one.
# Each pass collects 1,000,000 positions from the previous network's self-play,
# labels them with that network's own 1-ply judgement and fits it to them
# (see src/table/bot/train/refine.py).  About 20 minutes a pass on 2 cores.
# Usage: bash training/refine.sh [number of passes, default 3]
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/src"
passes="${1:-3}"
# Pass 1 starts from the TD network as it was shipped before the refinement passes:
# 1,000,000 self-play games and a 150,000-game race pass (git show 520cf9f:src/table/bot/weights/table.npz).
prev=training/checkpoints/td-1000000-races.npz
for k in $(seq 1 "$passes"); do
  python3 -m table refine --weights "$prev" --out "training/checkpoints/refine-$k.npz" \
    --positions 1000000 --data "training/data/refine-$k.npz" --seed $((10 + k)) --jobs 2 \
    --epochs 40 --lr 3e-3
  python3 -m table bench strength "training/checkpoints/refine-$k.npz" pubeval --games 10000 \
    --jobs 2 | tee -a training/bench.txt
  prev="training/checkpoints/refine-$k.npz"
done
