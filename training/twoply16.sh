#!/usr/bin/env bash
# Pass 16 (issue 13): a better teacher than the network's own 1-ply.  200,000 positions of
# rollout-14's self-play labelled by its 2-ply look-ahead (`table refine --label 2-ply`: about
# 18 positions a second on both cores, so about 3 hours, over several sessions: the labelling
# saves its partial set every few minutes and resumes from it), then rollout-14 fitted to them
# with pass 14's sets (rollout labels and the rest of pass 12's 1-ply set), 12 epochs,
# lr 3e-3 -> 3e-5, and played against rollout-14 and the old Mediu over 40,000 games.
# Resumable: the labelled set is kept in training/data, a recorded benchmark is not rerun.
# Usage: PATH=$PWD/.venv/bin:$PATH nohup nice -n 10 bash training/twoply16.sh > training/run-twoply16.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
prev=$ck/rollout-14.npz
out=$ck/twoply-16.npz
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" --label 2-ply --positions 200000 \
    --data "$data/twoply-16.npz" --also "$data/rollout-14.npz" --also "$data/lead-13b.npz" \
    --also "$data/held-13.npz" --also "$data/refine-12-rest-14.npz" \
    --seed 161 --epochs 12 --lr 3e-3 --lr-final 3e-5
fi
bench "$out $prev --games 40000 --jobs 2"
bench "$out $ck/refine-3.npz --games 40000 --jobs 2"
