#!/usr/bin/env bash
# Pass 14 (issue 13): labels to the end for contact positions of every kind.  Pass 13 showed
# that rollouts of the network's own 0-ply play to the end of the game teach it what its 1-ply
# labels cannot (the leader's bias).  Here 160,000 more contact positions of pass 12's set
# (any race standing; not those pass 13 labelled) are labelled the same way, 18 games each
# (about 90 minutes of both cores, 29 a second; resumable across sessions: the labels are saved
# every 20,000 in training/data; 200,000 were drawn, and the last 40,000 kept their 1-ply labels
# so that the pass fitted in one session), then the shipped network lead-13b is fitted to all three rollout
# sets and the rest of pass 12's 1-ply set, and plays lead-13b over 40,000 games.
# Usage: nohup nice -n 19 bash training/rollout14.sh > training/run-rollout14.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
prev=$ck/lead-13b.npz
out=$ck/rollout-14.npz
[ -f "$data/refine-12-rest-b.npz" ] || bash training/held13.sh
if [ ! -f "$data/rollout-14.npz" ] && [ ! -f "$data/rollout-14.partial.npz" ]; then
  python3 training/held.py lead "$data/refine-12-rest-b.npz" "$data/rollout-14.npz" "$data/refine-12-rest-14.npz" 0 200000 18 1000
fi
if [ ! -f "$data/rollout-14.npz" ]; then
  python3 training/held.py trim "$data/rollout-14.npz" 160000 "$data/refine-12-rest-b.npz" "$data/refine-12-rest-14.npz"
fi
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" --label rollout --trials 18 --depth 1000 \
    --data "$data/rollout-14.npz" --also "$data/lead-13b.npz" --also "$data/held-13.npz" \
    --also "$data/refine-12-rest-14.npz" --seed 141 --epochs 12 --lr 3e-3 --lr-final 3e-5
fi
bench "$out $prev --games 40000 --jobs 2"
