#!/usr/bin/env bash
# The Greek games' benchmarks (issue 51): each line's command and what it printed, appended to
# training/bench-greek.txt. Usage: bash training/bench-greek.sh VARIANT NET GAMES
# (NET: a checkpoint copied when training stopped, e.g. training/checkpoints/plakoto-40000.npz).
set -u
cd "$(dirname "$0")/.."
V=$1; NET=$2; GAMES=${3:-1000}
OUT=training/bench-greek.txt
run() {
  echo "\$ table $*" >> "$OUT"
  nice -n 10 .venv/bin/table "$@" >> "$OUT" 2>&1
}
run bench strength --variant "$V" "$NET" rules --games "$GAMES"
run bench strength --variant "$V" "$NET" "training/checkpoints/$V-untrained.npz" --games "$GAMES"
run bench strength --variant "$V" rules random --games "$GAMES"
run bench strength --variant "$V" "training/checkpoints/$V-untrained.npz" rules --games "$GAMES"
