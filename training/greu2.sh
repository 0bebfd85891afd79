#!/usr/bin/env bash
# Greu looking two plies ahead (the best two plays within 0.04 after one ply) against Greu with
# the weights shipped before (refine-3, one ply), in chunks of 1,000 games with their own seeds so
# that a stopped run resumes at the next chunk; `python3 training/pool.py` pools the chunks.
# Run from the repository root: nohup nice -n 19 bash training/greu2.sh > training/run-greu2.log 2>&1 &
set -euo pipefail
. training/bench-once.sh
old=training/checkpoints/refine-3.npz
for seed in $(seq 101 "${CHUNKS_TO:-140}"); do
  bench "hard:2:8,2:0.16,0.04 $old:1 --games 1000 --jobs 2 --seed $seed"
done
