"""What a wider move filter would give Greu, judged one ply deeper than Greu looks.

Usage (from the repository root):

    PYTHONPATH=src python3 research/search/filter_gain.py --positions 400 2:8,8:0.16,0.16

Takes positions with a choice from seeded Mediu self-play (``search_timing.samples``), lets
the shipped Greu and Greu with the given search (``DEPTH:KEEP,...:MARGIN,...``, as in
``search_timing.py``) each choose, and where they differ judges both plays at 2 and at 3
plies.  Prints how often they differ, the mean equity the other search gains per choice
(with its standard error) by each judge, and each search's time per choice.  Gains judged at
the searching depth itself are biased towards the search that looked wider; the 3-ply judge
is one ply deeper than either and so the fairer of the two.

    PYTHONPATH=src python3 research/search/filter_gain.py --positions 400 three

``three`` is the shipped Greu that then looks three plies ahead at the plays still within
0.04 of its best at 2 plies (``search`` stops at 2 plies, so this is done here, in Python):
its gain can only be judged at 3 plies, which favours it, so it is an upper bound.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from search_timing import make_bot, samples

from table.bot.bot import Bot
from table.rules.position import Position


def three_ply(judge: Bot, chooser: Bot, position: Position) -> float:
    """Equity for the player on roll at ``position``, three plies ahead (as ``search.evaluate``
    would: each roll's best play by 0-ply, judged at 2 plies)."""
    total = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            play = chooser.choose_play(position, (d1, d2))
            after = play.position if play is not None else position.swapped()
            total += (1 if d1 == d2 else 2) * -judge.evaluate(after, 2).equity
    return total / 36


def three_ply_choice(judge: Bot, chooser: Bot, position: Position,
                     dice: tuple[int, int]) -> tuple[object, float, float]:
    """Greu's filters up to 2 plies, then 3 plies on the plays within 0.04 of the best at 2.

    Returns the play chosen, and the 3-ply equities of it and of the 2-ply choice."""
    plays = position.legal_plays(dice)
    eq0 = [-judge.evaluate(p.position, 0).equity for p in plays]
    best0 = max(eq0)
    cand = sorted((i for i in range(len(plays)) if eq0[i] >= best0 - 0.16), key=lambda i: -eq0[i])[:8]
    eq1 = {i: -judge.evaluate(plays[i].position, 1).equity for i in cand}
    best1 = max(eq1.values())
    cand = sorted((i for i in cand if eq1[i] >= best1 - 0.04), key=lambda i: -eq1[i])[:2]
    eq2 = {i: -judge.evaluate(plays[i].position, 2).equity for i in cand}
    two = max(cand, key=lambda i: eq2[i])
    cand = [i for i in cand if eq2[i] >= eq2[two] - 0.04]
    if len(cand) == 1:
        return plays[two], 0.0, 0.0
    eq3 = {i: -three_ply(judge, chooser, plays[i].position) for i in cand}
    three = max(cand, key=lambda i: eq3[i])
    return plays[three], eq3[three], eq3[two]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("search")
    args = ap.parse_args()
    if args.search == "three":
        return main_three(args.positions, args.seed)
    shipped, other = Bot("hard"), make_bot(args.search)
    judge, chooser = Bot("hard"), Bot("medium")
    times: dict[str, list[float]] = {"hard": [], args.search: []}
    gains: dict[int, list[float]] = {2: [], 3: []}
    differ = 0
    positions = samples(args.positions, args.seed)
    for position, dice in positions:
        t = time.perf_counter()
        a = shipped.choose_play(position, dice)
        times["hard"].append(time.perf_counter() - t)
        t = time.perf_counter()
        b = other.choose_play(position, dice)
        times[args.search].append(time.perf_counter() - t)
        assert a is not None and b is not None
        if a.position == b.position:
            for g in gains.values():
                g.append(0.0)
            continue
        differ += 1
        gains[2].append(judge.evaluate(a.position, 2).equity - judge.evaluate(b.position, 2).equity)
        gains[3].append(three_ply(judge, chooser, a.position) - three_ply(judge, chooser, b.position))
    n = len(positions)
    print(f"{args.search} against hard on {n} positions (seed {args.seed}): "
          f"differ on {differ} ({100 * differ / n:.1f}%)")
    for depth, g in gains.items():
        se = statistics.stdev(g) / math.sqrt(n)
        print(f"  gain per choice judged at {depth}-ply: {statistics.mean(g):+.5f} +/- {se:.5f}")
    for name, ts in times.items():
        ts.sort()
        print(f"  {name:>20}: median {1000 * statistics.median(ts):7.1f} ms, "
              f"90% {1000 * ts[int(0.9 * len(ts))]:7.1f} ms, worst {1000 * ts[-1]:7.1f} ms")


def main_three(count: int, seed: int) -> None:
    """The ``three`` search against the shipped Greu."""
    judge, chooser = Bot("hard"), Bot("medium")
    gains: list[float] = []
    times: list[float] = []
    differ = 0
    for position, dice in samples(count, seed):
        t = time.perf_counter()
        _, e3, e2 = three_ply_choice(judge, chooser, position, dice)
        times.append(time.perf_counter() - t)
        differ += e3 != e2
        gains.append(e3 - e2)
    se = statistics.stdev(gains) / math.sqrt(count)
    times.sort()
    print(f"three against hard on {count} positions (seed {seed}): differ on {differ} "
          f"({100 * differ / count:.1f}%)\n  gain per choice judged at 3-ply: "
          f"{statistics.mean(gains):+.5f} +/- {se:.5f}\n  three (in Python): median "
          f"{1000 * statistics.median(times):7.1f} ms, 90% {1000 * times[int(0.9 * count)]:7.1f} ms, "
          f"worst {1000 * times[-1]:7.1f} ms")


if __name__ == "__main__":
    main()
