"""``table bench``: benchmarks that print their figures.

This module only wires the options; each benchmark lives in ``table.tools.bench``
and is imported when its command runs, so that building the parser (every ``table``
command does) imports none of them.  ``table bench movegen`` times the legal-play
generator (``table.tools.bench.movegen``), ``table bench server`` the web app
(``table.tools.bench.server``), ``table bench online`` many online matches at once
(``table.tools.bench.online``), ``table bench cube`` the cube decisions
(``table.tools.bench.cube``); ``strength`` and ``latency`` are wired in ``table.cli.bot``.
"""

from __future__ import annotations

import argparse
from pathlib import Path


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
    server = benches.add_parser(
        "server", help="web app: size of its files, move-confirm and computer-reply latency"
    )
    server_arguments(server)
    server.set_defaults(func=_server)
    online = benches.add_parser("online", help="online tables: many matches at once between clients on WebSockets")
    online_arguments(online)
    online.set_defaults(func=_online)


def _movegen(args: argparse.Namespace) -> int:
    from table.tools.bench import movegen

    return movegen.run(args)


def _server(args: argparse.Namespace) -> int:
    from table.tools.bench import server

    return server.run(args)


def _online(args: argparse.Namespace) -> int:
    from table.tools.bench import online

    return online.run(args)


def _cube(args: argparse.Namespace) -> int:
    from table.tools.bench import cube

    return cube.run(args)


def server_arguments(parser: argparse.ArgumentParser) -> None:
    """``table bench server``'s options."""
    parser.add_argument("--moves", type=int, default=200, help="moves per run (default 200)")
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("--levels", nargs="*", default=["easy", "medium", "hard"],
                        help="computer levels to time (default all; none to skip)")
    parser.add_argument("--bot-moves", type=int, default=40, help="computer replies timed per level")


def online_arguments(parser: argparse.ArgumentParser) -> None:
    """``table bench online``'s options."""
    parser.add_argument("--games", type=int, default=50, help="matches played at once (default 50)")
    parser.add_argument("--length", type=int, default=1, help="points per match (default 1: one game)")
    parser.add_argument("--think", type=float, default=1.5,
                        help="mean seconds a client thinks before each decision (default 1.5; 0: no pause)")
    parser.add_argument("--seconds", type=float, default=300.0, help="stop after this long (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the think times (default 1)")
    parser.add_argument("--clients", type=int, default=2,
                        help="client processes the matches are shared among (default 2)")
    parser.add_argument("--evict", type=float, default=5.0,
                        help="the server forgets a room this long after it is left (default 5; "
                             "a real server: 60 once finished, 120 if not); memory is read again once it has")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes sharing the games (default 1); with --redis and --db")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="run the server as table serve --redis does, over this Redis and --db")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="the PostgreSQL database (postgresql://...) for --redis; a fresh schema is used")
    parser.add_argument("--compare", action="store_true",
                        help="with --redis and --db: one process on SQLite, one on PostgreSQL + Redis, then "
                             "--workers (at least 2) on PostgreSQL + Redis, one after another, same load")
    parser.add_argument("--rounds", type=int, default=1,
                        help="play the matches this many times over on the same server, one round after "
                             "another, to see whether memory stays flat (default 1)")



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
