"""The training driver: chunks of compiled self-play, checkpoints, strength checks, a log.

Training is reproducible: chunk ``k`` of a run seeded ``s`` always uses the
dice seed ``s * 1_000_003 + k``, so a run resumed from a checkpoint continues
exactly as the uninterrupted run would have (for the same chunk size).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

import numpy as np

from table.bot import bearoff, search
from table.bot.net import Weights
from table.errors import TableError
from table.rules.greek import game_for
from table.rules.variant import find_variant
from table.tools.duel import NETWORK, PUBEVAL, RULES, START, Player, duel, start_board, summary
from table.tools.train.selfplay import play_and_learn


RACE_SEED_OFFSET = 1_000_000_000


@dataclass
class Schedule:
    """Learning rate and lambda as functions of the games already played."""

    # alpha is normalised (see selfplay._td_update): the share of the error
    # one update corrects.  0.3 learned fastest in 16,000-game trials; 1.0 diverged.
    alpha: float = 0.3
    alpha_late: float = 0.1
    late_after: int = 300_000
    alpha_final: float = 0.05
    final_after: int = 600_000
    lam: float = 0.7
    lam_late: float = 0.4
    lam_late_after: int = 300_000

    def at(self, games: int) -> tuple[float, float]:
        """(alpha, lambda) for the next chunk."""
        if games < self.late_after:
            # Linear decay from alpha to alpha_late over the early phase.
            f = games / self.late_after
            alpha = self.alpha + (self.alpha_late - self.alpha) * f
        elif games < self.final_after:
            alpha = self.alpha_late
        else:
            alpha = self.alpha_final
        lam = self.lam if games < self.lam_late_after else self.lam_late
        return alpha, lam


# Plakoto's and Fevga's networks learn at a third of the standard rate, flat until the late
# phase.  At the standard 0.3 their hidden units saturated (95% of Fevga's activations in play
# under 0.02 or over 0.98 after 189,500 games): the networks read almost every contact position
# as won for the side on roll (0.87 Plakoto, 0.94 Fevga, on positions of their own games that
# side won half of) and chose their plays by the noise left; the check against the rule-based
# player got worse over the run.  At 0.1 a fresh Fevga network is level with the rule-based
# player after 10,000 games and ahead after 20,000 (docs/strength.md, "Plakoto and Fevga").
GREEK_SCHEDULE = Schedule(alpha=0.1, alpha_late=0.1, late_after=300_000, alpha_final=0.05,
                          final_after=600_000)


def schedule_for(variant: str) -> Schedule:
    """The default schedule of ``variant``'s self-play: ``GREEK_SCHEDULE`` for Plakoto and Fevga.

    >>> schedule_for("fevga").at(0)[0], schedule_for("standard").at(0)[0]
    (0.1, 0.3)
    """
    return GREEK_SCHEDULE if game_for(find_variant(variant).rules) is not None else Schedule()


@dataclass
class TrainConfig:
    """Everything ``table train`` needs."""

    checkpoint: Path
    games: int
    seed: int = 1
    hidden: int = 128
    chunk: int = 500
    check_every: int = 25_000
    check_pairs: int = 500
    checkpoint_seconds: float = 300.0
    snapshot_every: int = 100_000
    bearoff: bool = True
    races: bool = False
    variant: str = "standard"  # games start from this variant's position, with its checkers
    init: Path | None = None  # a new run's initial weights (one hidden layer) instead of random
    log: Path | None = None
    export: Path | None = None
    schedule: Schedule | None = None


def _log(line: str, sinks: list[TextIO]) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    for s in sinks:
        s.write(f"{stamp} {line}\n")
        s.flush()


def strength_vs_pubeval(weights: Weights, pairs: int, seed: int = 12345,
                        start: np.ndarray = START, variant: str = "standard") -> tuple[float, float]:
    """0-ply ppg against pubeval over ``pairs`` duplicate pairs, with its 95% CI half-width,
    each game from ``start`` (a variant's start board).  Pubeval reads the standard board
    only: where checkers wait off the board or the game is Greek (``yardstick``), the rule-based
    player stands in."""
    res = duel(Player(NETWORK, weights), Player(yardstick(variant)), pairs, seed, start, variant)
    return summary(res)


def yardstick(variant: str) -> int:
    """The opponent of the periodic strength check: pubeval, or the rule-based player where
    checkers start off the board or the board is Plakoto's or Fevga's (pubeval cannot read them)."""
    v = find_variant(variant)
    return RULES if v.entry == "reserve" or game_for(v.rules) is not None else PUBEVAL


def train(cfg: TrainConfig, out: TextIO, stop: Callable[[], bool] = lambda: False) -> Weights:
    """Train until ``cfg.games`` games in total, resuming from ``cfg.checkpoint`` if it exists."""
    schedule = cfg.schedule or schedule_for(cfg.variant)
    if cfg.checkpoint.exists():
        weights = Weights.load(cfg.checkpoint)
        if weights.wh is not None:
            raise TableError(f"{cfg.checkpoint} has two hidden layers: self-play training "
                             "(TD) trains networks of one; fit it with table refine instead")
        resumed = True
    elif cfg.init is not None:
        # Fine-tuning: the run goes on from another network's weights (the standard one's for a
        # variant) and its games, so that the schedule starts where that network's left off.
        weights = Weights.load(cfg.init)
        if weights.wh is not None:
            raise TableError(f"--init {cfg.init} has two hidden layers: self-play training (TD) "
                             "trains networks of one (training/checkpoints/refine-3.npz is one)")
        weights.meta.update(seed=str(cfg.seed), chunk=str(cfg.chunk), init=str(cfg.init),
                            init_games=str(weights.games))
        weights.meta.pop("race_games", None)
        weights.meta["variant"] = cfg.variant
        if cfg.variant == "standard":
            del weights.meta["variant"]
        resumed = False
    else:
        weights = Weights.random(cfg.hidden, cfg.seed)
        weights.meta.update(seed=str(cfg.seed), hidden=str(cfg.hidden), chunk=str(cfg.chunk))
        if cfg.variant != "standard":
            weights.meta["variant"] = cfg.variant
        resumed = False
    variant = find_variant(cfg.variant)
    trained_for = weights.meta.get("variant", "standard")
    if trained_for != variant.name:
        raise TableError(f"{cfg.checkpoint} was trained for {trained_for}, not {variant.name}: "
                         "give another --checkpoint")
    greek = game_for(variant.rules) is not None
    if greek and cfg.races:
        raise TableError(f"--races starts games from random standard races: not {variant.name}'s")
    start = start_board(variant, greek=True)
    seed = int(weights.meta.get("seed", cfg.seed))
    chunk = int(weights.meta.get("chunk", cfg.chunk))
    sinks: list[TextIO] = [out]
    logf = None
    if cfg.log is not None:
        cfg.log.parent.mkdir(parents=True, exist_ok=True)
        logf = cfg.log.open("a", encoding="utf-8")
        sinks.append(logf)
    # A race pass counts its games apart: they are not games from the starting position.
    label = "race-games" if cfg.races else "games"

    def done() -> int:
        return int(weights.meta.get("race_games", "0")) if cfg.races else weights.games

    def add(n: int) -> None:
        if cfg.races:
            weights.meta["race_games"] = str(done() + n)
        else:
            weights.games += n

    try:
        _log(f"{'resume' if resumed else 'start'}: {label}={done()} target={cfg.games} "
             f"seed={seed} hidden={weights.hidden} chunk={chunk} (games from the start: "
             f"{weights.games})" + ("" if variant.name == "standard" else f" variant={variant.name}"),
             sinks)
        last_save = time.monotonic()
        window_t = time.monotonic()
        window_games = 0
        stats = np.zeros(9, dtype=np.int64)
        # The Greek games' boards are not the database's: their networks judge every race.
        db = bearoff.database(variant.checkers) if cfg.bearoff and not greek else bearoff.empty()
        while done() < cfg.games and not stop():
            k = done() // chunk
            alpha, lam = schedule.at(weights.games)
            play_and_learn(weights.w1, weights.b1, weights.w2, weights.b2, db, chunk,
                           seed * 1_000_003 + k + (RACE_SEED_OFFSET if cfg.races else 0),
                           alpha, lam, stats, cfg.races, start, variant.checkers,
                           search.rules_of(variant))
            add(chunk)
            window_games += chunk
            now = time.monotonic()
            if now - window_t >= 30.0 or done() >= cfg.games:
                rate = window_games / (now - window_t)
                g = max(int(stats[0]), 1)
                _log(f"{label}={done()} {rate:.1f} games/s alpha={alpha:.4f} lam={lam:.2f} "
                     f"moves/game={stats[1] / max(g, 1):.1f} gammons={stats[4] / g:.3f} "
                     f"backgammons={stats[5] / g:.3f} abandoned={int(stats[6])} "
                     f"bearoff-ended={int(stats[8])}", sinks)
                stats[:] = 0
                window_t = now
                window_games = 0
            if done() % cfg.check_every < chunk:
                t = time.monotonic()
                ppg, ci = strength_vs_pubeval(weights, cfg.check_pairs, start=start,
                                              variant=variant.name)
                against = "rules" if yardstick(variant.name) == RULES else "pubeval"
                _log(f"check {label}={done()} vs {against} 0-ply: {ppg:+.3f} ppg "
                     f"+/- {ci:.3f} ({2 * cfg.check_pairs} games, {time.monotonic() - t:.0f}s)",
                     sinks)
                window_t += time.monotonic() - t
            if not cfg.races and weights.games % cfg.snapshot_every < chunk:
                # A variant's snapshots are named after it: they share the folder with standard ones.
                tag = "" if variant.name == "standard" else f"{variant.name}-"
                snap = cfg.checkpoint.with_name(f"{tag}games-{weights.games:07d}.npz")
                cfg.checkpoint.parent.mkdir(parents=True, exist_ok=True)
                weights.save(snap)
                _log(f"snapshot games={weights.games} -> {snap}", sinks)
            if time.monotonic() - last_save >= cfg.checkpoint_seconds:
                _save(weights, cfg, sinks)
                last_save = time.monotonic()
        _save(weights, cfg, sinks)
    finally:
        if logf is not None:
            logf.close()
    return weights


def _save(weights: Weights, cfg: TrainConfig, sinks: list[TextIO]) -> None:
    cfg.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    weights.save(cfg.checkpoint)
    if cfg.export is not None:
        cfg.export.parent.mkdir(parents=True, exist_ok=True)
        weights.save(cfg.export)
    races = weights.meta.get("race_games")
    extra = f" race-games={races}" if races else ""
    _log(f"checkpoint games={weights.games}{extra} -> {cfg.checkpoint}", sinks)
