"""Pass 22 probe (issue 13): the anchored ranking fit of training/rank18.py on several passes' sets at once.

Each pass (18–21) fitted its network to one set of 300,000 positions ranked by the previous
network's 2-ply, and the gain per pass shrank to nothing (docs/strength.md).  This asks whether
the sets together (more sibling groups for the ranking term, labelled by two or more teachers)
still teach the shipped network anything.  Each set's sibling groups are found again by
collecting its positions with the network and seed that made it (checked equal), numbered apart
from the other sets', and fitted as one set with rank18's term, anchor and schedule.

Usage: PYTHONPATH=src python3 training/union_rank.py START.npz OUT.npz EPOCHS PASS[:N] ...
(PASS 18–21; N the first positions of that set, all of them by default), with ANCHOR and
ANCHOR_W as for rank18.py and LAMBDA the ranking term's weight (30).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import rank18  # noqa: E402

from table.bot.net import Weights  # noqa: E402
from table.tools.train import refine  # noqa: E402

CK = Path("training/checkpoints")
# Each pass's set: the network that played and labelled it, and the collection's seed.
PASSES = {18: ("twoply-16c", 181), 19: ("cand-18s10-300000", 191),
          20: ("cand-19s10-300000", 201), 21: ("cand-20s10-300000", 211)}


def load(pass_: int, n: int | None) -> tuple[refine.Dataset, np.ndarray]:
    """The first ``n`` labelled positions of one pass's set and their sibling groups."""
    net, seed = PASSES[pass_]
    return rank18.load_set(f"training/sets/cand2-{pass_}", Weights.load(CK / f"{net}.npz"), net, seed, n)


def main() -> None:
    start, out, epochs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    parts = []
    offset = 0
    for arg in sys.argv[4:]:
        p, _, n = arg.partition(":")
        d, g = load(int(p), int(n) if n else None)
        parts.append((d, g + offset))
        offset += int(g.max()) + 1
    data = refine.Dataset(np.concatenate([d.positions for d, _ in parts]),
                          np.concatenate([d.targets for d, _ in parts]), parts[0][0].kind)
    groups = np.concatenate([g for _, g in parts])
    anchor_path = os.environ.get("ANCHOR")
    anchor = refine.Dataset.load(Path(anchor_path)) if anchor_path else None
    anchor_w = float(os.environ.get("ANCHOR_W", "1"))
    lam = float(os.environ.get("LAMBDA", "30"))
    rank18.log(f"union start: {start} -> {out}, passes {' '.join(sys.argv[4:])} ({len(groups)} positions), "
               f"lambda {lam}, {epochs} epochs, lr 3e-3 -> 3e-5, anchor {anchor_path} weight {anchor_w}")
    new = rank18.fit(Weights.load(start), data, groups, lam, epochs, 3e-3, 3e-5, 1.0, anchor, anchor_w)
    new.save(out)
    rank18.log(f"wrote {out}")


if __name__ == "__main__":
    main()
