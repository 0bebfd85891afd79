#!/usr/bin/env bash
# Greu as shipped since December 2026 (two plies ahead: every play at 0-ply, the best 8 within 0.16
# one ply ahead, the best 2 of those within 0.04 two plies ahead), in chunks of 1,000 games with
# their own seeds so that a stopped run resumes at the next chunk; `python3 training/pool.py`
# pools the chunks.  Against:
#   old      (default) Greu with the weights shipped before (refine-3, one ply): seeds 101..CHUNKS_TO
#            (default 140, 40,000 games);
#   pubeval  pubeval: seeds 201..210 (10,000 games);
#   cube     the cube's value, in chunks of 500 games with the `hard` level: Greu with its cube
#            against the same Greu that never doubles and always takes (seeds 301..), and pubeval
#            playing its checkers with Greu's cube decisions (seeds 401..); CHUNKS of each (4).
# NET=FILE plays that weights file's Greu instead of the `hard` level (recorded by the file's name,
# so its chunks pool apart from the shipped network's); the same seeds give the same dice.
# Run from the repository root, e.g.
#   nohup nice -n 19 bash research/bench/greu2.sh pubeval > training/run-greu2.log 2>&1 &
#   NET=training/checkpoints/deep-11-h128.npz CHUNKS_TO=104 bash research/bench/greu2.sh
set -euo pipefail
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
. training/bench-once.sh
greu=${NET:-hard}:2:8,2:0.16,0.04
case "${1:-old}" in
  old)
    for seed in $(seq 101 "${CHUNKS_TO:-140}"); do
      bench "$greu training/checkpoints/refine-3.npz:1 --games 1000 --jobs 2 --seed $seed"
    done ;;
  pubeval)
    for seed in $(seq 201 210); do
      bench "$greu pubeval --games 1000 --jobs 2 --seed $seed"
    done ;;
  cube)
    for i in $(seq 1 "${CHUNKS:-4}"); do
      bench "hard hard --cube --passive b --games 500 --jobs 2 --seed $((300 + i))"
      bench "hard pubeval --cube --games 500 --jobs 2 --seed $((400 + i))"
    done ;;
  *) echo "usage: bash research/bench/greu2.sh [old|pubeval|cube]" >&2; exit 2 ;;
esac
