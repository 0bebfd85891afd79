"""``table bench cube``: the bot's cube decisions against Table's own cubeful rollouts
(``table.tools.cubebench``), with the race rules and the best single efficiency beside them."""

from __future__ import annotations

import argparse
import time

import numpy as np

from table.bot import cube
from table.bot.bot import SETTINGS
from table.bot.net import Weights, WeightsError, bundled
from table.rules.position import Position
from table.tools import cubebench, racerules
from table.tools.bench import BenchError


def run(args: argparse.Namespace) -> int:
    """Roll out what is missing, judge the bot's decisions, print the figures."""
    trials = 1296 if args.trials is None else args.trials
    if args.positions < 1 or trials < 2 or args.jobs < 1:
        raise BenchError("--positions and --jobs must be at least 1, --trials at least 2")
    judged = None
    if args.weights is not None:
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
