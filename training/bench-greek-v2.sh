#!/usr/bin/env bash
# The retrained Greek networks' benchmarks (alpha 0.1, trainer.GREEK_SCHEDULE): each command and
# what it printed, appended to training/bench-greek-v2.txt.
# Usage: bash training/bench-greek-v2.sh VARIANT NET OLD GAMES
# (NET: the retrained checkpoint; OLD: the network it replaces, e.g. training/checkpoints/plakoto-64500.npz)
set -u
cd "$(dirname "$0")/.."
V=$1; NET=$2; OLD=$3; GAMES=${4:-1000}
OUT=training/bench-greek-v2.txt
run() {
  echo "\$ table $*" >> "$OUT"
  nice -n 19 .venv/bin/table "$@" >> "$OUT" 2>&1
}
run bench strength --variant "$V" "$NET" rules --games "$GAMES"
run bench strength --variant "$V" "$NET" "$OLD" --games "$GAMES"
run bench strength --variant "$V" "$NET" random --games "$GAMES"
