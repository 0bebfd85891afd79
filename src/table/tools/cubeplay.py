"""Compiled money play with the doubling cube: duplicate-dice duels and cubeful rollouts.

Money games, Jacoby off, the cube capped at ``CUBE_CAP``.  Before each roll
the player on roll, if the cube is centred or theirs and below the cap, asks
its cube judge whether to double: the chances of the position from a network
at a depth, turned into no-double and double-take equities by
``cube.money_action`` with ``cube.board_efficiency``; the player doubled asks
its own judge whether to take.  A *passive* player never doubles and always
takes.  Checker play does not look at the cube (the search is cubeless).

``cube_duel`` plays pairs of games on one dice stream, the players swapping
sides, as ``duel.duel`` does for cubeless games.  ``rollout`` plays one
position on to the end many times for two alternatives at once: no double,
and double-take.  Since checker play ignores the cube, one stream of dice
gives one sequence of plays, and only the cube differs between the two; the
double-pass alternative is worth exactly +1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, cube, search
from table.bot.net import Weights, bundled, final_probs
from table.rules.board import flip
from table.tools import pubeval
from table.tools.duel import START, MAX_TURNS, Player, draw_dice, play_turn

CUBE_CAP = 64
CENTRE = -1


@dataclass(frozen=True)
class CubePlayer:
    """A duel player with a cube judge: weights and depth for its cube decisions.

    ``judge`` None uses the player's own weights (the bundled ones for pubeval
    or random play); ``passive`` players never double and always take;
    ``too_good`` is the slope of the model's too-good line (``cube.money_core``).
    """

    player: Player
    judge: Weights | None = None
    judge_depth: int = 1
    passive: bool = False
    too_good: float = cube.TOO_GOOD_SLOPE  # the cube model's too-good line (measuring it)


@njit(cache=True)
def _cube_values(net: search.Net, work: search.Work, board: np.ndarray, depth: int,
                 owner: int, p: np.ndarray, slope: float) -> tuple[float, float]:  # pragma: no cover
    """(no double, double-take) for the player on roll at ``board``, per unit of cube."""
    search.evaluate(net, work, board, depth, 0, p)
    return cube.money_action(p, owner, cube.board_efficiency(board), slope)


@njit(cache=True)
def _cube_game(
    first: int, dice: np.ndarray, kinds: np.ndarray, depths: np.ndarray, noises: np.ndarray,
    keeps: np.ndarray, margins: np.ndarray, budgets: np.ndarray, net_a: search.Net,
    net_b: search.Net, judge_a: search.Net, judge_b: search.Net, judge_depths: np.ndarray,
    passive: np.ndarray, slopes: np.ndarray, pw: np.ndarray, start: np.ndarray,
    work: search.Work, px: np.ndarray, stats: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """Points won by player 0 in one cubeful game (negative if lost); 0 if abandoned.

    ``stats`` counts doubles [0], passes [1] and the final cube [2] (summed).
    """
    board = start.copy()
    side = first
    value = 1
    owner = CENTRE
    p = np.empty(5, dtype=np.float32)
    sign = 1
    for turn in range(MAX_TURNS):
        sign = 1 if side == 0 else -1
        if (value < CUBE_CAP and (owner == CENTRE or owner == side) and not passive[side]):
            judge = judge_a if side == 0 else judge_b
            nd, dt = _cube_values(judge, work, board, judge_depths[side],
                                  0 if owner == CENTRE else 1, p, slopes[side])
            if min(dt, 1.0) > nd:
                stats[0] += 1
                other = 1 - side
                take = True
                if not passive[other]:
                    judge = judge_a if other == 0 else judge_b
                    # The taker judges the doubler's position, as the doubler does.
                    take = _cube_values(judge, work, board, judge_depths[other], 0, p,
                                        slopes[other])[1] <= 1.0
                if not take:
                    stats[1] += 1
                    stats[2] += value
                    return sign * value
                value *= 2
                owner = other
        if play_turn(side, board, dice[turn, 0], dice[turn, 1], kinds, depths, noises, keeps,
                     margins, budgets, net_a, net_b, pw, work, px):
            stats[2] += value
            pts = (1 + int(work.p[0, 3]) + int(work.p[0, 4])) * value
            return sign * pts
        side = 1 - side
    return 0


@njit(cache=True)
def _cube_pairs(
    n_pairs: int, seed: int, kinds: np.ndarray, depths: np.ndarray, noises: np.ndarray,
    keeps: np.ndarray, margins: np.ndarray, budgets: np.ndarray, net_a: search.Net,
    net_b: search.Net, judge_a: search.Net, judge_b: search.Net, judge_depths: np.ndarray,
    passive: np.ndarray, slopes: np.ndarray, pw: np.ndarray, start: np.ndarray, results: np.ndarray,
    work: search.Work, stats: np.ndarray,
) -> None:  # pragma: no cover - compiled
    np.random.seed(seed)
    dice = np.empty((MAX_TURNS, 2), dtype=np.int64)
    px = np.empty(pubeval.N_INPUTS, dtype=np.float64)
    for i in range(n_pairs):
        draw_dice(dice)
        total = 0
        for first in range(2):
            total += _cube_game(first, dice, kinds, depths, noises, keeps, margins, budgets,
                                net_a, net_b,
                                judge_a, judge_b, judge_depths, passive, slopes, pw, start,
                                work, px, stats)
        results[i] = total


def network(weights: Weights, use_bearoff: bool) -> search.Net:
    """The compiled search's network for ``weights``, with the bear-off database or without."""
    return search.make_net(weights, bearoff.database() if use_bearoff else bearoff.empty())


def cube_duel(a: CubePlayer, b: CubePlayer, pairs: int, seed: int,
              start: np.ndarray = START) -> tuple[np.ndarray, np.ndarray]:
    """Player ``a``'s points in each of ``pairs`` duplicate pairs of cubeful money games against ``b``.

    Also returns the counts over all games: doubles, passes, and the sum of
    the final cube values.
    """
    if pairs < 1:
        raise ValueError("a duel needs at least one pair of games")
    shipped = bundled()
    wa = a.player.weights or shipped
    wb = b.player.weights or shipped
    ja = a.judge or a.player.weights or shipped
    jb = b.judge or b.player.weights or shipped
    pa, pb = a.player, b.player
    fa, fb = search.filters(pa.keep, pa.margin), search.filters(pb.keep, pb.margin)
    results = np.zeros(pairs, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    hidden = max(w.hidden for w in (wa, wb, ja, jb))
    _cube_pairs(
        pairs, seed,
        np.array([pa.kind, pb.kind], dtype=np.int64),
        np.array([pa.depth, pb.depth], dtype=np.int64),
        np.array([pa.noise, pb.noise], dtype=np.float64),
        np.stack([fa[0], fb[0]]), np.stack([fa[1], fb[1]]),
        np.array([pa.budget, pb.budget], dtype=np.int64),
        network(wa, pa.bearoff), network(wb, pb.bearoff), network(ja, True), network(jb, True),
        np.array([a.judge_depth, b.judge_depth], dtype=np.int64),
        np.array([a.passive, b.passive], dtype=np.bool_),
        np.array([a.too_good, b.too_good], dtype=np.float64),
        pubeval.WEIGHTS, start, results, search.make_work(hidden), stats,
    )
    return results, stats


# Rollouts ------------------------------------------------------------------------------


@njit(cache=True)
def _rollout(net: search.Net, work: search.Work, start: np.ndarray, trials: int, seed: int,
             keep: np.ndarray, margin: np.ndarray,
             out: np.ndarray) -> None:  # pragma: no cover - compiled
    """``out[t]`` = (no double, double-take) points for the player on roll, in trial ``t``.

    Both alternatives follow one game (checker play is cubeless, at 0-ply);
    the first two rolls are stratified over the trials, the rest random;
    in each, the side on roll with access to the cube doubles, and the other
    takes or passes, by the network's 0-ply chances and ``cube.money_action``.
    """
    np.random.seed(seed)
    p = np.empty(5, dtype=np.float32)
    board = np.empty(26, dtype=np.int8)
    values = np.empty(2, dtype=np.int64)
    owners = np.empty(2, dtype=np.int64)
    alive = np.empty(2, dtype=np.bool_)
    for t in range(trials):
        for i in range(26):
            board[i] = start[i]
        values[0], values[1] = 1, 2
        owners[0], owners[1] = CENTRE, 1
        alive[0], alive[1] = True, True
        side = 0
        for turn in range(MAX_TURNS):
            sign = 1 if side == 0 else -1
            judged = False
            x = 0.0
            for k in range(2):
                # Turn 0 is the decision being rolled out: no double now, or double-take.
                if turn == 0 or not alive[k] or values[k] >= CUBE_CAP:
                    continue
                if owners[k] != CENTRE and owners[k] != side:
                    continue
                if not judged:
                    # One judgement serves both: the position is the same, only the cube differs.
                    search.evaluate(net, work, board, 0, 0, p)
                    x = cube.board_efficiency(board)
                    judged = True
                nd, dt = cube.money_action(p, 0 if owners[k] == CENTRE else 1, x)
                if min(dt, 1.0) > nd:
                    if dt > 1.0:  # a pass ends this alternative
                        out[t, k] = sign * values[k]
                        alive[k] = False
                    else:
                        values[k] *= 2
                        owners[k] = 1 - side
            if not alive[0] and not alive[1]:
                break
            if turn < 2:
                # Stratified: trial t's first two rolls run through all 36 x 36 in order,
                # so that in a multiple of 1296 trials the luck of those rolls cancels exactly.
                r = (t // (1 if turn == 0 else 36)) % 36
                d1 = r // 6 + 1
                d2 = r % 6 + 1
            else:
                d1 = np.random.randint(1, 7)
                d2 = np.random.randint(1, 7)
            _, best = search.choose(net, work, board, d1, d2, 0, 0.0, keep, margin)
            flip(work.boards[0, best], board)
            if final_probs(board, work.p[0]):
                pts = 1 + int(work.p[0, 3]) + int(work.p[0, 4])
                for k in range(2):
                    if alive[k]:
                        out[t, k] = sign * pts * values[k]
                        alive[k] = False
                break
            side = 1 - side
        for k in range(2):
            if alive[k]:  # abandoned at MAX_TURNS: scored as a draw
                out[t, k] = 0.0


def rollout(board: np.ndarray, trials: int, seed: int, weights: Weights | None = None) -> np.ndarray:
    """Cubeful money rollout of the player on roll at ``board`` (raw, before rolling), cube centred.

    Returns a (trials, 2) array: the points of each trial with no double, and
    after a double and a take (the cube on 2, owned by the opponent).  Use a
    multiple of 1296 trials for the stratified first two rolls to cancel fully.

    >>> from table.rules.position import Position
    >>> r = rollout(np.array(Position.initial().board, dtype=np.int8), 4, seed=1)
    >>> r.shape, bool(np.all(r == np.round(r)))
    ((4, 2), True)
    """
    if trials < 1:
        raise ValueError("a rollout needs at least one trial")
    w = weights or bundled()
    keep, margin = search.filters((8,), (0.16,))
    out = np.zeros((trials, 2), dtype=np.float64)
    _rollout(network(w, True), search.make_work(w.hidden), np.asarray(board, dtype=np.int8),
             trials, seed, keep, margin, out)
    return out
