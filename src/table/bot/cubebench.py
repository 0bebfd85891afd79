"""Cube decisions judged against Table's own cubeful rollouts (``table bench cube``).

1. Positions: seeded self-play games of Mediu (the 0-ply network, for
   cost), cubeless; at each turn the player on roll's 0-ply chance of
   winning is looked at before the roll, and one turn per game whose chance
   lies in the doubling window (``WINDOW``) is kept, chosen at random.
2. Reference: each position is rolled out (``cubeplay.rollout``) for no
   double and for double-take, with the same dice; double-pass is +1.
   The rollout's own cube play is Table's money cube model at 0-ply.
3. Judged: the bot's decisions (Greu's by default) against the reference:
   double / no double and take / pass, agreement and the average equity
   lost per decision (0 when it agrees, else the gap between the two
   alternatives by the rollout).

The rollouts are kept in an ``.npz`` file, filled in as they finish, so a
long run can stop and resume and a changed cube model can be judged again
at once on the same reference.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from table.bot import cube
from table.bot.bot import Bot
from table.bot.cubeplay import rollout
from table.rules.position import Position

WINDOW = (0.60, 0.88)  # the player on roll's cubeless chance of winning, at 0-ply
CHUNK = 4  # positions per job handed to a worker process
RACE_PIPS = 40  # the least pips of either side in a sampled race: long races


def sample_positions(n: int, seed: int, window: tuple[float, float] = WINDOW,
                     races: bool = False) -> list[Position]:
    """``n`` positions before a roll, one per seeded Mediu self-play game, in the doubling window.

    ``races``: only pure races, each side with at least ``RACE_PIPS`` pips to go.

    >>> ps = sample_positions(2, seed=1)
    >>> len(ps), all(0.60 <= Bot("medium").evaluate(p).win <= 0.88 for p in ps)
    (2, True)
    """
    if n < 1:
        raise ValueError("ask for at least one position")
    rng = random.Random(seed)
    bot = Bot("medium", seed=seed)
    out: list[Position] = []
    while len(out) < n:
        p = Position.initial()
        seen: list[Position] = []
        while not p.is_game_over:
            if races and not (p.is_race() and min(p.pip_counts()) >= RACE_PIPS):
                pass
            elif window[0] <= bot.evaluate(p, depth=0).win <= window[1]:
                seen.append(p)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = bot.choose_play(p, dice)
            p = play.position if play is not None else p.swapped()
        if seen:
            out.append(rng.choice(seen))
    return out


@dataclass
class Reference:
    """Rollout results: per position the mean points of no double and double-take, and their errors."""

    boards: np.ndarray  # (n, 26) int8, the player on roll's view
    nd: np.ndarray  # mean points, no double (nan until rolled out)
    dt: np.ndarray  # mean points, double and take
    nd_se: np.ndarray  # standard errors of the means
    dt_se: np.ndarray
    diff_se: np.ndarray  # standard error of nd - dt (same dice)
    trials: int
    seed: int

    @classmethod
    def empty(cls, positions: list[Position], trials: int, seed: int) -> Reference:
        n = len(positions)
        nan = np.full(n, np.nan)
        return cls(np.array([p.board for p in positions], dtype=np.int8), nan.copy(), nan.copy(),
                   nan.copy(), nan.copy(), nan.copy(), trials, seed)

    @property
    def done(self) -> np.ndarray:
        """Which positions have been rolled out."""
        done: np.ndarray = ~np.isnan(self.nd)
        return done

    def subset(self, keep: np.ndarray) -> Reference:
        """The positions marked in ``keep`` only."""
        return Reference(self.boards[keep], self.nd[keep], self.dt[keep], self.nd_se[keep],
                         self.dt_se[keep], self.diff_se[keep], self.trials, self.seed)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, boards=self.boards, nd=self.nd, dt=self.dt, nd_se=self.nd_se,
                 dt_se=self.dt_se, diff_se=self.diff_se, trials=self.trials, seed=self.seed)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Reference:
        with np.load(path) as f:
            return cls(f["boards"], f["nd"], f["dt"], f["nd_se"], f["dt_se"], f["diff_se"],
                       int(f["trials"]), int(f["seed"]))


def _roll_chunk(job: tuple[list[int], np.ndarray, int, int]) -> list[tuple[int, np.ndarray]]:
    indices, boards, trials, seed = job
    out = []
    for i, board in zip(indices, boards):
        r = rollout(board, trials, seed * 100_003 + i)
        n = len(r)
        out.append((i, np.array([r[:, 0].mean(), r[:, 1].mean(), r[:, 0].std(ddof=1) / np.sqrt(n),
                                 r[:, 1].std(ddof=1) / np.sqrt(n),
                                 (r[:, 0] - r[:, 1]).std(ddof=1) / np.sqrt(n)])))
    return out


def roll_out(ref: Reference, jobs: int, path: Path | None = None,
             progress: Callable[[int, int], None] | None = None) -> Reference:
    """Roll out every position not yet done, over ``jobs`` processes, saving to ``path`` as they finish."""
    todo = [int(i) for i in np.flatnonzero(~ref.done)]
    chunks = [todo[k:k + CHUNK] for k in range(0, len(todo), CHUNK)]
    work = [(c, ref.boards[c], ref.trials, ref.seed) for c in chunks]

    def take(results: list[tuple[int, np.ndarray]]) -> None:
        for i, v in results:
            ref.nd[i], ref.dt[i], ref.nd_se[i], ref.dt_se[i], ref.diff_se[i] = v
        if path is not None:
            ref.save(path)
        if progress is not None:
            progress(int(ref.done.sum()), len(ref.nd))

    if jobs == 1:
        for w in work:
            take(_roll_chunk(w))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for res in pool.map(_roll_chunk, work):
                take(res)
    return ref


@dataclass(frozen=True)
class Verdict:
    """How decisions compare with the reference."""

    decisions: int
    agree: int
    loss: float  # summed equity lost
    doubles_missed: int  # rollout doubles, the bot does not
    doubles_wrong: int  # the bot doubles, the rollout does not
    takes_passed: int  # rollout takes, the bot passes
    passes_taken: int

    @property
    def agreement(self) -> float:
        return self.agree / self.decisions if self.decisions else 1.0

    @property
    def mean_loss(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0


def verdict(nd: np.ndarray, dt: np.ndarray, doubles: np.ndarray, takes: np.ndarray) -> Verdict:
    """Compare double and take decisions with rollout equities ``nd``, ``dt`` (points; pass = +1).

    Two decisions per position: the doubler's, and the taker's.

    >>> v = verdict(np.array([0.5, 0.9]), np.array([0.8, 1.3]), np.array([True, False]),
    ...             np.array([True, True]))
    >>> v.decisions, v.agree, round(v.mean_loss, 3), v.doubles_missed, v.passes_taken
    (4, 2, 0.1, 1, 1)
    """
    should_double = np.minimum(dt, 1.0) > nd
    should_take = dt <= 1.0
    dloss = np.where(doubles != should_double, np.abs(np.minimum(dt, 1.0) - nd), 0.0)
    tloss = np.where(takes != should_take, np.abs(dt - 1.0), 0.0)
    n = 2 * len(nd)
    agree = int(np.sum(doubles == should_double) + np.sum(takes == should_take))
    return Verdict(n, agree, float(dloss.sum() + tloss.sum()),
                   int(np.sum(should_double & ~doubles)), int(np.sum(doubles & ~should_double)),
                   int(np.sum(should_take & ~takes)), int(np.sum(takes & ~should_take)))


def noise_ceiling(ref: Reference, samples: int = 1000, seed: int = 0) -> tuple[float, float]:
    """(agreement, loss per decision) that a judge knowing the true equities would score, on average.

    The reference is itself a noisy estimate: scored against it, even right
    decisions disagree where a close decision falls the other way by chance.
    Taking the rollout's means as the truth, the reference is drawn again
    ``samples`` times with its own standard errors (the double-take's, and
    the no-double minus double-take difference's, which the shared dice make
    smaller), and the truth's decisions are scored against each draw.

    >>> ref = Reference(np.zeros((2, 26), np.int8), np.array([0.5, 0.9]), np.array([1.2, 0.2]),
    ...                 np.zeros(2), np.full(2, 1e-9), np.full(2, 1e-9), 36, 1)
    >>> noise_ceiling(ref, samples=10)  # far from every threshold: the noise changes nothing
    (1.0, 0.0)
    """
    rng = np.random.default_rng(seed)
    doubles = np.minimum(ref.dt, 1.0) > ref.nd
    takes = ref.dt <= 1.0
    agree = loss = 0.0
    for _ in range(samples):
        dt = ref.dt + rng.normal(0.0, ref.dt_se)
        nd = dt + (ref.nd - ref.dt) + rng.normal(0.0, ref.diff_se)
        v = verdict(nd, dt, doubles, takes)
        agree += v.agreement
        loss += v.mean_loss
    return agree / samples, loss / samples


def chances(boards: np.ndarray, depth: int) -> np.ndarray:
    """The bot's cubeless chances (n, 5) for each board at ``depth`` plies."""
    bot = Bot("hard", depth=depth)
    return np.array([bot.evaluate(Position(b.tolist())).as_tuple() for b in boards])


def decisions(p: np.ndarray, boards: np.ndarray,
              efficiency: Callable[[np.ndarray], float] = cube.board_efficiency
              ) -> tuple[np.ndarray, np.ndarray]:
    """Double and take decisions of the money cube model for chances ``p`` at ``boards``."""
    d, t = [], []
    for pi, b in zip(p, boards):
        c = cube.money_double(cube.Chances(*(float(v) for v in pi)), 1, "centre", efficiency(b))
        d.append(c.double)
        t.append(c.take)
    return np.array(d, dtype=bool), np.array(t, dtype=bool)


def best_efficiency(ref: Reference, p: np.ndarray, race: np.ndarray,
                    grid: np.ndarray = np.linspace(0.30, 1.0, 36)) -> tuple[float, Verdict]:
    """The one efficiency, over ``grid``, that loses least on the positions marked ``race``
    (or not), with chances ``p``: how far the model's own choice is from the best on this sample."""
    best: tuple[float, Verdict] | None = None
    for x in grid:
        def fixed(board: np.ndarray, x: float = float(x)) -> float:
            return x

        d, t = decisions(p[race], ref.boards[race], fixed)
        v = verdict(ref.nd[race], ref.dt[race], d, t)
        if best is None or v.loss < best[1].loss - 1e-12:
            best = (float(x), v)
    assert best is not None
    return best
