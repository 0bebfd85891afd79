"""``table bench latency``: time per move of each level, on positions with a choice to make
from seeded self-play."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from table.bot.bot import SETTINGS, Bot
from table.errors import TableError
from table.rules.position import Position


def run(args: argparse.Namespace) -> int:
    """Time each level's moves and print the figures."""
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    for lv in levels:
        if lv not in SETTINGS:
            raise TableError(f"unknown level {lv!r}: choose easy, medium or hard")
    rng = random.Random(args.seed)
    # Positions met in play: seeded games of the medium bot against itself.
    sampler = Bot("medium")
    samples: list[tuple[Position, tuple[int, int]]] = []
    while len(samples) < args.positions:
        p = Position.initial()
        while not p.is_game_over and len(samples) < args.positions:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if len(p.legal_plays(dice)) > 1:
                samples.append((p, dice))
            play = sampler.choose_play(p, dice)
            p = play.position if play is not None else p.swapped()
    print(f"{len(samples)} positions with a choice to make, from seeded self-play (seed {args.seed})")
    for lv in levels:
        bot = Bot(lv, seed=args.seed)
        bot.choose_play(*samples[0])  # compile or load the cache outside the timing
        times = []
        for pos, dice in samples:
            t = time.perf_counter()
            bot.choose_play(pos, dice)
            times.append(time.perf_counter() - t)
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        print(f"{lv:6s}: median {statistics.median(times) * 1000:8.1f} ms   "
              f"90% {p90 * 1000:8.1f} ms   worst {times[-1] * 1000:8.1f} ms")
    return 0
