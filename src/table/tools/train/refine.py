"""Refinement passes: the networks learn their own 1-ply judgements (``table refine``).

After TD(lambda) self-play, a network is a better judge when it looks one
roll ahead than when it judges a position at once: averaging over the 21
rolls of the player on roll, each answered by the best play, smooths out
much of the network's error.  A refinement pass teaches the network that
look-ahead: it plays games against itself, keeps the positions met (and, for
breadth, some positions of plays it did not choose), labels each with its
own 1-ply probabilities, and fits the network to those labels by supervised
learning.  Only Table's own play and judgement are used; each pass is one
step of bootstrapping, like TD(0) over a whole roll.

The three stages are separate functions so that a run can keep the labelled
positions (``Dataset``) and fit again without relabelling.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, features, search
from table.bot.net import CONTACT, N_OUTPUTS, RACE, Weights, final_probs
from table.errors import TableError
from table.rules.board import flip, is_race
from table.rules.position import Position
from table.tools.train.selfplay import roll_dice

START = np.array(Position.initial().board, dtype=np.int8)
MAX_TURNS = 1000


@njit(cache=True)
def _collect(net: search.Net, work: search.Work, seed: int, noise: float, side_share: float,
             start: np.ndarray, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Fill ``out`` (N, 26) with positions from self-play; returns how many were written.

    Games are played at 0-ply with ``noise`` (equity, standard deviation) on
    each judgement.  Every position after a play is kept, seen from the player
    then on roll, unless the game is over or the bear-off database is exact
    there; with probability ``side_share`` the position after a random other
    legal play is kept as well.
    """
    np.random.seed(seed)
    board = np.empty(26, dtype=np.int8)
    other = np.empty(26, dtype=np.int8)
    scratch = np.empty(N_OUTPUTS, dtype=np.float32)
    no_filter = np.ones(search.MAX_DEPTH, dtype=np.int64)
    no_margin = np.zeros(search.MAX_DEPTH, dtype=np.float64)
    count = 0
    cap = out.shape[0]
    while count < cap:
        for i in range(26):
            board[i] = start[i]
        for turn in range(MAX_TURNS):
            d1, d2 = roll_dice(turn == 0)
            n, best = search.choose(net, work, board, d1, d2, 0, noise, no_filter, no_margin)
            if n > 1 and np.random.random() < side_share and count < cap:
                c = np.random.randint(0, n)
                if c != best:
                    flip(work.boards[0, c], other)
                    if not final_probs(other, scratch) and not bearoff.applies(net.db, other):
                        out[count] = other
                        count += 1
            flip(work.boards[0, best], board)
            if final_probs(board, scratch) or bearoff.applies(net.db, board):
                break
            if count >= cap:
                break
            out[count] = board
            count += 1
        # (a game that outlasts MAX_TURNS just ends; its positions are kept)
    return count


@njit(cache=True)
def _label(net: search.Net, work: search.Work, positions: np.ndarray, depth: int,
           out: np.ndarray) -> None:  # pragma: no cover - compiled
    """``out[i]`` = the ``depth``-ply probabilities of ``positions[i]`` for the player on roll."""
    res = np.zeros(N_OUTPUTS, dtype=np.float32)
    for i in range(positions.shape[0]):
        search.evaluate(net, work, positions[i], depth, 0, res)
        for k in range(N_OUTPUTS):
            out[i, k] = res[k]


@njit(cache=True)
def encode_all(positions: np.ndarray, xs: np.ndarray, nets: np.ndarray) -> None:  # pragma: no cover
    """Network inputs and network index (contact or race) of every position."""
    scratch = np.empty(26, dtype=np.int8)
    for i in range(positions.shape[0]):
        features.encode(positions[i], xs[i], scratch)
        nets[i] = RACE if is_race(positions[i]) else CONTACT


@dataclass
class Dataset:
    """Positions (player on roll's view, int8 boards) and their target probabilities."""

    positions: np.ndarray
    targets: np.ndarray
    kind: str = "1-ply"  # how the targets were made (``Labeller.kind``)

    def save(self, path: Path) -> None:
        """Write as ``.npz`` (the labels cost the most time to make).

        Written beside and then renamed, so that a run stopped mid-save leaves the
        previous file whole.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".writing.npz")
        np.savez_compressed(tmp, positions=self.positions, targets=self.targets,
                            kind=np.str_(self.kind))
        os.replace(tmp, path)

    def labelled(self) -> Dataset:
        """Only the positions that have their targets (a partial set's others are NaN)."""
        keep = ~np.isnan(self.targets).any(axis=1)
        return Dataset(self.positions[keep], self.targets[keep], self.kind)

    @classmethod
    def joined(cls, parts: Sequence[Dataset]) -> Dataset:
        """All the positions of ``parts``, in order; the kind names each distinct kind once."""
        kinds = list(dict.fromkeys(p.kind for p in parts))
        return cls(np.concatenate([p.positions for p in parts]),
                   np.concatenate([p.targets for p in parts]), " + ".join(kinds))

    @classmethod
    def load(cls, path: Path) -> Dataset:
        """Read a dataset written by ``save`` (files from before labels had kinds are 1-ply)."""
        with np.load(path, allow_pickle=False) as data:
            kind = str(data["kind"]) if "kind" in data.files else "1-ply"
            return cls(data["positions"], data["targets"], kind)


def collect(weights: Weights, count: int, seed: int, noise: float = 0.02,
            side_share: float = 0.25, start: np.ndarray = START) -> np.ndarray:
    """``count`` positions from the network's self-play from ``start`` (see ``_collect``)."""
    out = np.empty((count, 26), dtype=np.int8)
    n = _collect(search.make_net(weights, bearoff.database()), search.make_work(weights.hidden),
                 seed, noise, side_share, start, out)
    return out[:n]


def label_part(weights: Weights, depth: int, item: tuple[int, np.ndarray]) -> np.ndarray:
    """The ``depth``-ply chances of one numbered share of positions (``share``'s unit of work)."""
    out = np.empty((len(item[1]), N_OUTPUTS), dtype=np.float32)
    # Contiguous rows: a strided view (``positions[::20]``) would compile the whole search again.
    _label(search.make_net(weights, bearoff.database()), search.make_work(weights.hidden),
           np.ascontiguousarray(item[1]), depth, out)
    return out


Progress = Callable[[int], None]


def share(part_fn: Callable[[tuple[int, np.ndarray]], np.ndarray], positions: np.ndarray,
          jobs: int, progress: Progress | None = None, part_size: int = 20_000,
          start: int = 0) -> np.ndarray:
    """``part_fn((offset, part))`` over consecutive parts of ``positions``, in ``jobs`` processes.

    ``offset`` is the part's place in the whole set, ``positions`` starting at
    ``start``.  The parts depend only on ``len(positions)`` and ``part_size``,
    never on ``jobs``, so a seeded labeller gives the same labels however it
    is shared.  ``progress`` hears the number of positions done after each part.
    """
    parts = np.array_split(positions, max(1, len(positions) // part_size + 1))
    items = []
    offset = start
    for part in parts:
        items.append((offset, part))
        offset += len(part)
    done = 0
    results = []
    if jobs == 1:
        for item in items:
            results.append(part_fn(item))
            done += len(item[1])
            if progress:
                progress(done)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for item, res in zip(items, pool.map(part_fn, items)):
                results.append(res)
                done += len(item[1])
                if progress:
                    progress(done)
    return np.concatenate(results) if results else np.empty((0, N_OUTPUTS), np.float32)


def label(weights: Weights, positions: np.ndarray, jobs: int = 1,
          progress: Progress | None = None, depth: int = 1) -> np.ndarray:
    """``depth``-ply probabilities of every position, shared among ``jobs`` processes."""
    if depth not in range(1, search.MAX_DEPTH + 1):
        raise ValueError(f"labels look 1 to {search.MAX_DEPTH} plies ahead, not {depth}")
    return share(partial(label_part, weights, depth), positions, jobs, progress)


@dataclass(frozen=True)
class Labeller:
    """How a pass labels its positions: a name recorded with the dataset, and the function."""

    kind: str
    # (weights, positions, jobs, progress, index of positions[0] in the whole set) -> labels
    run: Callable[[Weights, np.ndarray, int, Progress | None, int], np.ndarray]


def plies(depth: int) -> Labeller:
    """Labels by the network's own look-ahead of ``depth`` plies (``label``).

    >>> plies(2).kind
    '2-ply'
    """
    def run(weights: Weights, positions: np.ndarray, jobs: int, progress: Progress | None,
            start: int) -> np.ndarray:
        return label(weights, positions, jobs, progress, depth)

    return Labeller(f"{depth}-ply", run)


ONE_PLY = plies(1)
LABEL_CHUNK = 20_000  # positions labelled between looks at the clock (and saves of a partial set)
SAVE_SECONDS = 300.0  # time between saves of a partial set, when labelling is slow


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0))), dtype=np.float32)


@dataclass
class FitConfig:
    """Supervised learning settings: Adam on the cross-entropy of the five outputs."""

    epochs: int = 4
    batch: int = 256
    lr: float = 3e-4
    lr_final: float = 3e-5
    holdout: float = 0.02
    seed: int = 1


def fit(weights: Weights, data: Dataset, cfg: FitConfig,
        log: Callable[[str], None] = print) -> Weights:
    """A copy of ``weights`` fitted to ``data`` (each network on its own positions)."""
    new = weights.copy()
    rng = np.random.default_rng(cfg.seed)
    xs = np.zeros((len(data.positions), features.N_INPUTS), dtype=np.float32)
    nets = np.zeros(len(data.positions), dtype=np.int64)
    encode_all(data.positions, xs, nets)
    for net, name in ((CONTACT, "contact"), (RACE, "race")):
        idx = np.flatnonzero(nets == net)
        if len(idx) < 100:
            log(f"fit {name}: only {len(idx)} positions, left as it was")
            continue
        rng.shuffle(idx)
        n_hold = max(1, int(len(idx) * cfg.holdout))
        hold, train_idx = idx[:n_hold], idx[n_hold:]
        params = layer_params(new, net)
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        steps_total = cfg.epochs * ((len(train_idx) + cfg.batch - 1) // cfg.batch)
        t = 0
        log(f"fit {name}: {len(train_idx)} positions, {n_hold} held out; before: "
            f"{loss_text(params, xs[hold], data.targets[hold])}")
        for epoch in range(cfg.epochs):
            rng.shuffle(train_idx)
            for s in range(0, len(train_idx), cfg.batch):
                b = train_idx[s:s + cfg.batch]
                grads = _grads(params, xs[b], data.targets[b])
                t += 1
                # Learning rate decays geometrically from lr to lr_final over the run.
                adam_step(params, grads, m, v, t, cfg.lr * (cfg.lr_final / cfg.lr) ** (t / steps_total))
            log(f"fit {name}: epoch {epoch + 1}/{cfg.epochs} held-out "
                f"{loss_text(params, xs[hold], data.targets[hold])}")
    return new


def layer_params(weights: Weights, net: int) -> list[np.ndarray]:
    """Weights and bias of each layer of network ``net`` (contact or race), as views: updating
    them in place updates ``weights``."""
    params = [weights.w1[net], weights.b1[net]]
    if weights.wh is not None and weights.bh is not None:
        params += [weights.wh[net], weights.bh[net]]
    return params + [weights.w2[net], weights.b2[net]]


def forward(params: list[np.ndarray], x: np.ndarray) -> list[np.ndarray]:
    """The activations of every layer, the inputs first; ``params`` is weights, bias, ... per layer."""
    acts = [x]
    for k in range(0, len(params), 2):
        acts.append(_sigmoid(acts[-1] @ params[k] + params[k + 1]))
    return acts


def adam_step(params: list[np.ndarray], grads: list[np.ndarray], m: list[np.ndarray],
              v: list[np.ndarray], t: int, lr: float) -> None:
    """Adam's ``t``-th update of ``params`` in place, with its moments ``m`` and ``v``."""
    for p, g, mm, vv in zip(params, grads, m, v):
        mm *= 0.9
        mm += 0.1 * g
        vv *= 0.999
        vv += 0.001 * g * g
        mhat = mm / (1.0 - 0.9 ** t)
        vhat = vv / (1.0 - 0.999 ** t)
        p -= (lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


def _grads(params: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """Gradients of the mean cross-entropy (sigmoid outputs make its delta ``out - y``)."""
    acts = forward(params, x)
    return backprop(params, acts, (acts[-1] - y) / len(x))


def backprop(params: list[np.ndarray], acts: list[np.ndarray], delta: np.ndarray) -> list[np.ndarray]:
    """Gradients of every layer's weights and bias, given ``delta``, the loss's gradient with
    respect to the output layer's pre-activations, and the activations ``acts`` of ``forward``."""
    grads: list[np.ndarray] = [delta] * len(params)
    for layer in range(len(params) // 2 - 1, -1, -1):
        grads[2 * layer] = acts[layer].T @ delta
        grads[2 * layer + 1] = delta.sum(axis=0)
        if layer:
            a = acts[layer]
            delta = (delta @ params[2 * layer].T) * a * (1.0 - a)
    return grads


def loss_text(params: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> str:
    """Cross-entropy and the equity's mean absolute error, as a short text."""
    o = forward(params, x)[-1]
    o64 = np.clip(o.astype(np.float64), 1e-7, 1 - 1e-7)
    ce = -np.mean(y * np.log(o64) + (1 - y) * np.log(1 - o64))
    weights_eq = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
    err = np.abs((o64 - y) @ weights_eq).mean()
    return f"cross-entropy {ce:.5f}, equity error {err:.4f}"


def partial_path(data_path: Path) -> Path:
    """Where a pass keeps the positions it has begun to label into ``data_path`` (unlabelled: NaN)."""
    return data_path.with_name(data_path.stem + ".partial.npz")


def check_dataset(path: Path, labeller: Labeller) -> None:
    """``TableError`` unless the dataset at ``path`` (and its partial set), if any, was labelled
    as ``labeller`` labels.

    A pass never fits labels of one kind while believing they are of another,
    nor resumes labelling with another kind.
    """
    for p in (path, partial_path(path)):
        if not p.exists():
            continue
        kind = Dataset.load(p).kind
        if kind != labeller.kind:
            raise TableError(f"{p} holds positions labelled by {kind}, but this run labels by "
                             f"{labeller.kind}: give the labelling options that made it, or "
                             "another --data file")


def label_resumably(weights: Weights, positions: int, seed: int, jobs: int,
                     data_path: Path | None, log: Callable[[str], None],
                     labeller: Labeller, start: np.ndarray = START) -> Dataset:
    """Collect and label, saving a partial set now and then; resume one found there."""
    part = partial_path(data_path) if data_path is not None else None
    if part is not None and part.exists():
        check_dataset(part, labeller)
        found = Dataset.load(part)
        pos, targets = found.positions, found.targets.copy()
        missing = np.flatnonzero(np.isnan(targets[:, 0]))
        done = int(missing[0]) if len(missing) else len(pos)
        log(f"resuming: {done}/{len(pos)} positions already labelled by {labeller.kind} "
            f"in {part}")
    else:
        t = time.monotonic()
        pos = collect(weights, positions, seed, start=start)
        targets = np.full((len(pos), N_OUTPUTS), np.nan, dtype=np.float32)
        done = 0
        log(f"collected {len(pos)} positions in {time.monotonic() - t:.0f}s")
    t = time.monotonic()
    first = done
    step = max(len(pos) // 10, 1)
    marks = {"next": first + step}
    saved = time.monotonic()
    for a in range(first, len(pos), LABEL_CHUNK):
        b = min(a + LABEL_CHUNK, len(pos))

        def progress(n: int, a: int = a) -> None:
            now = a + n
            if now >= marks["next"] or now == len(pos):
                rate = (now - first) / max(time.monotonic() - t, 1e-9)
                log(f"labelled {now}/{len(pos)} by {labeller.kind} ({rate:.1f} positions/s)")
                marks["next"] = now + step

        targets[a:b] = labeller.run(weights, pos[a:b], jobs, progress, a)
        if part is not None and b < len(pos) and time.monotonic() - saved >= SAVE_SECONDS:
            Dataset(pos, targets, labeller.kind).save(part)
            saved = time.monotonic()
    return Dataset(pos, targets, labeller.kind)


def run_pass(weights: Weights, positions: int, seed: int, jobs: int, cfg: FitConfig,
             data_path: Path | None, log: Callable[[str], None],
             labeller: Labeller = ONE_PLY, also: Sequence[Dataset] = (),
             start: np.ndarray = START) -> Weights:
    """One whole pass: collect, label (or reuse a saved dataset of the same kind), fit.

    With ``data_path``, a pass stopped while labelling resumes where its last
    partial save (every ``SAVE_SECONDS``) left off.  The positions of ``also``
    (earlier passes' datasets, of any kind) are fitted to as well.
    """
    if data_path is not None and data_path.exists():
        check_dataset(data_path, labeller)
        data = Dataset.load(data_path)
        log(f"reusing {len(data.positions)} labelled positions ({data.kind}) from {data_path}")
    else:
        data = label_resumably(weights, positions, seed, jobs, data_path, log, labeller, start)
        if data_path is not None:
            data.save(data_path)
            partial_path(data_path).unlink(missing_ok=True)
            log(f"saved the labelled positions to {data_path}")
    if also:
        data = Dataset.joined([data, *also])
        log(f"fitting to {len(data.positions)} positions in all ({data.kind})")
    new = fit(weights, data, cfg, log)
    passes = int(new.meta.get("refine_passes", "0")) + 1
    new.meta["refine_passes"] = str(passes)
    new.meta[f"refine_{passes}"] = (f"positions={len(data.positions)} seed={seed} "
                                    f"epochs={cfg.epochs} labels={data.kind}")
    return new
