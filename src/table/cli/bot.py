"""``table train``, ``table refine``, ``table bench strength`` and ``table bench latency``: the bot's
commands, wired here; what they run is in ``table.tools`` (imported when a command runs)."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from table.errors import TableError

ROLLOUT_TRIALS = 36
ROLLOUT_DEPTH = 7
ROLLOUT_LUCK = 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``train``."""
    train = sub.add_parser("train", help="train the bot's networks by self-play (TD(lambda))")
    train.add_argument("--checkpoint", type=Path, default=Path("training/checkpoints/latest.npz"),
                       help="checkpoint to resume from and write (default %(default)s)")
    train.add_argument("--games", type=int, default=1_000_000,
                       help="train until this many games in total (default %(default)s)")
    train.add_argument("--seed", type=int, default=1, help="seed of a new run (default 1)")
    train.add_argument("--hidden", type=int, default=128, help="hidden units of a new run")
    train.add_argument("--chunk", type=int, default=500, help="games per compiled call")
    train.add_argument("--check-every", type=int, default=25_000,
                       help="games between strength checks against pubeval")
    train.add_argument("--check-pairs", type=int, default=500,
                       help="duplicate pairs of games per strength check")
    train.add_argument("--checkpoint-minutes", type=float, default=5.0)
    train.add_argument("--log", type=Path, default=Path("training/log.txt"),
                       help="log file, appended to (default %(default)s)")
    train.add_argument("--export", type=Path, default=None,
                       help="also write each checkpoint here (e.g. the bundled weights)")
    train.add_argument("--races", action="store_true",
                       help="a race pass: start every game from a random race position")
    train.add_argument("--no-bearoff", action="store_true",
                       help="play every game out instead of stopping at the bear-off database")
    train.add_argument("--variant", type=_variant_name, default="standard",
                       help="self-play from this variant's start, with its checkers "
                       "(default standard; a checkpoint remembers it)")
    train.add_argument("--init", type=Path, default=None,
                       help="a new run starts from these weights (one hidden layer) instead of "
                       "random ones, and goes on from their games: e.g. "
                       "training/checkpoints/refine-3.npz to fine-tune a variant's networks")
    train.set_defaults(func=_train)
    refine = sub.add_parser(
        "refine", help="a supervised pass: the network learns its own 1-ply judgements "
        "(or its truncated rollouts)")
    refine.add_argument("--weights", type=Path, default=Path("training/checkpoints/latest.npz"),
                        help="weights to start from (default %(default)s)")
    refine.add_argument("--out", type=Path, required=True, help="where to write the new weights")
    refine.add_argument("--positions", type=int, default=1_000_000,
                        help="positions to collect from self-play and label (default %(default)s)")
    refine.add_argument("--data", type=Path, default=None,
                        help="labelled positions: reused if the file exists, else written there")
    refine.add_argument("--also", type=Path, action="append", default=[], metavar="DATA",
                        help="more labelled positions (a --data file of an earlier pass, of any "
                        "kind, or the labelled part of a .partial.npz) to fit to as well; "
                        "repeat for several")
    refine.add_argument("--seed", type=int, default=1)
    refine.add_argument("--jobs", type=int, default=2, help="processes for labelling")
    refine.add_argument("--epochs", type=int, default=4)
    refine.add_argument("--hidden", type=int, default=None,
                        help="widen the networks to this many hidden units before fitting")
    refine.add_argument("--hidden2", type=int, default=None,
                        help="add a second hidden layer of this many units (new, random: fit "
                             "long enough) after the first, or widen the second to this many")
    refine.add_argument("--lr", type=float, default=3e-4, help="Adam's first learning rate")
    refine.add_argument("--lr-final", type=float, default=None,
                        help="Adam's last learning rate (default: a tenth of --lr)")
    refine.add_argument("--label", choices=("1-ply", "2-ply", "rollout"), default="1-ply",
                        help="how positions are labelled: the network's 1-ply probabilities "
                        "(default), its 2-ply ones (about 20 times slower), or truncated "
                        "rollouts of its 0-ply play")
    refine.add_argument("--trials", type=int, default=None,
                        help=f"with --label rollout: games per position (default {ROLLOUT_TRIALS};"
                        " a multiple of 36 sees every roll equally)")
    refine.add_argument("--depth", type=int, default=None,
                        help=f"with --label rollout: half-moves per game before the network "
                        f"judges (default {ROLLOUT_DEPTH})")
    refine.add_argument("--luck", type=int, default=None,
                        help="with --label rollout: subtract the luck of this many first rolls "
                        f"of each game (default {ROLLOUT_LUCK}; each costs a 1-ply look-ahead)")
    refine.add_argument("--log", type=Path, default=Path("training/log.txt"),
                        help="log file, appended to (default %(default)s)")
    refine.add_argument("--variant", type=_variant_name, default="standard",
                        help="self-play starts from this variant's position (default standard)")
    refine.set_defaults(func=_refine)


def _variant_name(text: str) -> str:
    """``--variant``: a variant's name as Table spells it (any case, or as a record names it)."""
    from table.rules.variant import find_variant

    try:
        return find_variant(text).name
    except TableError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def register_bench(benches: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bench strength`` and ``bench latency`` to the ``bench`` subcommands."""
    strength = benches.add_parser(
        "strength", help="duplicate-dice cubeless money games between two players")
    strength.add_argument("a", help="player: pubeval, rules (a simple rule-based player: race "
                          "when ahead, make points, avoid blots), random, easy, medium, hard, or "
                          "a .npz file; LEVEL:DEPTH overrides a level's search depth (0, 1 or 2 "
                          "plies), LEVEL:DEPTH:KEEP,...:MARGIN,... its move filters too")
    strength.add_argument("b", nargs="?", default="pubeval", help="opponent (default pubeval)")
    strength.add_argument("--games", type=int, default=10_000,
                          help="games in all, played as duplicate pairs (default 10000)")
    strength.add_argument("--seed", type=int, default=2026)
    strength.add_argument("--jobs", type=int, default=1,
                          help="processes to share the games (default 1)")
    strength.add_argument("--cube", action="store_true",
                          help="money games with the doubling cube (Jacoby off, cube cap 64): "
                          "networks judge the cube at their own depth, pubeval, rules and "
                          "random with Greu's cube")
    strength.add_argument("--passive", choices=("a", "b"), default=None,
                          help="with --cube: this player never doubles and always takes")
    strength.add_argument("--variant", type=_variant_name, default="standard",
                          help="every game starts from this variant's position (default standard)")
    strength.set_defaults(func=_strength)
    latency = benches.add_parser("latency", help="time per move of each level")
    latency.add_argument("--levels", default="easy,medium,hard")
    latency.add_argument("--positions", type=int, default=200,
                         help="positions from seeded self-play games (default 200)")
    latency.add_argument("--seed", type=int, default=2026)
    latency.set_defaults(func=_latency)


def _train(args: argparse.Namespace) -> int:
    from table.tools.train.trainer import TrainConfig, train

    stopping = {"now": False}

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stopping["now"] = True

    # Stop after the current chunk and write a checkpoint, rather than die mid-chunk.
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    cfg = TrainConfig(
        checkpoint=args.checkpoint, games=args.games, seed=args.seed, hidden=args.hidden,
        chunk=args.chunk, check_every=args.check_every, check_pairs=args.check_pairs,
        checkpoint_seconds=args.checkpoint_minutes * 60.0, log=args.log, export=args.export,
        bearoff=not args.no_bearoff, races=args.races, variant=args.variant, init=args.init,
    )
    try:
        train(cfg, sys.stdout, stop=lambda: stopping["now"])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def _refine(args: argparse.Namespace) -> int:
    from table.bot.net import Weights
    from table.tools.train.refine import Dataset, FitConfig, check_dataset, plies, run_pass
    from table.tools.duel import start_board
    from table.tools.train.rollout import labeller

    if args.positions < 1000:
        raise TableError("--positions must be at least 1000")
    rollout_options = (args.trials, args.depth, args.luck)
    if args.label == "rollout":
        trials, depth, luck = (ROLLOUT_TRIALS if args.trials is None else args.trials,
                               ROLLOUT_DEPTH if args.depth is None else args.depth,
                               ROLLOUT_LUCK if args.luck is None else args.luck)
        chosen = labeller(trials, depth, args.seed, luck)  # refuses bad settings now
    elif any(v is not None for v in rollout_options):
        raise TableError("--trials, --depth and --luck need --label rollout")
    else:
        chosen = plies(int(args.label[0]))
    if args.data is not None:
        check_dataset(args.data, chosen)
    for extra in args.also:
        if not extra.is_file():
            raise TableError(f"--also {extra}: no such file (give a --data file of an earlier pass)")
    if args.jobs < 1 or args.epochs < 1 or args.lr <= 0:
        raise TableError("--jobs and --epochs must be at least 1, --lr above 0")
    lr_final = args.lr / 10 if args.lr_final is None else args.lr_final
    if not 0 < lr_final <= args.lr:
        raise TableError("--lr-final must be above 0 and at most --lr")
    if args.out.is_dir():  # found now, not after a pass of many minutes
        raise TableError(f"--out {args.out} is a folder: name the .npz file to write")
    weights = Weights.load(args.weights)
    if args.hidden is not None:
        if args.hidden < weights.hidden:
            raise TableError(f"--hidden {args.hidden} is below the {weights.hidden} hidden units "
                             f"of {args.weights}")
    if weights.wh is not None and (args.hidden is not None or args.hidden2 is not None):
        weights = weights.widened(args.hidden or weights.hidden, args.seed, hidden2=args.hidden2)
    elif args.hidden is not None:
        weights = weights.widened(args.hidden, args.seed)
    if args.hidden2 is not None and weights.wh is None:
        weights = weights.deepened(args.hidden2, args.seed)
    args.log.parent.mkdir(parents=True, exist_ok=True)
    with args.log.open("a", encoding="utf-8") as logf:
        def log(line: str) -> None:
            stamped = f"{time.strftime('%Y-%m-%d %H:%M:%S')} refine {line}"
            print(stamped, flush=True)
            logf.write(stamped + "\n")
            logf.flush()

        log(f"start: {args.weights} -> {args.out}, positions={args.positions} seed={args.seed} "
            f"epochs={args.epochs} lr={args.lr} lr_final={lr_final} labels={chosen.kind}"
            + (f" hidden2={args.hidden2}" if args.hidden2 else "")
            + (f" variant={args.variant}" if args.variant != "standard" else ""))
        new = run_pass(weights, args.positions, args.seed, args.jobs,
                       FitConfig(epochs=args.epochs, lr=args.lr, lr_final=lr_final),
                       args.data, log, chosen, [Dataset.load(p).labelled() for p in args.also],
                       start_board(args.variant))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        new.save(args.out)
        log(f"wrote {args.out}")
    return 0


def _strength(args: argparse.Namespace) -> int:
    from table.tools.bench import strength

    return strength.run(args)


def _latency(args: argparse.Namespace) -> int:
    from table.tools.bench import latency

    return latency.run(args)
