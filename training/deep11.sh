#!/usr/bin/env bash
# Pass 11 (issue 13): a second hidden layer.  union-7-w256's first layer is kept, a second
# hidden layer of H units and new outputs are added (`table refine --hidden2 H`), and the
# networks are fitted to every labelled set so far (4,840,000 positions: the 1-ply sets
# refine-5, -6, -8 and candidates-10, the label experiment's, and the rollout sets) for 12
# epochs, the learning rate falling from 3e-3 to 3e-5.  H = 64 and 128, side by side on one
# core each (about 8 minutes), then each plays union-7-w256 over 40,000 games on two seeds.
# Resumable: a finished network is skipped and a recorded benchmark not rerun.
# Usage: nohup nice -n 19 bash training/deep11.sh > training/run-deep11.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
source training/bench-once.sh
ck=training/checkpoints
data=training/data
prev=$ck/union-7-w256.npz
[ -f "$data/candidates-10.npz" ] || python3 training/candidates.py "$prev" 600000 71 "$data/candidates-10.npz" 2
others=(--also "$data/refine-8.npz" --also "$data/refine-6.npz" --also "$data/refine-5.npz"
        --also "$data/labels-1-ply-100000.npz" --also "$data/rollout-9-first580k.npz"
        --also "$data/rollout-7.partial.npz" --also "$data/labels-rollout-100000.npz")
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
pids=()
for h in 64 128; do
  out=$ck/deep-11-h$h.npz
  if [ ! -f "$out" ]; then
    python3 -m table refine --weights "$prev" --out "$out" --data "$data/candidates-10.npz" \
      "${others[@]}" --hidden2 "$h" --seed 61 --epochs 12 --lr 3e-3 --lr-final 3e-5 &
    pids+=($!)
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
unset OPENBLAS_NUM_THREADS OMP_NUM_THREADS
for h in 64 128; do
  bench "$ck/deep-11-h$h.npz $prev --games 40000 --jobs 2"
  bench "$ck/deep-11-h$h.npz $prev --games 40000 --jobs 2 --seed 7"
done
