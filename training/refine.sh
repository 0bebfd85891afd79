#!/usr/bin/env bash
# The refinement passes that turned the TD(lambda) network into the shipped one,
# and the passes after it.  Each pass collects 1,000,000 positions from the
# previous network's self-play, labels them with that network's own 1-ply
# judgement and fits it to them (see src/table/tools/train/refine.py).  About 20
# minutes a pass on 2 idle cores.  After each pass: 0-ply against pubeval
# (10,000 games) and head to head against the previous pass (40,000 games),
# appended to training/bench.txt.
#
# Resumable: a pass whose checkpoint exists is skipped, a benchmark already in
# training/bench.txt is not run again, and a pass stopped after labelling reuses
# its labelled positions (training/data/refine-N.npz, not in git); one stopped while
# labelling resumes from training/data/refine-N.partial.npz.
#
# Usage: bash training/refine.sh [first pass, default 1] [last pass, default 3] [wide]
#   wide: also fit a network of this many hidden units to each pass's labels, as
#   refine-N-wWIDE.npz: the previous pass's wide network when there is one, else
#   the previous narrow network widened (new units start silent).  The labels
#   come from the chain of narrow networks (refine-N.npz), half as costly to run.
# Run it niced in the background on a shared machine, e.g.
#   nohup nice -n 19 bash training/refine.sh 4 5 256 > training/run-refine.log 2>&1 &
# Labels by truncated rollouts instead of 1-ply (about 60 labels/s a core: 1,000,000
# positions take hours; use a pass number whose training/data file is not 1-ply):
#   TABLE_LABEL="--label rollout --trials 36 --depth 7" bash training/refine.sh 6 6
set -eu
cd "$(dirname "$0")/.."
# TABLE_SRC: run from a frozen copy of src/ while the tree is being edited.
export PYTHONPATH="${TABLE_SRC:-$PWD/src}"
first="${1:-1}"
last="${2:-3}"
wide="${3:-}"
# shellcheck disable=SC2206  # the options are meant to split into words
label=(${TABLE_LABEL:-})

# Benchmark once (training/bench-once.sh): skip it when its command is already in bench.txt.
source training/bench-once.sh

# Pass 1 starts from the TD network as it was shipped before the refinement passes:
# 1,000,000 self-play games and a 150,000-game race pass (git show 520cf9f:src/table/bot/weights/table.npz).
for k in $(seq "$first" "$last"); do
  if [ "$k" -eq 1 ]; then
    prev=training/checkpoints/td-1000000-races.npz
  else
    prev="training/checkpoints/refine-$((k - 1)).npz"
  fi
  out="training/checkpoints/refine-$k.npz"
  data="training/data/refine-$k.npz"
  if [ ! -f "$out" ]; then
    python3 -m table refine --weights "$prev" --out "$out" --positions 1000000 --data "$data" \
      --seed $((10 + k)) --jobs 2 --epochs 40 --lr 3e-3 "${label[@]}"
  fi
  bench "$out pubeval --games 10000 --jobs 2"
  bench "$out $prev --games 40000 --jobs 2"
  if [ -n "$wide" ]; then
    wout="training/checkpoints/refine-$k-w$wide.npz"
    wprev="training/checkpoints/refine-$((k - 1))-w$wide.npz"
    [ -f "$wprev" ] || wprev="$prev"
    if [ ! -f "$wout" ]; then
      python3 -m table refine --weights "$wprev" --hidden "$wide" --out "$wout" --data "$data" \
        --seed $((10 + k)) --jobs 2 --epochs 40 --lr 3e-3 "${label[@]}"
    fi
    bench "$wout pubeval --games 10000 --jobs 2"
    bench "$wout $out --games 40000 --jobs 2"
  fi
done
