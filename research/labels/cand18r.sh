#!/usr/bin/env bash
# Pass 18r (issue 13): twoply-16c fitted to the first N positions of pass 18 with the ranking
# term of training/rank18.py (LAMBDA 30, 24 epochs, lr 3e-3 -> 3e-5: on the first 60,000 the
# setting that lowered the held-out sibling rank error most, 0.0121 -> 0.0114), then played
# against twoply-16c over 40,000 games (0-ply both; appended to research/bench.txt).
# Usage: N=140000 PATH=$PWD/.venv/bin:$PATH nohup bash research/labels/cand18r.sh > training/run-cand18r.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
n=${N:?N positions}
prev=$ck/twoply-16c.npz
out=$ck/cand-18r-$n.npz
[ -f "$out" ] || python3 training/rank18.py "$prev" training/sets/cand2-18 "$n" 30 "$out" 24 3e-3 3e-5
bench "$out $prev --games 40000 --jobs 2"
