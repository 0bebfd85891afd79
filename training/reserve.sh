#!/usr/bin/env bash
# Issue 50: self-play fine-tuning of the variants whose checkers start off the board.
# Each variant starts from the standard network of one hidden layer (refine-3.npz, 1,000,000
# games; the shipped standard one has two layers, which TD does not train) and goes on for
# GAMES more games; resumable (run it again: the checkpoint is picked up).
# Usage: nohup nice -n 10 bash training/reserve.sh race 60000 > training/run-race.log 2>&1 &
set -euo pipefail
variant=$1
more=${2:-60000}
export PYTHONPATH=src
exec .venv/bin/python -m table train --variant "$variant" \
    --init training/checkpoints/refine-3.npz \
    --checkpoint "training/checkpoints/$variant.npz" \
    --games $((1000000 + more)) --chunk 500 --check-every 10000 --check-pairs 200 \
    --checkpoint-minutes 3 --log "training/log-$variant.txt"
