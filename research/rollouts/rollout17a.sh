#!/usr/bin/env bash
# Pass 17a (issue 13): an early look at pass 17 (training/rollout17.sh).  The first 160,000 of
# its 240,000 contact positions (the same whether pass 17 has finished or is still labelling:
# training/first_labelled.py) fitted the way pass 17 fits (twoply-16c at a tenth of the usual
# learning rate), then played against twoply-16c over 40,000 games (0-ply both).
# Usage: PATH=$PWD/.venv/bin:$PATH nohup bash research/rollouts/rollout17a.sh > training/run-rollout17a.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
prev=$ck/twoply-16c.npz
out=$ck/rollout-17a.npz
first=$data/rollout-17a.npz
[ -f "$first" ] || python3 training/first_labelled.py training/sets/rollout-17 160000 "$first"
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" --label rollout --trials 18 --depth 1000 \
    --data "$first" --seed 171 --epochs 12 --lr 3e-4 --lr-final 3e-6
fi
bench "$out $prev --games 40000 --jobs 2"
