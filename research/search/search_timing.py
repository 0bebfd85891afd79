"""Time the hard level's move choice on positions from seeded self-play, under several searches.

Usage (from the repository root; PYTHONPATH chooses which version of the code is timed):

    PYTHONPATH=src python3 research/search/search_timing.py --positions 200 hard 2:8,3:0.16,0.10

A search is ``hard`` (the level as shipped) or ``DEPTH:KEEP,...:MARGIN,...`` (the
hard level with that depth and those move filters; needs the filters of
``LevelSettings``, so not the search before it had them, where only ``hard`` and
``DEPTH`` work).  Prints, per search: median, 90th percentile and worst time
of one choice (wall clock, and the CPU time it took), and the load average
before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from table.bot import bot as levels
from table.bot.bot import Bot
from table.rules.position import Position


def samples(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with a choice to make, met in the medium bot's seeded self-play."""
    rng = random.Random(seed)
    sampler = Bot("medium")
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < count:
        p = Position.initial()
        while not p.is_game_over and len(out) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if len(p.legal_plays(dice)) > 1:
                out.append((p, dice))
            play = sampler.choose_play(p, dice)
            p = play.position if play is not None else p.swapped()
    return out


def make_bot(spec: str) -> Bot:
    """The hard bot with the search ``spec`` describes."""
    if spec == "hard":
        return Bot("hard")
    parts = spec.split(":")
    depth = int(parts[0])
    if len(parts) == 1:
        return Bot("hard", depth=depth)
    keep = tuple(int(v) for v in parts[1].split(","))
    margin = tuple(float(v) for v in parts[2].split(","))
    saved = levels.SETTINGS["hard"]
    levels.SETTINGS["hard"] = levels.LevelSettings(depth, 0.0, keep, margin)
    try:
        return Bot("hard")
    finally:
        levels.SETTINGS["hard"] = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("searches", nargs="+")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    cases = samples(args.positions, args.seed)
    for spec in args.searches:
        bot = make_bot(spec)
        bot.choose_play(*cases[0])  # compile or load the cache outside the timing
        load0 = os.getloadavg()[0]
        wall, cpu = zip(*(_timed(bot, pos, dice) for pos, dice in cases))
        deciles = statistics.quantiles(wall, n=10)
        print(f"{args.label}{spec:24s} median {statistics.median(wall):7.1f} ms   "
              f"90% {deciles[-1]:7.1f} ms   worst {max(wall):7.1f} ms   (CPU time: median "
              f"{statistics.median(cpu):6.1f} ms, worst {max(cpu):7.1f} ms)   "
              f"load {load0:.1f} -> {os.getloadavg()[0]:.1f}", flush=True)


def _timed(bot: Bot, pos: Position, dice: tuple[int, int]) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of one choice (the CPU time is what load does not add)."""
    wall, cpu = time.perf_counter(), time.process_time()
    bot.choose_play(pos, dice)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


if __name__ == "__main__":
    main()
