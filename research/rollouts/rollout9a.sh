#!/usr/bin/env bash
# Rollout pass 9, first part (issue 13): what the first N positions of rollout9.sh's labels
# (truncated rollouts of the shipped union-7-w256) give before the whole million is labelled.
# Two fits from union-7-w256, run side by side on one core each:
#
#   rollout-9a-w256   every labelled set so far plus the first N rollout-9 labels, equally
#                     (as rollout9.sh will fit the whole million)
#   rollout-9b-w256   the rollout labels alone (rollout-9's first N, rollout-7's 460,000 and the
#                     label experiment's 100,000), at a third of the learning rate: do labels
#                     that know more than the network's own 1-ply move it on their own?
#
# Each plays union-7-w256 over 40,000 games (0-ply, duplicate dice), appended to
# research/bench.txt.  Resumable like the other scripts.  Run with N=580000 (December 2026):
# +0.004 +/- 0.010 and +0.007 +/- 0.011, neither shipped (docs/strength.md).
# Usage: N=600000 nohup nice -n 19 bash research/rollouts/rollout9a.sh > training/run-rollout9a.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
ck=training/checkpoints
data=training/data
prev=$ck/union-7-w256.npz
n=${N:?set N, the number of rollout-9 positions to fit}
first=$data/rollout-9-first$((n / 1000))k.npz
[ -f "$first" ] || python3 training/first_labelled.py "$data/rollout-9" "$n" "$first"
rollouts=(--also "$data/rollout-7.partial.npz" --also "$data/labels-rollout-100000.npz")
others=(--also "$data/refine-6.npz" --also "$data/refine-5.npz"
        --also "$data/labels-1-ply-100000.npz" --also "$first")
a=$ck/rollout-9a-w256.npz
b=$ck/rollout-9b-w256.npz
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
pids=()
if [ ! -f "$a" ]; then
  python3 -m table refine --weights "$prev" --out "$a" --data "$data/refine-8.npz" \
    "${others[@]}" "${rollouts[@]}" --seed 59 --epochs 15 --lr 3e-3 &
  pids+=($!)
fi
if [ ! -f "$b" ]; then
  python3 -m table refine --weights "$prev" --out "$b" --data "$first" --label rollout \
    --trials 36 --depth 7 "${rollouts[@]}" --seed 59 --epochs 15 --lr 1e-3 &
  pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p"; done
unset OPENBLAS_NUM_THREADS OMP_NUM_THREADS
bench "$a $prev --games 40000 --jobs 2"
bench "$b $prev --games 40000 --jobs 2"
