#!/usr/bin/env bash
# What ran after the million-game TD(lambda) run: a race pass, then the benchmarks.
# Usage: bash training/after_td.sh [PID of the running trainer to wait for]
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/src"
if [ "${1:-}" != "" ]; then
  while kill -0 "$1" 2>/dev/null; do sleep 10; done
fi
run() { echo "\$ $*" >> training/bench.txt; "$@" >> training/bench.txt 2>&1; echo >> training/bench.txt; }
echo "# $(date -u '+%Y-%m-%d %H:%M:%S') race pass from the 1,000,000-game checkpoint" >> training/log.txt
python3 -m table train --races --games 150000 --checkpoint training/checkpoints/latest.npz \
  --export src/table/bot/weights/table.npz --log training/log.txt --check-every 50000 \
  --check-pairs 500 > /dev/null 2>&1
echo "## $(date -u '+%Y-%m-%d %H:%M:%S') benchmarks of src/table/bot/weights/table.npz" >> training/bench.txt
python3 - >> training/bench.txt 2>&1 <<'PY'
from table.tools.duel import NETWORK, PUBEVAL, Player, duel, summary
from table.bot.net import bundled
w = bundled()
for noise in (0.15, 0.25, 0.35, 0.5, 0.7):
    ppg, ci = summary(duel(Player(NETWORK, w, 0, noise), Player(PUBEVAL), 1000, 77))
    print(f"easy noise sweep: noise {noise}: {ppg:+.3f} ppg +/- {ci:.3f} vs pubeval (2000 games)")
PY
run python3 -m table bench strength medium pubeval --games 10000
run python3 -m table bench latency --positions 300
run python3 -m table bench strength hard pubeval --games 10000 --jobs 2
echo "## $(date -u '+%Y-%m-%d %H:%M:%S') done" >> training/bench.txt
