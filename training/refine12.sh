#!/usr/bin/env bash
# Pass 12 (issue 13): the shipped two-layer network deep-11-h128 teaches itself.  Positions
# from its own self-play are labelled by its own 1-ply judgement and the network is fitted
# to them, starting from its own weights with a small learning rate (1e-3 falling to 1e-5),
# as the one-layer refinement passes did.  Then it plays deep-11-h128 over 40,000 games
# (0-ply both) on two seeds, and refine-3 (the network shipped when issue 13 was filed).
#
# Resumable: labelling saves a partial set every few minutes (training/data, not in git) and
# resumes from it; a finished network is skipped and a recorded benchmark not rerun.
# STOP_AT=N fits to the first N labelled positions of the partial set instead of waiting for
# all of them (for a session that must end).
# Usage: nohup nice -n 19 bash training/refine12.sh > training/run-refine12.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
source training/bench-once.sh
ck=training/checkpoints
data=training/data
prev=$ck/deep-11-h128.npz
out=$ck/refine-12-deep.npz
if [ ! -f "$out" ]; then
  if [ -n "${STOP_AT:-}" ] && [ ! -f "$data/refine-12.npz" ]; then
    python3 - "$data/refine-12.partial.npz" "$data/refine-12-part.npz" "$STOP_AT" <<'PY'
import sys
from pathlib import Path
from table.tools.train.refine import Dataset
part = Dataset.load(Path(sys.argv[1])).labelled()
n = int(sys.argv[3])
Dataset(part.positions[:n], part.targets[:n], part.kind).save(Path(sys.argv[2]))
print(f"{min(n, len(part.positions))} labelled positions taken from the partial set")
PY
    src=$data/refine-12-part.npz
  else
    src=$data/refine-12.npz
  fi
  python3 -m table refine --weights "$prev" --out "$out" --positions 1000000 --data "$src" \
    --seed 81 --jobs 2 --epochs 8 --lr 1e-3 --lr-final 1e-5
fi
bench "$out $prev --games 40000 --jobs 2"
bench "$out $prev --games 40000 --jobs 2 --seed 7"
bench "$out $ck/refine-3.npz --games 40000 --jobs 2"
