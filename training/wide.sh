#!/usr/bin/env bash
# The passes after refine-6 (issue 13): networks of 256 hidden units fitted to every labelled
# set so far, which is what lifted the 0-ply network past the chain of 128-unit passes.
#
#   refine-6-w256   refine-5-w256 fitted to refine-6's labels (1,000,000 positions, 1-ply of refine-5)
#   union-7-w256    refine-6-w256 fitted to all of them at once: refine-5 and refine-6's labels,
#                   the first 400,000 positions of the rollout pass (training/data/rollout-7*.npz,
#                   labelled by truncated rollouts of refine-6) and the 100,000-position label
#                   experiment's two sets (training/compare-labels.sh): 2,600,000 positions
#   refine-8-w256   1,000,000 new positions from union-7-w256's self-play labelled by its 1-ply
#                   judgement, fitted together with everything above: 3,600,000 positions
#
# Each result plays the shipped-before weights (refine-3) and its predecessor over 40,000 games
# and pubeval over 10,000 (0-ply, duplicate dice), appended to training/bench.txt.  Resumable like
# refine.sh: a finished network is skipped, a recorded benchmark is not rerun, labelling resumes
# from its partial file.  Needs training/data/refine-5.npz and refine-6.npz (bash training/refine.sh
# 5 6 makes them), the label experiment's sets and the rollout pass's first 400,000 labels.
# Usage: nohup nice -n 19 bash training/wide.sh > training/run-wide.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
source training/bench-once.sh
ck=training/checkpoints
data=training/data
old=$ck/refine-3.npz

rollout=$data/rollout-7-first400k.npz
if [ ! -f "$rollout" ]; then
  # The rollout pass (see the end of training/refine.sh's usage) labels positions in order, so its
  # first 400,000 are the same whether it has finished or not.
  python3 training/first_labelled.py "$data/rollout-7" 400000 "$rollout"
fi
earlier=(--also "$data/refine-5.npz" --also "$rollout" --also "$data/labels-1-ply-100000.npz"
         --also "$data/labels-rollout-100000.npz")

if [ ! -f "$ck/refine-6-w256.npz" ]; then
  python3 -m table refine --weights "$ck/refine-5-w256.npz" --out "$ck/refine-6-w256.npz" \
    --data "$data/refine-6.npz" --seed 16 --epochs 40 --lr 3e-3
fi
bench "$ck/refine-6-w256.npz $old --games 40000 --jobs 2"
bench "$ck/refine-6-w256.npz $ck/refine-6.npz --games 40000 --jobs 2"
bench "$ck/refine-6-w256.npz pubeval --games 10000 --jobs 2"

if [ ! -f "$ck/union-7-w256.npz" ]; then
  python3 -m table refine --weights "$ck/refine-6-w256.npz" --out "$ck/union-7-w256.npz" \
    --data "$data/refine-6.npz" "${earlier[@]}" --seed 28 --epochs 20 --lr 3e-3
fi
bench "$ck/union-7-w256.npz $ck/refine-6-w256.npz --games 40000 --jobs 2"
bench "$ck/union-7-w256.npz $old --games 40000 --jobs 2"
bench "$ck/union-7-w256.npz pubeval --games 10000 --jobs 2"

if [ ! -f "$ck/refine-8-w256.npz" ]; then
  python3 -m table refine --weights "$ck/union-7-w256.npz" --out "$ck/refine-8-w256.npz" \
    --positions 1000000 --data "$data/refine-8.npz" --also "$data/refine-6.npz" "${earlier[@]}" \
    --seed 38 --jobs 2 --epochs 15 --lr 3e-3
fi
bench "$ck/refine-8-w256.npz $ck/union-7-w256.npz --games 40000 --jobs 2"
bench "$ck/refine-8-w256.npz $old --games 40000 --jobs 2"
bench "$ck/refine-8-w256.npz pubeval --games 10000 --jobs 2"

# The levels as shipped (union-7-w256 became src/table/bot/weights/table.npz): Mediu and Greu
# against the same levels with the weights shipped before (refine-3), and against pubeval.
bench "medium $old --games 40000 --jobs 2"
bench "hard $old:1 --games 20000 --jobs 2"
bench "medium pubeval --games 10000 --jobs 2"
bench "easy pubeval --games 10000 --jobs 2"
bench "hard pubeval --games 10000 --jobs 2 --seed 2026"  # (the line without --seed is the old weights')
bench "hard pubeval --seed 7 --games 10000 --jobs 2"
