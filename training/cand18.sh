#!/usr/bin/env bash
# Pass 18 (issue 13): teach the 0-ply network how Greu ranks the plays it has to choose between.
# Greu judges its finalists at 2 plies; Mediu ranks every play at 0.  The positions where that
# ranking matters are those after the close plays of a roll, so this labels exactly those by
# the shipped network's own 2-ply look-ahead (distilling Greu's judgement into Mediu):
#   1. From twoply-16c's self-play (seed 181), for each roll whose best play has rivals within
#      0.12 at 0-ply, the positions after the best play and up to three rivals
#      (training/candidates.py, with the best): 300,000 positions, an unlabelled partial set in
#      training/sets/ (committed as it grows, like pass 17's).
#   2. Each labelled by twoply-16c's 2-ply (about 20 a second on both cores; saved every
#      5 minutes; resumable across sessions).
#   3. Fit when labelled (research/labels/cand18a.sh fits the part labelled so far).
# Usage: PATH=$PWD/.venv/bin:$PATH nohup nice -n 10 bash training/cand18.sh > training/run-cand18.log 2>&1 &
# The next pass is the same with the network it made: PASS=19 PREV=training/checkpoints/NET.npz
# SEED=191 labels training/sets/cand2-19.npz from that network's self-play and 2-ply.
set -eu
cd "$(dirname "$0")/.."
source training/bench-once.sh
sets=training/sets
pass=${PASS:-18}
prev=${PREV:-$ck/twoply-16c.npz}
seed=${SEED:-181}
if [ ! -f "$sets/cand2-$pass.npz" ] && [ ! -f "$sets/cand2-$pass.partial.npz" ]; then
  python3 - "$prev" "$sets/cand2-$pass.partial.npz" "$seed" <<'PY'
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, "training")
import candidates
from table.bot.net import N_OUTPUTS, Weights
from table.tools.train.refine import Dataset, plies
pos = candidates.collect(Weights.load(Path(sys.argv[1])), 300_000, int(sys.argv[3]), with_best=True)
Dataset(pos, np.full((len(pos), N_OUTPUTS), np.nan, np.float32), plies(2).kind).save(Path(sys.argv[2]))
print(f"{len(pos)} positions after close plays collected")
PY
fi
# Label only: the fit is research/labels/cand18a.sh's (--epochs 0 would still fit once).
python3 - "$prev" "$sets/cand2-$pass.npz" "$seed" "$pass" <<'PY'
import sys
import time
from pathlib import Path
from table.bot.net import Weights
from table.tools.train import refine
data = Path(sys.argv[2])
if not data.exists():
    def log(msg: str) -> None:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} cand{sys.argv[4]} {msg}"
        print(line, flush=True)
        with open("training/log.txt", "a") as f:
            f.write(line + "\n")
    d = refine.label_resumably(Weights.load(Path(sys.argv[1])), 0, int(sys.argv[3]), 2, data, log,
                                refine.plies(2))
    d.save(data)
    refine.partial_path(data).unlink(missing_ok=True)
    log(f"saved {len(d.positions)} labelled positions to {data}")
PY
