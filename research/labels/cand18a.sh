#!/usr/bin/env bash
# Pass 18a (issue 13): twoply-16c fitted to the first N positions of pass 18 (training/cand18.sh:
# positions after close plays, labelled by twoply-16c's 2-ply), fitted the way twoply-16c was
# made (a tenth of the usual learning rate), each way played against twoply-16c over 40,000
# games (0-ply both; appended to research/bench.txt):
#   cand-18a-N  the 2-ply set alone
#   cand-18b-N  the 2-ply set three times with pass 17's rollout labels (as twoply-16c took its
#               2-ply set three times with pass 14's sets)
# SKIP_B=1 fits and plays cand-18a only.
# Usage: N=100000 PATH=$PWD/.venv/bin:$PATH nohup bash research/labels/cand18a.sh > training/run-cand18a.log 2>&1 &
set -eu
cd "$(dirname "$0")/../.."
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
n=${N:?N positions}
prev=$ck/twoply-16c.npz
first=$data/cand2-18-first$n.npz
[ -f "$first" ] || python3 training/first_labelled.py training/sets/cand2-18 "$n" "$first"
roll=training/sets/rollout-17.npz
[ -f "$roll" ] || roll=training/sets/rollout-17.partial.npz
a=$ck/cand-18a-$n.npz
b=$ck/cand-18b-$n.npz
common=(--weights "$prev" --label 2-ply --data "$first" --seed 181 --epochs 12 --lr 3e-4 --lr-final 3e-6)
[ -f "$a" ] || python3 -m table refine "${common[@]}" --out "$a"
[ -n "${SKIP_B:-}" ] || [ -f "$b" ] || python3 -m table refine "${common[@]}" --out "$b" --also "$first" --also "$first" --also "$roll"
bench "$a $prev --games 40000 --jobs 2"
[ -n "${SKIP_B:-}" ] || bench "$b $prev --games 40000 --jobs 2"
