"""``table bench``: benchmarks that print their figures.

``table bench movegen`` times the compiled legal-play generator over a fixed,
seeded corpus of positions from random games, all 21 rolls of each;
``table bench server`` measures the web app (see ``table.server.bench``).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from table.rules import kernel
from table.rules.corpus import random_positions


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bench`` and its benchmarks."""
    bench = sub.add_parser("bench", help="run a benchmark and print its figures")
    benches = bench.add_subparsers(dest="bench", metavar="BENCHMARK")
    benches.required = True
    movegen = benches.add_parser("movegen", help="legal-play generation speed")
    movegen.add_argument("--positions", type=int, default=2000, help="corpus size (default 2000)")
    movegen.add_argument("--seed", type=int, default=2026, help="corpus seed (default 2026)")
    movegen.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    movegen.set_defaults(func=_movegen)
    # The bot's benchmarks (strength, latency) live with the bot's commands.
    from table.cli.bot import register_bench

    register_bench(benches)
    from table.server import bench as server_bench

    server = benches.add_parser(
        "server", help="web app: size of its files, move-confirm and computer-reply latency"
    )
    server_bench.add_arguments(server)
    server.set_defaults(func=server_bench.run)


def _movegen(args: argparse.Namespace) -> int:
    positions = random_positions(args.positions, args.seed)
    boards = np.array([p.board for p in positions], dtype=np.int8)
    kernel.count_all_rolls(boards[:1])  # compile (or load the cache) outside the timing
    pairs = len(positions) * len(kernel.ROLLS)
    rates = []
    total = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        total = kernel.count_all_rolls(boards)
        rates.append(pairs / (time.perf_counter() - start))
    print(f"corpus: {len(positions)} positions (seed {args.seed}) x 21 rolls = {pairs} pairs, "
          f"{total} legal plays")
    print("runs (pairs/s): " + ", ".join(f"{r:,.0f}" for r in rates))
    print(f"compiled generator: {statistics.median(rates):,.0f} (position, roll) pairs per second "
          "(median, one core)")
    # The Python API builds a Play and a Position per legal play; report it too.
    sample = positions[: max(1, len(positions) // 10)]
    start = time.perf_counter()
    for p in sample:
        for d1, d2 in kernel.ROLLS.tolist():
            p.legal_plays((d1, d2))
    api_rate = len(sample) * 21 / (time.perf_counter() - start)
    print(f"Position.legal_plays (Python objects): {api_rate:,.0f} pairs per second")
    return 0
