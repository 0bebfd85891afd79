"""Truncated rollouts of Table's own network: training targets a step beyond its 1-ply.

A position's label is the average, over ``trials`` games, of where the game
stands after ``depth`` half-moves: from the position, both sides play the
network's 0-ply best play for their dice, then the network judges the
position reached (or the bear-off database, exactly, once both sides are
home; or the result, if the game ended).  Probabilities are kept from the
side of the player on roll at the start, whoever is on roll at the end.

Two kinds of variance reduction:

* the dice are stratified: trial ``k`` of a position takes, at each
  half-move, the ``k``-th of the 36 ordered dice outcomes in a shuffled
  order (one order per half-move, drawn afresh for each 36 trials after the
  first half-move), so with ``trials`` a multiple of 36 every roll is seen
  equally often at every half-move, while each trial's dice are still
  uniform and independent from one half-move to the next (a Latin hypercube
  over the half-moves).  It costs nothing; the first play of each of the 21
  first rolls is even found once per position, not once per trial;
* the luck of each of the first ``luck`` rolls is subtracted: the value after
  the best play for the dice rolled minus the average of that over all 21
  rolls (the 1-ply value).  Its expectation is zero, so the label stays
  unbiased, and most of the swing of the dice is taken out.  It costs a
  1-ply look-ahead (21 rolls) at each half-move adjusted but the first.

Measured (``research/rollouts/rollout_bench.py``, 36 trials, depth 7, contact
positions, one core): stratifying every roll cuts the win label's standard
error from 0.033 to 0.027 for free, at about 60 labels a second; adjusting
the luck of all 7 rolls cuts it to about 0.006, but at under 3 labels a
second: hardly better than 720 trials without it in the same CPU time (0.006
too).  So ``luck`` is off by default.

With ``depth`` 1 and a multiple of 36 trials the label is the 1-ply label of
``refine``; with ``depth`` 0 it is the network's 0-ply judgement.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, search
from table.bot.net import N_OUTPUTS, Weights, evaluate_board, flip_probs
from table.errors import TableError
from table.rules.board import flip
from table.tools.train.refine import Labeller, Progress, share
from table.tools.train.selfplay import roll_dice

OUTCOMES = 36  # ordered dice outcomes of one roll
RANDOM_DICE, FIRST_ROLL, EVERY_ROLL = range(3)  # how far the dice are stratified


@njit(cache=True)
def stratified_roll(k: int, order: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """The dice of trial ``k`` at a half-move with outcome order ``order``: ``order[k % 36]``.

    Outcome ``o`` of the 36 ordered outcomes is ``o // 6 + 1``, ``o % 6 + 1``.
    """
    o = order[k % OUTCOMES]
    return o // 6 + 1, o % 6 + 1


@njit(cache=True)
def _roll_index(d1: int, d2: int) -> int:  # pragma: no cover - compiled
    """Where ``d1``-``d2`` is in ``search.ROLLS`` (larger die first, then the smaller)."""
    hi = max(d1, d2)
    lo = min(d1, d2)
    return hi * (hi - 1) // 2 + lo - 1


@njit(cache=True)
def _all_rolls(net: search.Net, work: search.Work, board: np.ndarray, after: np.ndarray,
               chances: np.ndarray, ends: np.ndarray, mean: np.ndarray) -> None:  # pragma: no cover
    """For each of the 21 rolls, the 0-ply best play and what follows it.

    ``after[r]``: the position after it, seen by the side then on roll;
    ``chances[r]``: its chances for that side (exact where the game ended or
    the database knows them, and then ``ends[r]`` is True); ``mean``: the
    1-ply chances of ``board`` for its player on roll.
    """
    for k in range(N_OUTPUTS):
        mean[k] = 0.0
    for r in range(21):
        d1 = search.ROLLS[r, 0]
        d2 = search.ROLLS[r, 1]
        n = search.generate_level(board, d1, d2, work, 0)
        best = search.score_plays(net, work, 0, n)
        flip(work.boards[0, best], after[r])
        ends[r] = search.exact(net, after[r], chances[r])
        if not ends[r]:
            for k in range(N_OUTPUTS):
                chances[r, k] = work.best_p[0, k]
        search.add_turned(mean, chances[r], 1.0 if d1 == d2 else 2.0)
    for k in range(N_OUTPUTS):
        mean[k] /= 36.0


@njit(cache=True)
def _add_seen(acc: np.ndarray, p: np.ndarray, ply: int, wt: float,
              tmp: np.ndarray) -> None:  # pragma: no cover - compiled
    """``acc += wt * p``, ``p`` being the chances of the side on roll after ``ply`` half-moves."""
    if ply % 2 == 1:
        flip_probs(p, tmp)
        for k in range(N_OUTPUTS):
            acc[k] += wt * tmp[k]
    else:
        for k in range(N_OUTPUTS):
            acc[k] += wt * p[k]


@njit(cache=True)
def _rollout(net: search.Net, work: search.Work, root: np.ndarray, trials: int, depth: int,
             luck: int, stratify: int, out: np.ndarray) -> float:  # pragma: no cover - compiled
    """One position's label into ``out``; returns the naive standard error of its win chance.

    Uses numba's generator, seeded by the caller.  A trial stops early when
    the game ends or both sides reach the bear-off database (exact there).
    """
    if depth == 0 or search.exact(net, root, out):
        evaluate_board(net.w1, net.b1, net.wh, net.bh, net.w2, net.b2, net.db, root, work.x, work.hidden,
                       work.scratch, out)
        return 0.0
    # The first ply of every trial is one of 21: found once.
    first_after = np.empty((21, 26), dtype=np.int8)
    first_p = np.empty((21, N_OUTPUTS), dtype=np.float32)
    first_ends = np.empty(21, dtype=np.bool_)
    root_mean = np.empty(N_OUTPUTS, dtype=np.float32)
    _all_rolls(net, work, root, first_after, first_p, first_ends, root_mean)
    after = np.empty((21, 26), dtype=np.int8)
    chances = np.empty((21, N_OUTPUTS), dtype=np.float32)
    ends = np.empty(21, dtype=np.bool_)
    mean = np.empty(N_OUTPUTS, dtype=np.float32)
    board = np.empty(26, dtype=np.int8)
    p = np.empty(N_OUTPUTS, dtype=np.float32)
    value = np.empty(N_OUTPUTS, dtype=np.float64)
    tmp = np.empty(N_OUTPUTS, dtype=np.float32)
    # orders[h]: the shuffled outcomes of roll h, one each for 36 trials in a row
    orders = np.empty((depth, OUTCOMES), dtype=np.int64)
    orders[0] = np.random.permutation(OUTCOMES)
    acc = np.zeros(N_OUTPUTS, dtype=np.float64)
    sq = 0.0
    for t in range(trials):
        if stratify == EVERY_ROLL and t % OUTCOMES == 0:
            # fresh orders for the later rolls, or trial t + 36 would replay trial t
            for h in range(1, depth):
                orders[h] = np.random.permutation(OUTCOMES)
        if stratify != RANDOM_DICE:
            d1, d2 = stratified_roll(t, orders[0])
        else:
            d1, d2 = roll_dice(False)
        r = _roll_index(d1, d2)
        value[:] = 0.0
        for i in range(26):
            board[i] = first_after[r, i]
        for k in range(N_OUTPUTS):
            p[k] = first_p[r, k]
        if luck > 0:
            # luck = (chances after this roll) - (their average over the rolls), root's view
            _add_seen(value, p, 1, -1.0, tmp)
            _add_seen(value, root_mean, 0, 1.0, tmp)
        ended = first_ends[r]
        ply = 1
        while not ended and ply < depth:
            if stratify == EVERY_ROLL:
                d1, d2 = stratified_roll(t, orders[ply])
            else:
                d1, d2 = roll_dice(False)
            if ply < luck:
                _all_rolls(net, work, board, after, chances, ends, mean)
                r = _roll_index(d1, d2)
                for i in range(26):
                    board[i] = after[r, i]
                for k in range(N_OUTPUTS):
                    p[k] = chances[r, k]
                ended = ends[r]
                _add_seen(value, p, ply + 1, -1.0, tmp)
                _add_seen(value, mean, ply, 1.0, tmp)
            else:
                n = search.generate_level(board, d1, d2, work, 0)
                best = search.score_plays(net, work, 0, n)
                flip(work.boards[0, best], board)
                ended = search.exact(net, board, p)
                if not ended:
                    for k in range(N_OUTPUTS):
                        p[k] = work.best_p[0, k]
            ply += 1
        _add_seen(value, p, ply, 1.0, tmp)
        for k in range(N_OUTPUTS):
            acc[k] += value[k]
        sq += value[0] * value[0]
    for k in range(N_OUTPUTS):
        out[k] = min(1.0, max(0.0, acc[k] / trials))
    if trials < 2:
        return 0.0
    m = acc[0] / trials
    var = max(0.0, (sq - trials * m * m) / (trials - 1))
    return float(np.sqrt(var / trials))


@njit(cache=True)
def _rollout_all(net: search.Net, work: search.Work, positions: np.ndarray, seed: int,
                 trials: int, depth: int, luck: int, stratify: int, out: np.ndarray,
                 errors: np.ndarray) -> None:  # pragma: no cover - compiled
    """Label every position (see ``_rollout``); numba's generator is seeded once with ``seed``."""
    np.random.seed(seed)
    for i in range(positions.shape[0]):
        errors[i] = _rollout(net, work, positions[i], trials, depth, luck, stratify, out[i])


def _part_seed(seed: int, offset: int) -> int:
    """The generator's seed for the part of the positions starting at ``offset``."""
    return int(np.random.SeedSequence([seed, offset]).generate_state(1)[0])


def _rollout_part(weights: Weights, trials: int, depth: int, seed: int, luck: int,
                  stratify: int, item: tuple[int, np.ndarray]) -> np.ndarray:
    """Labels and naive standard errors (one more column) of one part of the positions."""
    offset, positions = item
    out = np.empty((len(positions), N_OUTPUTS + 1), dtype=np.float32)
    labels = np.empty((len(positions), N_OUTPUTS), dtype=np.float32)
    errors = np.empty(len(positions), dtype=np.float32)
    _rollout_all(search.make_net(weights, bearoff.database()), search.make_work(weights.hidden),
                 np.ascontiguousarray(positions, dtype=np.int8), _part_seed(seed, offset),
                 trials, depth, luck, stratify, labels, errors)
    out[:, :N_OUTPUTS] = labels
    out[:, N_OUTPUTS] = errors
    return out


PART = 200  # positions per part: a few seconds of work, for progress and sharing


def check(trials: int, depth: int, luck: int) -> None:
    """``TableError`` saying what is wrong with rollout settings, if anything.

    >>> check(36, 7, 0)
    >>> check(0, 7, 0)
    Traceback (most recent call last):
    ...
    table.errors.TableError: rollout trials must be at least 1, not 0
    """
    if trials < 1:
        raise TableError(f"rollout trials must be at least 1, not {trials}")
    if depth < 0:
        raise TableError(f"rollout depth must be 0 or more half-moves, not {depth}")
    if luck < 0:
        raise TableError(f"rollout luck plies must be 0 or more, not {luck}")


def rollout_errors(weights: Weights, positions: np.ndarray, trials: int, depth: int, seed: int,
                   jobs: int = 1, luck: int = 0, stratify: int = EVERY_ROLL,
                   progress: Progress | None = None,
                   start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels (N, 5) and the naive standard error of each win label (N,); see ``rollout_label``.

    The standard error treats the trials as independent, which overstates it
    when the dice are stratified (``stratify``: ``RANDOM_DICE``, ``FIRST_ROLL``
    or ``EVERY_ROLL``, the default, for measuring what stratifying gains).
    """
    check(trials, depth, luck)
    positions = np.asarray(positions)
    if positions.ndim != 2 or positions.shape[1] != 26:
        raise TableError(f"positions must be an array of shape (N, 26), not {positions.shape}")
    if jobs < 1:
        raise TableError(f"jobs must be at least 1, not {jobs}")
    if stratify not in (RANDOM_DICE, FIRST_ROLL, EVERY_ROLL):
        raise TableError(f"stratify must be RANDOM_DICE, FIRST_ROLL or EVERY_ROLL, not {stratify}")
    res = share(partial(_rollout_part, weights, trials, depth, seed, luck, stratify),
                positions, jobs, progress, PART, start)
    if len(res) == 0:
        return np.empty((0, N_OUTPUTS), np.float32), np.empty(0, np.float32)
    return np.ascontiguousarray(res[:, :N_OUTPUTS]), res[:, N_OUTPUTS].copy()


def rollout_label(weights: Weights, positions: np.ndarray, trials: int, depth: int, seed: int,
                  jobs: int = 1, luck: int = 0, progress: Progress | None = None,
                  start: int = 0) -> np.ndarray:
    """Truncated-rollout probabilities (N, 5) of ``positions`` (int8 boards, player on roll's view).

    ``trials`` games of ``depth`` half-moves each, the dice stratified and the
    luck of the first ``luck`` rolls subtracted (see the module).
    The same ``seed`` gives the same labels, whatever ``jobs``; ``start``
    (where ``positions`` begin in a larger set labelled in pieces) chooses
    the dice, so that the pieces do not share them.

    >>> from table.bot.net import bundled
    >>> from table.rules.position import Position
    >>> board = np.array([Position.initial().board], dtype=np.int8)
    >>> win = rollout_label(bundled(), board, trials=36, depth=2, seed=1)[0, 0]
    >>> bool(0.4 < win < 0.6)
    True
    """
    return rollout_errors(weights, positions, trials, depth, seed, jobs, luck,
                          progress=progress, start=start)[0]


def labeller(trials: int, depth: int, seed: int, luck: int = 0) -> Labeller:
    """A ``refine`` labeller by rollouts; its kind names the settings (not the seed)."""
    check(trials, depth, luck)

    def run(weights: Weights, positions: np.ndarray, jobs: int, progress: Progress | None,
            start: int) -> np.ndarray:
        return rollout_label(weights, positions, trials, depth, seed, jobs, luck, progress, start)

    return Labeller(f"rollout trials={trials} depth={depth} luck={luck}", run)
