"""``table bench movegen``: the compiled legal-play generator, ``Position.legal_plays``
and, when its Python module is importable, GNU Backgammon's move listing, timed on the
same seeded corpus of positions from random games, all 21 rolls of each.

GNU Backgammon's bindings (``pip install gnubg``) list a roll's plays with
``gnubg.find_best_moves`` at 0-ply: its move generator plus one network pass per play.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from typing import Callable

import numpy as np

from table.rules import kernel
from table.rules.position import Position
from table.tools.bench import BenchError
from table.tools.corpus import random_positions


def _median_rate(pairs: int, repeat: int, run: Callable[[], object]) -> tuple[float, list[float]]:
    rates = [pairs / _seconds(run) for _ in range(repeat)]
    return statistics.median(rates), rates


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures."""
    if args.positions < 1 or args.repeat < 1:
        raise BenchError("--positions and --repeat must be at least 1")
    positions = random_positions(args.positions, args.seed)
    boards = np.array([p.board for p in positions], dtype=np.int8)
    kernel.count_all_rolls(boards[:1])  # compile (or load the cache) outside the timing
    pairs = len(positions) * len(kernel.ROLLS)
    rolls = [(d1, d2) for d1, d2 in kernel.ROLLS.tolist()]
    total = kernel.count_all_rolls(boards)
    print(f"corpus: {len(positions)} positions (seed {args.seed}) x 21 rolls = {pairs} pairs, "
          f"{total} legal plays; medians of {args.repeat} runs, one core")
    compiled, rates = _median_rate(pairs, args.repeat, lambda: kernel.count_all_rolls(boards))
    print(f"compiled generator: {compiled:,.0f} (position, roll) pairs per second "
          f"(runs: {_runs(rates)})")

    def api() -> None:
        # Fresh Position objects each run, as a program meets them.
        for p in [Position.from_id(p.id) for p in positions]:
            for roll in rolls:
                p.legal_plays(roll)

    gnubg = _gnubg_lister(positions, rolls)
    # Runs alternate between the two, so that both see the same machine load.
    ours, theirs = [], []
    for _ in range(args.repeat):
        ours.append(pairs / _seconds(api))
        if gnubg is not None:
            theirs.append(pairs / _seconds(gnubg))
    print(f"Position.legal_plays (Python objects): {statistics.median(ours):,.0f} pairs per "
          f"second (runs: {_runs(ours)})")
    if gnubg is not None:
        ratios = [a / b for a, b in zip(ours, theirs)]
        print(f"GNU Backgammon's gnubg.find_best_moves (0-ply, {gnubg()} plays listed): "
              f"{statistics.median(theirs):,.0f} pairs per second (runs: {_runs(theirs)})")
        print(f"Position.legal_plays is {statistics.median(ratios):.1f} times as fast as "
              f"GNU Backgammon's (median of the runs' ratios: "
              f"{', '.join(f'{r:.1f}' for r in ratios)})")
    return 0


def _seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _runs(rates: list[float]) -> str:
    return ", ".join(f"{r:,.0f}" for r in rates)


def _gnubg_lister(positions: list[Position],
                  rolls: list[tuple[int, int]]) -> Callable[[], int] | None:
    """A call that lists, through GNU Backgammon's Python module, every legal play of every
    (position, roll) pair and returns how many there were; None without the module.

    Its bindings (``pip install gnubg``) list a roll's plays, each evaluated, with
    ``find_best_moves``; at 0-ply that is its move generator plus one network
    pass per play.  (The Python inside the ``gnubg`` program has no such call.)
    """
    try:
        gnubg = importlib.import_module("gnubg")
    except ImportError:
        return None
    find = getattr(gnubg, "find_best_moves", None)
    if find is None:
        return None
    cube, context = gnubg.cube_info(), gnubg.eval_context(0, 0, 1, 0, 0.0)
    boards = [gnubg.position_from_id(p.id) for p in positions]
    find(boards[0], cube, context, rolls[0])  # load its networks outside the timing

    def run() -> int:
        return sum(len(find(board, cube, context, roll)) for board in boards for roll in rolls)

    return run
