"""Greu's time per move in a variant with its shipped networks (docs/strength.md): every fifth
position of seeded random games (``table.tools.corpus``), one random roll each, each move timed
the second time it is chosen (the first call may compile).  Run from the repository root:
``python3 training/greu_time.py race 20``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from table.bot.bot import Bot
from table.tools.corpus import random_positions


def main(variant: str, n: int) -> str:
    hard = Bot("hard")
    rng = random.Random(51)
    times: list[float] = []
    plays: list[int] = []
    for p in random_positions(5 * n, 51, variant)[::5]:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        plays.append(len(p.legal_plays(roll)))
        if plays[-1] < 2:
            continue  # nothing to choose
        hard.choose_play(p, roll)
        t = time.perf_counter()
        hard.choose_play(p, roll)
        times.append(time.perf_counter() - t)
    return (f"{variant} Greu time per move over {len(times)} positions: median {statistics.median(times):.3f} s, "
            f"mean {statistics.mean(times):.3f} s, max {max(times):.3f} s; plays a roll: median "
            f"{statistics.median(plays)}, max {max(plays)}")


if __name__ == "__main__":
    print(main(sys.argv[1], int(sys.argv[2])))
