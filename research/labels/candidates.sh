#!/usr/bin/env bash
# Candidate pass 10 (issue 13): does the network rank its own best plays better when it is
# also taught the positions after the plays it nearly chose?
#
#   training/candidates.py   600,000 positions after the 2nd-4th best plays (within 0.12 of the
#                            best, 0-ply) of union-7-w256's self-play, labelled by its 1-ply
#   candidates-10a-w256      those with every earlier set (the sets of rollout-9a-w256), 15 epochs
#   candidates-10b-w256      those with refine-8's 1,000,000 only, at a third of the learning rate
#
# Each plays union-7-w256 over 40,000 games (0-ply, duplicate dice), appended to
# research/bench.txt.  Resumable: every step is skipped when its output is there.
# Usage: nohup nice -n 19 bash research/labels/candidates.sh > training/run-candidates.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
ck=training/checkpoints
data=training/data
prev=$ck/union-7-w256.npz
cand=$data/candidates-10.npz
[ -f "$cand" ] || python3 training/candidates.py "$prev" 600000 71 "$cand" 2
others=(--also "$data/refine-8.npz" --also "$data/refine-6.npz" --also "$data/refine-5.npz"
        --also "$data/labels-1-ply-100000.npz" --also "$data/rollout-9-first580k.npz"
        --also "$data/rollout-7.partial.npz" --also "$data/labels-rollout-100000.npz")
a=$ck/candidates-10a-w256.npz
b=$ck/candidates-10b-w256.npz
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
pids=()
if [ ! -f "$a" ]; then
  python3 -m table refine --weights "$prev" --out "$a" --data "$cand" "${others[@]}" \
    --seed 59 --epochs 15 --lr 3e-3 &
  pids+=($!)
fi
if [ ! -f "$b" ]; then
  python3 -m table refine --weights "$prev" --out "$b" --data "$cand" \
    --also "$data/refine-8.npz" --seed 59 --epochs 15 --lr 1e-3 &
  pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p"; done
unset OPENBLAS_NUM_THREADS OMP_NUM_THREADS
bench "$a $prev --games 40000 --jobs 2"
bench "$b $prev --games 40000 --jobs 2"
