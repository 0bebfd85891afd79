"""Greu's time per move in Plakoto or Fevga (docs/strength.md, "Plakoto and Fevga").

Every fifth position of seeded random games (``table.tools.corpus``), one random roll each;
each move is timed the second time it is chosen (the first call may compile).  Run from the repository root:
``python3 training/greek_greu_time.py plakoto src/table/bot/weights/plakoto.npz 10``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from table.bot.bot import Bot
from table.tools.corpus import random_positions


def main(variant: str, net: str, n: int) -> str:
    hard = Bot("hard", weights=net)
    rng = random.Random(51)
    times: list[float] = []
    positions = random_positions(5 * n, 51, variant)[::5]
    for p in positions:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        hard.choose_play(p, roll)
        t = time.perf_counter()
        hard.choose_play(p, roll)
        times.append(time.perf_counter() - t)
    return (f"{variant} Greu time per move over {n} positions: median "
            f"{statistics.median(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    print(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
