#!/usr/bin/env bash
# Rollout pass 9 (issue 13): 1,000,000 positions from the shipped network's self-play
# (union-7-w256), labelled by that network's own truncated rollouts (36 games of 7 half-moves
# each, every roll stratified: about 45 labels a second a core, so some 3 hours of both cores),
# then fitted together with every labelled set so far.  Why rollouts: the 1-ply passes have
# stopped paying (refine-8, 1,000,000 more 1-ply labels: -0.004 against union-7), while the
# union that first took in rollout labels gained +0.015.
#
# Resumable across sessions: labelling saves training/data/rollout-9.partial.npz every few
# minutes and resumes there; a finished network is skipped and a recorded benchmark not rerun.
# Usage: nohup nice -n 19 bash training/rollout9.sh > training/run-rollout9.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
source training/bench-once.sh
ck=training/checkpoints
data=training/data
old=$ck/refine-3.npz
prev=$ck/union-7-w256.npz
out=$ck/rollout-9-w256.npz
# Every earlier labelled set (training/wide.sh makes them); rollout-7's partial file holds the
# 460,000 positions its pass labelled (the first 400,000 are rollout-7-first400k.npz).
earlier=(--also "$data/refine-8.npz" --also "$data/refine-6.npz" --also "$data/refine-5.npz"
         --also "$data/rollout-7.partial.npz" --also "$data/labels-1-ply-100000.npz"
         --also "$data/labels-rollout-100000.npz")
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" --positions 1000000 \
    --data "$data/rollout-9.npz" "${earlier[@]}" --seed 49 --jobs 2 --epochs 15 --lr 3e-3 \
    --label rollout --trials 36 --depth 7
fi
bench "$out $prev --games 40000 --jobs 2"
bench "$out $old --games 40000 --jobs 2"
bench "$out pubeval --games 10000 --jobs 2"
