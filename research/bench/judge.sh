#!/usr/bin/env bash
# Judges a candidate network the ways pass 13 did (issue 13), so that passes compare alike:
# the back-game bias on 120 held positions (research/rollouts/backgame_bias.py, seed 150), then Greu's
# 2-ply cube decisions with the network against the two kept cube references (A-deep, A-w256),
# then Mediu with it against pubeval (10,000 games, seed 2026) and against the old Mediu
# (refine-3, 40,000 games).  About 10 minutes of both cores.
# Usage: bash research/bench/judge.sh training/checkpoints/NET.npz > training/run-judge-NET.log 2>&1
set -eu
cd "$(dirname "$0")/../.."
export BENCH=${BENCH:-research/bench.txt}  # the research record, not the pipeline's
source training/bench-once.sh
net=$1
[ -f "$net" ] || { echo "no such network: $net" >&2; exit 2; }
python3 research/rollouts/backgame_bias.py 120 150 "$net"
for ref in A-deep A-w256; do
  python3 -m table bench cube --data "research/cube/$ref.npz" --judge-only --weights "$net"
done
bench "$net pubeval --games 10000 --jobs 2 --seed 2026"
bench "$net $ck/refine-3.npz --games 40000 --jobs 2"
grep -A3 -F "\$ python3 -m table bench strength $net " "$BENCH"
