#!/usr/bin/env bash
# Pass 18s (issue 13): twoply-16c fitted to the first N positions of pass 18 with the ranking term
# of training/rank18.py (weight 30, 24 epochs, lr 3e-3 -> 3e-5, as research/labels/cand18r.sh) and an
# anchor: every batch also fits, at weight 10, the starting network's own outputs on pass 17's
# 240,000 positions (training/sets/rollout-17.npz), so that the equity levels the cube reads stay
# where they were while the ranking moves (cand-18s10-200000 and cand-18s10-300000, shipped 4 December 2026).  Then
# judged: Greu's 2-ply cube on D-2029, and the old Mediu (refine-3) over 4 x 40,000 games.
# Usage: N=200000 PATH=$PWD/.venv/bin:$PATH nohup bash training/cand18s.sh > training/run-cand18s.log 2>&1 &
# The next pass, once labelled (training/cand18.sh): PASS=19 PREV=training/checkpoints/NET.npz SEED=191 N=...
# fits NET to training/sets/cand2-19 the same way (anchored to NET's own outputs) into
# cand-19s10-N.npz (cand-19s10-300000 with PREV=training/checkpoints/cand-18s10-300000.npz,
# shipped 5 December 2026).
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
n=${N:?N positions}
pass=${PASS:-18}
prev=${PREV:-$ck/twoply-16c.npz}
export SEED=${SEED:-181}  # the collection's (training/rank18.py checks it)
out=$ck/cand-${pass}s10-$n.npz
[ -f "$out" ] || ANCHOR=training/sets/rollout-17.npz ANCHOR_W=10 \
  python3 training/rank18.py "$prev" "training/sets/cand2-$pass" "$n" 30 "$out" 24 3e-3 3e-5
python3 -m table bench cube --data research/cube/D-2029.npz --judge-only --weights "$out"
for seed in 2026 7 8 9; do
  bench "$out $ck/refine-3.npz --games 40000 --jobs 2$([ $seed = 2026 ] || echo " --seed $seed")"
done
python3 training/pool.py "$out $ck/refine-3.npz --games 40000"
