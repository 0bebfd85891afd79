#!/usr/bin/env bash
# The cube's value for Greu at 2 plies (issue 13), in resumable chunks of 500 games:
# Greu with its cube against the same Greu that never doubles and always takes, and pubeval
# playing its checkers with Greu's cube decisions.  CHUNKS (default 2) chunks of each; pool with
#   python3 training/pool.py "hard hard --cube --passive b --games 500"
#   python3 training/pool.py "hard pubeval --cube --games 500"
set -euo pipefail
cd "$(dirname "$0")/.."
source training/bench-once.sh
n=${CHUNKS:-2}
for i in $(seq 1 "$n"); do
  bench hard hard --cube --passive b --games 500 --jobs 2 --seed $((300 + i))
  bench hard pubeval --cube --games 500 --jobs 2 --seed $((400 + i))
done
