#!/usr/bin/env bash
# Pass 17 (issue 13): a new set of contact positions labelled to the end, from the network
# shipped now.  The sets of passes 12-16 were lost with an old machine (training/data is not
# in git), so this one lives in training/sets/ and is committed as it grows: a partial set
# (training/sets/rollout-17.partial.npz) holds every position drawn and the labels made so far,
# and `table refine` resumes from it in the next session.
#   1. 400,000 positions of twoply-16c's self-play (seed 171); of their contact positions
#      240,000 drawn at random (seed 171) as an unlabelled partial set.
#   2. Each labelled by 18 games of twoply-16c's own 0-ply play to the end (about 40 positions
#      a second on both cores, so about 1.7 hours, over sessions; saved every 20,000).
#   3. Then twoply-16c fitted to them at a tenth of the usual learning rate (as pass 16) and
#      played against twoply-16c and the old Mediu over 40,000 games.
# Usage: PATH=$PWD/.venv/bin:$PATH nohup nice -n 10 bash training/rollout17.sh > training/run-rollout17.log 2>&1 &
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
sets=training/sets
prev=$ck/twoply-16c.npz
out=$ck/rollout-17.npz
if [ ! -f "$sets/rollout-17.npz" ] && [ ! -f "$sets/rollout-17.partial.npz" ]; then
  python3 - "$prev" "$sets/rollout-17.partial.npz" <<'PY'
import sys
from pathlib import Path
import numpy as np
from table.bot import features
from table.bot.net import N_OUTPUTS, Weights
from table.tools.train.refine import Dataset, collect
from table.tools.train.rollout import labeller
pos = collect(Weights.load(Path(sys.argv[1])), 400_000, 171)
contact = pos[[not features.is_race(b) for b in pos]]
pick = np.sort(np.random.default_rng(171).choice(len(contact), 240_000, replace=False))
chosen = contact[pick]
Dataset(chosen, np.full((len(chosen), N_OUTPUTS), np.nan, np.float32),
        labeller(18, 1000, 0).kind).save(Path(sys.argv[2]))
print(f"{len(pos)} positions collected, {len(contact)} in contact, {len(chosen)} drawn to label")
PY
fi
if [ ! -f "$out" ]; then
  python3 -m table refine --weights "$prev" --out "$out" --label rollout --trials 18 --depth 1000 \
    --data "$sets/rollout-17.npz" --seed 171 --epochs 12 --lr 3e-4 --lr-final 3e-6
fi
bench "$out $prev --games 40000 --jobs 2"
bench "$out $ck/refine-3.npz --games 40000 --jobs 2"
