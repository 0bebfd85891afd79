"""Does the network overrate the side far ahead in the race while the other still holds points behind?

Usage (from the repository root, PYTHONPATH=src or the package installed):

    python3 training/backgame_bias.py 100 150

samples positions from seeded Mediu self-play, one per game, in two kinds: *held* (contact, the
player on roll leads the race by 40 pips or more and the opponent holds two or more points in the
player's home board: back games and holding games behind a big race lead) and *other contact*
positions; for each it prints the mean and spread of (0-ply cubeless equity − cubeless rollout),
the rollout being Mediu's own play to the end (the same play the network's equity stands for).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from table import Position
from table.bot import Bot, search
from table.bot.cubebench import selfplay_sample
from table.bot.cubeplay import _net
from table.bot.net import bundled

sys.path.insert(0, "training")
from cube_cubeless_check import cubeless  # noqa: E402


def held(p: Position) -> bool:
    """Contact, the mover 40+ pips ahead, the opponent holding 2+ points in the mover's home."""
    mine, theirs = p.pip_counts()
    anchors = sum(1 for i in range(1, 7) if p.board[i] <= -2)
    return not p.is_race() and theirs - mine >= 40 and anchors >= 2


def main(n: int, games: int) -> None:
    w = bundled()
    net, work = _net(w, True), search.make_work(w.hidden)
    rng = np.random.default_rng(3)
    bot = Bot("medium")
    for label, want, seed in (("held", True, 11), ("other contact", False, 12)):
        start = time.perf_counter()
        errors = []
        for p in selfplay_sample(n, seed, lambda p: not p.is_race() and held(p) == want):
            m, _ = cubeless(net, work, np.array(p.board, dtype=np.int8), games, rng)
            errors.append(bot.evaluate(p, depth=0).equity - m)
        a = np.array(errors)
        print(f"{label:13s}: {n} positions, {games} games each: network - rollout mean {a.mean():+.3f} "
              f"± {1.96 * a.std(ddof=1) / np.sqrt(n):.3f}, mean |error| {np.abs(a).mean():.3f} "
              f"({time.perf_counter() - start:.0f}s)", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
