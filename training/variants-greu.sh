#!/usr/bin/env bash
# Greu against Ușor at 2,000 games in each variant of issues 50 and 51 (docs/strength.md), in
# chunks of 100 games (50 duplicate pairs) with their own seeds, so that a stopped run resumes at
# the next chunk; the record is training/bench-variants-greu.txt (in git: it is the measurement),
# and `BENCH=training/bench-variants-greu.txt python3 training/pool.py "--variant V hard easy --games 100"`
# pools a variant's chunks.  Usage, from the repository root:
#   nohup nice -n 19 bash training/variants-greu.sh [VARIANT ...] > training/run-variants-greu.log 2>&1 &
# (by default every variant, fastest first; CHUNKS=20 chunks each).
set -euo pipefail
export BENCH=training/bench-variants-greu.txt
. training/bench-once.sh
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(race fevga plakoto dutch acey-deucey)
for v in "${variants[@]}"; do
  for i in $(seq 1 "${CHUNKS:-20}"); do
    bench "--variant $v hard easy --games 100 --jobs 2 --seed $((5000 + i))"
  done
done
