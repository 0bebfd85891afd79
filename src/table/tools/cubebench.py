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
at once on the same reference.  They run in rounds of ``ROUND`` trials per
position, each round with its own dice, so a reference can be made more
precise later by asking for more trials: the new rounds are pooled with the
old ones (only if the same network rolls them out, which the file records).
"""

from __future__ import annotations

import hashlib
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from table.bot import cube
from table.bot.bot import Bot
from table.bot.net import Weights, bundled
from table.rules.position import Position
from table.tools.cubeplay import rollout

WINDOW = (0.60, 0.88)  # the player on roll's cubeless chance of winning, at 0-ply
CHUNK = 4  # positions per job handed to a worker process
RACE_PIPS = 40  # the least pips of either side in a sampled race: long races
ROUND = 2592  # trials per position per round: the stratified first two rolls, twice over
_SEED_STEP = 2_999  # a batch's seed moves by this per trial before it (the first keeps the old seeds)


class ReferenceError(ValueError):
    """A reference file that cannot be extended as asked."""


def network_digest(w: Weights) -> str:
    """A short digest of a network's parameters: which network rolled a reference out.

    >>> w = Weights.random(4, 0)
    >>> network_digest(w) == network_digest(Weights.random(4, 0)) != network_digest(Weights.random(4, 1))
    True
    """
    h = hashlib.sha256()
    for a in (w.w1, w.b1, w.w2, w.b2, *w.second_layer()):
        h.update(np.ascontiguousarray(a, dtype=np.float32).tobytes())
    return h.hexdigest()[:16]


def selfplay_sample(n: int, seed: int, accept: Callable[[Position], bool]) -> list[Position]:
    """``n`` positions before a roll, one per seeded Mediu self-play game, each ``accept``-ed.

    Each game keeps one of its accepted positions, chosen at random; a game
    with none adds nothing.

    >>> ps = selfplay_sample(2, seed=1, accept=Position.is_race)
    >>> len(ps), all(p.is_race() for p in ps)
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
            if accept(p):
                seen.append(p)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = bot.choose_play(p, dice)
            p = play.position if play is not None else p.swapped()
        if seen:
            out.append(rng.choice(seen))
    return out


def sample_positions(n: int, seed: int, window: tuple[float, float] = WINDOW,
                     races: bool = False) -> list[Position]:
    """``n`` positions before a roll, one per seeded Mediu self-play game, in the doubling window.

    ``races``: only pure races, each side with at least ``RACE_PIPS`` pips to go.

    >>> ps = sample_positions(2, seed=1)
    >>> len(ps), all(0.60 <= Bot("medium").evaluate(p).win <= 0.88 for p in ps)
    (2, True)
    """
    judge = Bot("medium", seed=seed)

    def accept(p: Position) -> bool:
        if races and not (p.is_race() and min(p.pip_counts()) >= RACE_PIPS):
            return False
        return window[0] <= judge.evaluate(p, depth=0).win <= window[1]

    return selfplay_sample(n, seed, accept)


@dataclass
class Reference:
    """Rollout results: per position the mean points of no double and double-take, and their errors."""

    boards: np.ndarray  # (n, 26) int8, the player on roll's view
    nd: np.ndarray  # mean points, no double (nan until rolled out)
    dt: np.ndarray  # mean points, double and take
    nd_se: np.ndarray  # standard errors of the means
    dt_se: np.ndarray
    diff_se: np.ndarray  # standard error of nd - dt (same dice)
    trials: int  # trials asked for per position
    seed: int
    n: np.ndarray | None = None  # trials rolled out so far per position (None: all or nothing)
    net: str = ""  # network_digest of the rollouts' network ("" if not recorded)

    def __post_init__(self) -> None:
        if self.n is None:
            self.n = np.where(np.isnan(self.nd), 0, self.trials).astype(np.int64)

    @property
    def counts(self) -> np.ndarray:
        """Trials rolled out so far, per position."""
        assert self.n is not None
        return self.n

    @classmethod
    def empty(cls, positions: list[Position], trials: int, seed: int) -> Reference:
        n = len(positions)
        nan = np.full(n, np.nan)
        return cls(np.array([p.board for p in positions], dtype=np.int8), nan.copy(), nan.copy(),
                   nan.copy(), nan.copy(), nan.copy(), trials, seed)

    @property
    def done(self) -> np.ndarray:
        """Which positions have been rolled out (at least one round)."""
        done: np.ndarray = ~np.isnan(self.nd)
        return done

    def subset(self, keep: np.ndarray) -> Reference:
        """The positions marked in ``keep`` only."""
        return Reference(self.boards[keep], self.nd[keep], self.dt[keep], self.nd_se[keep],
                         self.dt_se[keep], self.diff_se[keep], self.trials, self.seed,
                         self.counts[keep], self.net)

    def extend_to(self, trials: int, net: str) -> None:
        """Ask for ``trials`` per position, rolled out by the network ``net`` (a digest).

        More rounds are pooled with the ones there only when the same network rolls them.
        """
        self.trials = max(self.trials, trials)
        if not (self.counts < self.trials).any():
            return
        if self.counts.any() and self.net != net:
            made = f"network {self.net}" if self.net else "a network it did not record"
            raise ReferenceError(f"this reference was rolled out by {made}, not the shipped one "
                                 f"({net}); roll a new one into another file")
        self.net = net

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, boards=self.boards, nd=self.nd, dt=self.dt, nd_se=self.nd_se,
                 dt_se=self.dt_se, diff_se=self.diff_se, trials=self.trials, seed=self.seed,
                 n=self.counts, net=self.net)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Reference:
        with np.load(path) as f:
            n = f["n"] if "n" in f.files else None
            net = str(f["net"]) if "net" in f.files else ""
            return cls(f["boards"], f["nd"], f["dt"], f["nd_se"], f["dt_se"], f["diff_se"],
                       int(f["trials"]), int(f["seed"]), n, net)


def pool(n1: int, m1: float, se1: float, n2: int, m2: float, se2: float) -> tuple[float, float]:
    """(mean, standard error) of two samples of ``n1`` and ``n2`` given as mean and standard error.

    >>> a, b = np.array([1.0, 2.0, 4.0]), np.array([0.0, 3.0])
    >>> se = lambda x: x.std(ddof=1) / np.sqrt(len(x))
    >>> m, s = pool(3, a.mean(), se(a), 2, b.mean(), se(b))
    >>> both = np.concatenate([a, b])
    >>> bool(np.isclose(m, both.mean()) and np.isclose(s, se(both)))
    True
    """
    if n1 == 0:
        return m2, se2
    n = n1 + n2
    mean = (n1 * m1 + n2 * m2) / n
    squares = sum((k - 1) * (s * s * k) + k * m * m for k, m, s in ((n1, m1, se1), (n2, m2, se2)))
    return mean, float(np.sqrt(max(squares - n * mean * mean, 0.0) / (n - 1) / n))


def _roll_chunk(job: tuple[list[int], np.ndarray, list[int], list[int], int]
                ) -> list[tuple[int, int, np.ndarray]]:
    indices, boards, starts, trials, seed = job
    out = []
    for i, board, start, k in zip(indices, boards, starts, trials):
        x = rollout(board, k, (seed * 100_003 + i + start * _SEED_STEP) % 2**32)
        out.append((i, k, np.array([x[:, 0].mean(), x[:, 1].mean(),
                                    x[:, 0].std(ddof=1) / np.sqrt(k),
                                    x[:, 1].std(ddof=1) / np.sqrt(k),
                                    (x[:, 0] - x[:, 1]).std(ddof=1) / np.sqrt(k)])))
    return out


def roll_out(ref: Reference, jobs: int, path: Path | None = None,
             progress: Callable[[int, int], None] | None = None) -> Reference:
    """Roll out every position up to ``ref.trials``, over ``jobs`` processes, saving to ``path``.

    Round by round (``ROUND`` trials each, every position once a round), so
    that a run stopped early leaves every position about as precise as the others.
    """
    ref.extend_to(ref.trials, network_digest(bundled()))
    counts = ref.counts
    batches: list[tuple[int, int, int, int]] = []  # (round, position, first trial, trials)
    for i in range(len(counts)):
        start = int(counts[i])
        while start < ref.trials:
            end = min((start // ROUND + 1) * ROUND, ref.trials)
            batches.append((start // ROUND, i, start, end - start))
            start = end
    batches.sort()
    work = [([b[1] for b in chunk], ref.boards[[b[1] for b in chunk]], [b[2] for b in chunk],
             [b[3] for b in chunk], ref.seed)
            for chunk in (batches[k:k + CHUNK] for k in range(0, len(batches), CHUNK))]

    def take(results: list[tuple[int, int, np.ndarray]]) -> None:
        for i, k, v in results:
            n0 = int(counts[i])
            nd = pool(n0, ref.nd[i], ref.nd_se[i], k, v[0], v[2])
            dt = pool(n0, ref.dt[i], ref.dt_se[i], k, v[1], v[3])
            diff = pool(n0, ref.nd[i] - ref.dt[i], ref.diff_se[i], k, v[0] - v[1], v[4])
            ref.nd[i], ref.nd_se[i] = nd
            ref.dt[i], ref.dt_se[i] = dt
            ref.diff_se[i] = diff[1]
            counts[i] = n0 + k
        if path is not None:
            ref.save(path)
        if progress is not None:
            progress(int(counts.sum()), len(counts) * ref.trials)

    if jobs == 1:
        for w in work:
            take(_roll_chunk(w))
    else:
        with ProcessPoolExecutor(jobs) as pool_:
            for res in pool_.map(_roll_chunk, work):
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


def position_scores(nd: np.ndarray, dt: np.ndarray, doubles: np.ndarray, takes: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Per position: how many of its two decisions agree with the rollouts (0-2), and the loss.

    >>> agree, loss = position_scores(np.array([0.5, 0.9]), np.array([0.8, 1.3]),
    ...                               np.array([True, False]), np.array([True, True]))
    >>> agree.tolist(), loss.round(2).tolist()
    ([2, 0], [0.0, 0.4])
    """
    should_double = np.minimum(dt, 1.0) > nd
    should_take = dt <= 1.0
    dloss = np.where(doubles != should_double, np.abs(np.minimum(dt, 1.0) - nd), 0.0)
    tloss = np.where(takes != should_take, np.abs(dt - 1.0), 0.0)
    agree = (doubles == should_double).astype(np.int64) + (takes == should_take)
    return agree, dloss + tloss


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
    agree, loss = position_scores(nd, dt, doubles, takes)
    return Verdict(2 * len(nd), int(agree.sum()), float(loss.sum()),
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


def chances(boards: np.ndarray, depth: int, weights: Weights | None = None) -> np.ndarray:
    """The bot's cubeless chances (n, 5) for each board at ``depth`` plies (the shipped network
    unless ``weights`` are given)."""
    bot = Bot("hard", depth=depth, weights=weights)
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
