"""``table bench strength``: duplicate-dice money games between two players, cubeless or
with the cube, each player named as on the command line (``pubeval``, ``rules``, ``random``, a
level or a ``.npz`` file, with optional depth and move filters)."""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from table.bot import search
from table.bot.bot import SETTINGS
from table.bot.net import Weights, bundled_path, shipped
from table.errors import TableError
from table.rules.greek import game_for
from table.rules.variant import find_variant
from table.tools.cubeplay import CubePlayer, cube_duel
from table.tools.duel import NETWORK, PUBEVAL, RANDOM, RULES, Player, duel, start_board, summary


def player(spec: str, variant: str = "standard") -> tuple[str, Player]:
    """A benchmark player: ``pubeval``, ``rules`` (the rule-based player of
    ``table.tools.rulebased``), ``random``, a level or a ``.npz`` file.

    A level plays with the networks shipped for ``variant`` (``Variant.weights``; the
    standard ones where none ship, on the folded board for Race, Dutch and Acey-Deucey),
    as the computer does in that variant's games.  Pubeval reads the standard board only.
    Plakoto and Fevga have no standard networks to fall back on: a level needs the game's
    own (``bot/weights/plakoto.npz``, ``fevga.npz``), else a weights file is named.

    A level or weights file may add ``:DEPTH`` and then ``:KEEP,...:MARGIN,...``,
    the move filters (see ``LevelSettings``): ``hard:2:8,2:0.16,0.04`` is Greu
    looking two plies ahead at the best two plays within 0.04 after one ply.
    """
    if spec == "pubeval":
        return spec, Player(PUBEVAL)
    if spec == "random":
        return spec, Player(RANDOM)
    if spec == "rules":
        return spec, Player(RULES)
    unknown = TableError(
        f"unknown player {spec!r}: use pubeval, rules, random, easy, medium, hard or a .npz weights "
        "file, each optionally with :DEPTH (0, 1 or 2) and then :KEEP,...:MARGIN,...")
    parts = spec.split(":")
    named: tuple[tuple[int, ...], tuple[float, ...]] | None = None
    if len(parts) >= 4:
        try:
            named = (tuple(int(v) for v in parts[-2].split(",")),
                     tuple(float(v) for v in parts[-1].split(",")))
            search.filters(*named)  # refuses an empty or negative filter
        except ValueError:
            raise unknown from None
        parts = parts[:-2]
    depth = parts[-1] if len(parts) > 1 else ""
    name = ":".join(parts[:-1]) if len(parts) > 1 else parts[0]
    if depth not in ("", "0", "1", "2"):
        raise unknown
    if name in SETTINGS:
        v = find_variant(variant)
        if game_for(v.rules) is not None and not bundled_path(v.weights).exists():
            raise TableError(f"no network ships for {v.title} yet: name a .npz weights file "
                             "(table train --variant " + v.name + ") instead of a level")
        s = SETTINGS[name]
        keep, margin = named or (s.keep, s.margin)
        return spec, Player(NETWORK, shipped(find_variant(variant).weights),
                            int(depth) if depth else s.depth, s.noise, keep, margin,
                            budget=s.budget)
    if name.endswith(".npz"):
        # A weights file plays at 0-ply unless a depth is given; deeper, with Greu's filter
        # unless one is given.
        hard = SETTINGS["hard"]
        keep, margin = named or (hard.keep, hard.margin)
        return spec, Player(NETWORK, Weights.load(name), int(depth or 0), 0.0, keep, margin,
                            budget=hard.budget)
    raise unknown


def run(args: argparse.Namespace) -> int:
    """Play the games and print the score."""
    if args.games < 2:
        raise TableError("--games must be at least 2 (one duplicate pair)")
    if args.jobs < 1:
        raise TableError("--jobs must be at least 1")
    if args.passive and not args.cube:
        raise TableError("--passive needs --cube")
    start_board(args.variant, greek=True)  # refuses a variant the players cannot play, before any game
    if args.cube and find_variant(args.variant).entry == "reserve":
        raise TableError(f"--cube plays the standard board only, not {args.variant}'s "
                         "(checkers waiting off the board)")
    if args.cube and not find_variant(args.variant).cube:
        raise TableError(f"{args.variant} is played without the cube: leave out --cube")
    if args.cube:
        return _cube_run(args)
    name_a, a = player(args.a, args.variant)
    name_b, b = player(args.b, args.variant)
    pairs = args.games // 2
    start = time.perf_counter()
    if args.jobs == 1:
        res = duel(a, b, pairs, args.seed, start_board(args.variant, greek=True), args.variant)
    else:
        # Job i plays its share with seed (seed, i): the same games for the same --jobs.
        shares = [pairs // args.jobs + (1 if i < pairs % args.jobs else 0) for i in range(args.jobs)]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = pool.map(_duel_share, [(args.a, args.b, args.variant, n, args.seed * 1000 + i)
                                           for i, n in enumerate(shares) if n])
            res = np.concatenate(list(parts))
    took = time.perf_counter() - start
    ppg, ci = summary(res)
    print(f"{name_a} vs {name_b}{_variant_tag(args.variant)}: {ppg:+.3f} ppg +/- {ci:.3f} (95% CI), "
          f"{2 * pairs} games in duplicate pairs, cubeless money, seed {args.seed}, {took:.0f}s")
    return 0


def _variant_tag(variant: str) -> str:
    return "" if variant == "standard" else f" ({variant})"


def _duel_share(job: tuple[str, str, str, int, int]) -> np.ndarray:
    spec_a, spec_b, variant, pairs, seed = job
    return duel(player(spec_a, variant)[1], player(spec_b, variant)[1], pairs, seed,
                start_board(variant, greek=True), variant)


def cube_player(spec: str, passive: bool, variant: str = "standard") -> CubePlayer:
    """The player ``spec`` with the cube: a network judges it at its own depth, pubeval, rules
    and random with Greu's; ``passive`` never doubles and always takes."""
    checkers = player(spec, variant)[1]
    if checkers.kind == NETWORK:
        return CubePlayer(checkers, None, checkers.depth, passive)
    return CubePlayer(checkers, None, SETTINGS["hard"].depth, passive)


def _cube_share(job: tuple[str, str, str | None, str, int, int]) -> tuple[np.ndarray, np.ndarray]:
    spec_a, spec_b, passive, variant, pairs, seed = job
    return cube_duel(cube_player(spec_a, passive == "a", variant),
                     cube_player(spec_b, passive == "b", variant), pairs, seed, start_board(variant))


def _cube_run(args: argparse.Namespace) -> int:
    for spec in (args.a, args.b):
        player(spec, args.variant)  # a bad name is reported before any game
    pairs = args.games // 2
    start = time.perf_counter()
    # Job i plays its share with seed (seed, i), as the cubeless benchmark does.
    shares = [pairs // args.jobs + (1 if i < pairs % args.jobs else 0) for i in range(args.jobs)]
    jobs = [(args.a, args.b, args.passive, args.variant, n,
             args.seed if args.jobs == 1 else args.seed * 1000 + i)
            for i, n in enumerate(shares) if n]
    if args.jobs == 1:
        parts = [_cube_share(jobs[0])]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(_cube_share, jobs))
    res = np.concatenate([r for r, _ in parts])
    stats = np.sum([s for _, s in parts], axis=0)
    took = time.perf_counter() - start
    ppg, ci = summary(res)
    games = 2 * pairs
    tag = {"a": f" ({args.a} passive)", "b": f" ({args.b} passive)", None: ""}[args.passive]
    print(f"{args.a} vs {args.b}{tag}{_variant_tag(args.variant)}: {ppg:+.3f} ppg +/- {ci:.3f} (95% CI), {games} games in "
          f"duplicate pairs, cubeful money (Jacoby off, cap 64), seed {args.seed}, {took:.0f}s")
    print(f"  per game: {stats[0] / games:.2f} doubles, {stats[1] / games:.2f} passes, "
          f"final cube {stats[2] / games:.2f} on average")
    return 0
