#!/usr/bin/env bash
# Pass 13 (issue 13): back and holding games labelled by full-length rollouts.
# The network overrates the side far ahead in the race while the other still holds points in
# its home board (research/rollouts/backgame_bias.py: +0.11 on average).  Its own 1-ply labels carry
# that bias; rollouts of its own 0-ply play to the end do not.  The held positions of pass 12's
# set (deep-11-h128's self-play; lead 30+, either side on roll: training/held.py) are labelled
# by 18-trial rollouts to the end of the game instead of 1-ply, and deep-11-h128 is fitted to
# them with the rest of pass 12's 1-ply set, then plays deep-11-h128 over 40,000 games.
# 13b: the same bias, smaller, is in contact positions with a race lead and no held points
# (+0.07 at 40+ pips, +0.03 at 20-40): 60,000 of those with a lead of 20+ pips are labelled
# the same way, and deep-11-h128 is fitted to both rollout sets with the rest of pass 12's.
# Resumable (the labels are saved as they come; a finished network is kept, a recorded
# benchmark not rerun).
# Usage: nohup nice -n 19 bash training/held13.sh > training/run-held13.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
prev=$ck/deep-11-h128.npz
out=$ck/held-13.npz
label=(--label rollout --trials 18 --depth 1000)
[ -f "$data/refine-12.npz" ] || bash training/refine12.sh
if [ ! -f "$data/held-13.npz" ] && [ ! -f "$data/held-13.partial.npz" ]; then
  python3 training/held.py split "$data/refine-12.npz" "$data/held-13.npz" "$data/refine-12-rest.npz" 30 18 1000
fi
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" "${label[@]}" --data "$data/held-13.npz" \
    --also "$data/refine-12-rest.npz" --seed 131 --epochs 12 --lr 3e-3 --lr-final 3e-5
fi
bench "$out $prev --games 40000 --jobs 2"

out=$ck/lead-13b.npz
if [ ! -f "$data/lead-13b.npz" ] && [ ! -f "$data/lead-13b.partial.npz" ]; then
  python3 training/held.py lead "$data/refine-12-rest.npz" "$data/lead-13b.npz" "$data/refine-12-rest-b.npz" 20 60000 18 1000
fi
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" "${label[@]}" --data "$data/lead-13b.npz" \
    --also "$data/held-13.npz" --also "$data/refine-12-rest-b.npz" --seed 132 --epochs 12 --lr 3e-3 --lr-final 3e-5
fi
bench "$out $prev --games 40000 --jobs 2"
