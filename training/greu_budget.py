"""What Greu's budget (``GREU_BUDGET``, docs/bot.md) does in a variant: the plays Greu judges a
move with no budget and with it, and how many of its choices the budget changes, over every fifth
position of seeded random games (``table.tools.corpus``), one random roll each (docs/strength.md).
Run from the repository root: ``python3 training/greu_budget.py dutch 150``.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from table.bot import search
from table.bot.bot import GREU_BUDGET, Bot
from table.tools.corpus import random_positions


def main(variant: str, n: int) -> str:
    hard = Bot("hard")
    keep, margin = hard._filters
    rng = random.Random(51)
    uncapped: list[int] = []
    capped: list[int] = []
    changed = over = 0
    for p in random_positions(5 * n, 51, variant)[::5]:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        if len(p.legal_plays(roll)) < 2:
            continue  # nothing to choose
        net, work = hard._net(p)
        board = np.array(p.board, dtype=np.int8)
        chosen = []
        for budget, judged in ((0, uncapped), (GREU_BUDGET, capped)):
            _, best = search.choose(net, work, board, roll[0], roll[1], 2, 0.0, keep, margin, budget)
            chosen.append(work.boards[0, best].copy())
            judged.append(int(work.tally[search.COUNT_JUDGED]))
        over += bool(work.tally[search.COUNT_OVER])
        changed += not np.array_equal(chosen[0], chosen[1])

    def pct(xs: list[int], f: float) -> int:
        return sorted(xs)[min(len(xs) - 1, int(f * len(xs)))]

    return (f"{variant}: {len(uncapped)} positions; plays judged with no budget: median "
            f"{pct(uncapped, 0.5):,}, 90th percentile {pct(uncapped, 0.9):,}, 99th {pct(uncapped, 0.99):,}, "
            f"max {max(uncapped):,}; with {GREU_BUDGET:,}: median {pct(capped, 0.5):,}, max {max(capped):,}, "
            f"a stage given up in {over}, the choice changed in {changed}")


if __name__ == "__main__":
    print(main(sys.argv[1], int(sys.argv[2])))
