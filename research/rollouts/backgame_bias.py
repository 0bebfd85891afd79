"""Does the network overrate the side far ahead in the race while the other still holds points behind?

Usage (from the repository root, PYTHONPATH=src or the package installed):

    python3 research/rollouts/backgame_bias.py 100 150 [WEIGHTS [SEED]]

samples positions from seeded Mediu self-play, one per game, in two kinds: *held* (contact, the
player on roll leads the race by 40 pips or more and the opponent holds two or more points in the
player's home board: back games and holding games behind a big race lead) and *other contact*
positions; for each it prints the mean and spread of (0-ply cubeless equity − cubeless rollout),
the rollout being Mediu's own play to the end (the same play the network's equity stands for).
WEIGHTS (default: the shipped network) plays and judges; the positions come from the shipped
Mediu's self-play with SEED (default 11; the other-contact sample SEED + 1) whatever WEIGHTS.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from table import Position
from table.bot import Bot, search
from table.tools.cubebench import selfplay_sample
from table.tools.cubeplay import network
from table.bot.net import Weights, bundled

_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(_ROOT / "training"))  # held
sys.path.insert(0, str(_ROOT / "research" / "cube"))  # cube_cubeless_check
from cube_cubeless_check import cubeless  # noqa: E402
from held import leader_held  # noqa: E402


def held(p: Position) -> bool:
    """Contact, the mover 40+ pips ahead, the opponent holding 2+ points in the mover's home."""
    return bool(leader_held(np.array([p.board], dtype=np.int8))[0])


def main(n: int, games: int, weights: str | None = None, first_seed: int = 11) -> None:
    w = bundled() if weights is None else Weights.load(weights)
    net, work = network(w, True), search.make_work(w.hidden)
    rng = np.random.default_rng(3)
    bot = Bot("medium", weights=w)
    for label, want, seed in (("held", True, first_seed), ("other contact", False, first_seed + 1)):
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
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None,
         int(sys.argv[4]) if len(sys.argv) > 4 else 11)
