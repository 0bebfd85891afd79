"""``table bench``: benchmarks that print their figures.

``table bench movegen`` times the compiled legal-play generator over a fixed,
seeded corpus of positions from random games, all 21 rolls of each, then the
public ``Position.legal_plays``; when GNU Backgammon's Python module is
importable (``pip install gnubg``, its bindings), it times GNU Backgammon's own
move listing, ``gnubg.find_best_moves`` at 0-ply, on the same pairs too.
``table bench server`` measures the web app (see ``table.server.bench``),
``table bench online`` many online matches at once (``table.server.bench_online``).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from pathlib import Path
from typing import Callable

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
    movegen.set_defaults(func=_movegen)
    # The bot's benchmarks (strength, latency) live with the bot's commands.
    from table.cli.bot import register_bench

    register_bench(benches)
    register_cube(benches)
    from table.server import bench as server_bench

    server = benches.add_parser(
        "server", help="web app: size of its files, move-confirm and computer-reply latency"
    )
    server_bench.add_arguments(server)
    server.set_defaults(func=server_bench.run)
    from table.server import bench_online

    online = benches.add_parser("online", help="online tables: many matches at once between clients on WebSockets")
    bench_online.add_arguments(online)
    online.set_defaults(func=bench_online.run)


def _median_rate(pairs: int, repeat: int, run: Callable[[], object]) -> tuple[float, list[float]]:
    rates = [pairs / _seconds(run) for _ in range(repeat)]
    return statistics.median(rates), rates


def _movegen(args: argparse.Namespace) -> int:
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


class BenchError(TableError):
    """A benchmark was asked for something it cannot do."""


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


def register_cube(benches: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bench cube``: the bot's cube decisions against Table's own cubeful rollouts."""
    c = benches.add_parser(
        "cube", help="cube decisions against cubeful rollouts: agreement and equity lost")
    c.add_argument("--positions", type=int, default=200,
                   help="positions from Mediu's self-play in the doubling window (default 200)")
    c.add_argument("--trials", type=int, default=None,
                   help="rollout games per position, for both alternatives (default 1296); "
                        "more than an existing --data file has adds rounds to it")
    c.add_argument("--seed", type=int, default=2026)
    c.add_argument("--jobs", type=int, default=2, help="processes for the rollouts (default 2)")
    c.add_argument("--depth", type=int, default=None, choices=(0, 1, 2),
                   help="plies of the judged bot's evaluation (default Greu's, 2)")
    c.add_argument("--data", type=Path, default=None,
                   help="rollouts kept here: reused and completed if the file exists")
    c.add_argument("--races", action="store_true",
                   help="only pure races (40 pips or more each); also judges the race rules")
    c.add_argument("--judge-only", action="store_true",
                   help="with --data: judge the positions rolled out so far, roll out nothing")
    c.add_argument("--weights", type=Path, default=None, metavar="NPZ",
                   help="judge this network's cube decisions (default: the shipped one; new "
                        "rollouts are still the shipped network's)")
    c.set_defaults(func=_cube)


def _cube(args: argparse.Namespace) -> int:
    from table.bot import cube, cubebench

    trials = 1296 if args.trials is None else args.trials
    if args.positions < 1 or trials < 2 or args.jobs < 1:
        raise BenchError("--positions and --jobs must be at least 1, --trials at least 2")
    judged = None
    if args.weights is not None:
        from table.bot.net import Weights, WeightsError

        try:
            judged = Weights.load(args.weights)
        except WeightsError as exc:
            raise BenchError(str(exc)) from None
    start = time.perf_counter()
    if args.data is not None and args.data.exists():
        try:
            ref = cubebench.Reference.load(args.data)
        except (OSError, ValueError, KeyError) as exc:
            raise BenchError(f"cannot read the rollout file {str(args.data)!r}: {exc}") from None
        print(f"reference from {args.data}: {len(ref.nd)} positions, {ref.trials} trials, "
              f"seed {ref.seed} (the file's positions and seed win over --positions, --seed; "
              f"--trials above the file's adds rounds)")
        if args.trials is not None and args.trials > ref.trials and not args.judge_only:
            from table.bot.net import bundled

            try:
                ref.extend_to(args.trials, cubebench.network_digest(bundled()))
            except cubebench.ReferenceError as exc:
                raise BenchError(str(exc)) from None
    else:
        positions = cubebench.sample_positions(args.positions, args.seed, races=args.races)
        ref = cubebench.Reference.empty(positions, trials, args.seed)

    def progress(done: int, total: int) -> None:
        print(f"  rolled out {done}/{total} ({time.perf_counter() - start:.0f}s)", flush=True)

    if args.judge_only:
        if args.data is None or not args.data.exists():
            raise BenchError("--judge-only needs --data naming an existing rollout file")
    else:
        try:
            cubebench.roll_out(ref, args.jobs, args.data, progress)
        except cubebench.ReferenceError as exc:
            raise BenchError(str(exc)) from None
    ref = ref.subset(ref.done)
    lo, hi = cubebench.WINDOW
    kind = "race positions" if args.races else "positions"
    lo_n, hi_n = (int(ref.counts.min()), int(ref.counts.max())) if ref.counts.size else (0, 0)
    games = f"{lo_n}" if lo_n == hi_n else f"{lo_n}-{hi_n}"
    print(f"{len(ref.nd)} {kind} from Mediu's self-play (seed {ref.seed}), player on roll "
          f"{lo:.0%}-{hi:.0%} to win (0-ply), cube centred; cubeful rollouts of {games} "
          f"games each (Mediu's checker play and Table's cube model at 0-ply, same dice for "
          f"no double and double-take, first two rolls stratified)")
    print(f"rollout standard errors (mean): no double {np.mean(ref.nd_se):.3f}, double-take "
          f"{np.mean(ref.dt_se):.3f}, their difference {np.mean(ref.diff_se):.3f}; "
          f"95% intervals about +-{1.96 * np.mean(ref.nd_se):.3f}, +-{1.96 * np.mean(ref.dt_se):.3f}, "
          f"+-{1.96 * np.mean(ref.diff_se):.3f}")
    ceiling, floor = cubebench.noise_ceiling(ref)
    print(f"a judge that knew the true equities would agree with this reference on about "
          f"{ceiling:.1%} of the decisions and lose {floor:.4f} a decision (its noise)")
    if args.depth is None:
        from table.bot.bot import SETTINGS

        args.depth = SETTINGS["hard"].depth
    p = cubebench.chances(ref.boards, args.depth, judged)
    race = np.array([Position(b.tolist()).is_race() for b in ref.boards], dtype=bool)
    d, t = cubebench.decisions(p, ref.boards)
    name = {0: "Mediu (0-ply)", 1: "1-ply", 2: "2-ply"}[args.depth]
    if args.weights is not None:
        name = f"{args.weights.name} {name}"
    for label, mask in (("all", np.ones(len(race), dtype=bool)), ("contact", ~race),
                        ("race", race)):
        if not mask.any():
            continue
        v = cubebench.verdict(ref.nd[mask], ref.dt[mask], d[mask], t[mask])
        print(f"{name} {label:7s}: {v.agreement:6.1%} of {v.decisions} decisions agree, "
              f"{v.mean_loss:.4f} points lost per decision (missed doubles {v.doubles_missed}, "
              f"wrong doubles {v.doubles_wrong}, passed takes {v.takes_passed}, "
              f"taken passes {v.passes_taken})")
    if race.any():
        from table.bot import racerules

        for rule in (racerules.keith, racerules.eight_nine_twelve):
            rd, rt = map(np.array, zip(*(rule(Position(b.tolist())) for b in ref.boards[race])))
            v = cubebench.verdict(ref.nd[race], ref.dt[race], rd, rt)
            print(f"{rule.__name__} rule, race: {v.agreement:6.1%} of {v.decisions} decisions "
                  f"agree, {v.mean_loss:.4f} points lost per decision")
    for label, mask, ours in (("contact", ~race, cube.CONTACT_EFFICIENCY),
                              ("race", race, cube.RACE_EFFICIENCY)):
        if mask.any():
            x, v = cubebench.best_efficiency(ref, p, mask)
            print(f"  best single efficiency on the {label} positions: {x:.2f} (the model's: "
                  f"{ours:.2f}): {v.agreement:.1%} agree, {v.mean_loss:.4f} lost per decision")
    print(f"({time.perf_counter() - start:.0f}s)")
    return 0
