"""``table bench``: benchmarks that print their figures.

``table bench movegen`` times the compiled legal-play generator over a fixed,
seeded corpus of positions from random games, all 21 rolls of each, then the
public ``Position.legal_plays``; when GNU Backgammon is there (its ``gnubg``
Python module, or the ``gnubg`` program, whose embedded Python is driven with
``-p``), it times GNU Backgammon's move generation from Python on a sample of
the same positions too.  GNU Backgammon's Python interface has no bare move
generator: the closest call, timed here, is ``hint`` at 0-ply without pruning,
which lists every legal play (and evaluates each).
``table bench server`` measures the web app (see ``table.server.bench``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from table.errors import TableError
from table.rules import kernel
from table.rules.corpus import random_positions
from table.rules.position import Position


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bench`` and its benchmarks."""
    bench = sub.add_parser("bench", help="run a benchmark and print its figures")
    benches = bench.add_subparsers(dest="bench", metavar="BENCHMARK")
    benches.required = True
    movegen = benches.add_parser("movegen", help="legal-play generation speed")
    movegen.add_argument("--positions", type=int, default=2000, help="corpus size (default 2000)")
    movegen.add_argument("--seed", type=int, default=2026, help="corpus seed (default 2026)")
    movegen.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    movegen.add_argument("--gnubg-positions", type=int, default=40, metavar="N",
                         help="positions of the corpus timed in GNU Backgammon too (default 40; "
                              "0 = skip it)")
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


def _median_rate(pairs: int, repeat: int, run: object) -> tuple[float, list[float]]:
    assert callable(run)
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        rates.append(pairs / (time.perf_counter() - start))
    return statistics.median(rates), rates


def _movegen(args: argparse.Namespace) -> int:
    if args.positions < 1 or args.repeat < 1 or args.gnubg_positions < 0:
        raise BenchError("--positions and --repeat must be at least 1, --gnubg-positions at least 0")
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
          f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})")

    def api(sample: list[Position]) -> None:
        for p in sample:
            for roll in rolls:
                p.legal_plays(roll)

    ours, rates = _median_rate(pairs, args.repeat, lambda: api(positions))
    print(f"Position.legal_plays (Python objects): {ours:,.0f} pairs per second "
          f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})")
    sample = positions[: args.gnubg_positions]
    if not sample:
        return 0
    theirs = _gnubg_movegen([p.id for p in sample], args.repeat)
    if theirs is None:
        print("GNU Backgammon: not found (neither its gnubg Python module nor the gnubg program)")
        return 0
    rate, runs, plays = theirs
    sample_pairs = len(sample) * len(rolls)
    same, _ = _median_rate(sample_pairs, args.repeat, lambda: api(sample))
    ours_plays = sum(len(p.legal_plays(roll)) for p in sample for roll in rolls)
    print(f"GNU Backgammon from Python (hint at 0-ply, no pruning; first {len(sample)} positions, "
          f"{sample_pairs} pairs, {plays} plays listed, ours {ours_plays}): {rate:,.1f} pairs per "
          f"second (runs: {', '.join(f'{r:,.1f}' for r in runs)})")
    print(f"Position.legal_plays on the same pairs: {same:,.0f} pairs per second, "
          f"{same / rate:,.0f} times GNU Backgammon's")
    return 0


class BenchError(TableError):
    """A benchmark was asked for something it cannot do."""


# Runs inside GNU Backgammon's embedded Python: Position IDs in, timings out.
_GNUBG_SCRIPT = """
import json, os, time
import gnubg
ids = open(os.environ["TABLE_BENCH_IDS"]).read().split()
repeat = int(os.environ["TABLE_BENCH_REPEAT"])
rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
for command in ("set evaluation chequerplay evaluation plies 0",
                "set evaluation chequerplay evaluation prune off", "new game", "set turn 1"):
    gnubg.command(command)
saved = os.dup(1)  # every command prints a line: keep them out of the timing's way
quiet = os.open(os.devnull, os.O_WRONLY)
os.dup2(quiet, 1)
rates, plays = [], 0
try:
    for _ in range(repeat):
        plays = 0
        start = time.perf_counter()
        for pid in ids:
            gnubg.command("set board " + pid)
            for a, b in rolls:
                gnubg.command("set dice %d %d" % (a, b))
                plays += len(gnubg.hint(1000)["hint"])
        rates.append(len(ids) * len(rolls) / (time.perf_counter() - start))
finally:
    os.dup2(saved, 1)
with open(os.environ["TABLE_BENCH_OUT"], "w") as out:
    json.dump({"rates": rates, "plays": plays}, out)
"""


def _gnubg_movegen(ids: list[str], repeat: int) -> tuple[float, list[float], int] | None:
    """GNU Backgammon's pairs per second (median, runs) and plays listed, or None without it."""
    # The gnubg module exists only inside GNU Backgammon's own Python.
    inside = importlib.util.find_spec("gnubg") is not None
    program = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg")
                                        else None)
    if not inside and program is None:
        return None
    with tempfile.TemporaryDirectory(prefix="table-bench-") as tmp:
        folder = Path(tmp)
        (folder / "ids").write_text("\n".join(ids))
        (folder / "bench.py").write_text(_GNUBG_SCRIPT)
        env = {"TABLE_BENCH_IDS": str(folder / "ids"), "TABLE_BENCH_OUT": str(folder / "out"),
               "TABLE_BENCH_REPEAT": str(repeat)}
        if inside:
            saved = {k: os.environ.get(k) for k in env}
            os.environ.update(env)
            try:
                exec(compile(_GNUBG_SCRIPT, "gnubg-bench", "exec"), {})
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
        else:
            assert program is not None
            done = subprocess.run([program, "-t", "-q", "-p", str(folder / "bench.py")],
                                  env={**os.environ, **env}, cwd=folder, capture_output=True,
                                  text=True, timeout=3600, check=False)
            if not (folder / "out").exists():
                raise BenchError("GNU Backgammon did not run the benchmark: "
                                 + (done.stderr.strip().splitlines() or ["no message"])[-1])
        result = json.loads((folder / "out").read_text())
    rates = [float(r) for r in result["rates"]]
    return statistics.median(rates), rates, int(result["plays"])
