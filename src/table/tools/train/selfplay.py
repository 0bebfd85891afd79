"""Compiled self-play with TD(lambda) learning: the trainer's whole inner loop.

Each game is played greedily at 0-ply by the current networks, both sides
sharing them.  Every state (the position after a move, seen from the player
then on roll) keeps its inputs, hidden activations and outputs.  When the
game ends the weights learn from it with the lambda-return, the forward view
of TD(lambda), computed backwards from the result:

    G[m] = flip((1 - lam) * V[m+1] + lam * G[m+1]),   G[last] = the result,

where ``flip`` turns probabilities round to the other side.  This is the
offline form of TD(lambda) (Sutton and Barto, section 12.1): the same updates
as eligibility traces applied at the end of the episode, at the cost of one
gradient a state instead of a trace over every weight.  The output layer
learns with the cross-entropy gradient (target minus output), which suits
sigmoid outputs that are probabilities.

The variants whose checkers start off the board (Race, Dutch, Acey-Deucey) play
through the same loop: their 28-entry start board and ``search.rules_of(variant)``
select the reserve generator (``search.generate_any``), and the networks learn
from the folded 26-entry board (``search.fold``: waiting checkers on the bar).
Acey-Deucey's 1-2 is an ordinary roll here (the staged turn, a named double and
another roll, is the match's and ``Bot.choose_double``'s).

Plakoto and Fevga too: ``rules[0] >= search.GREEK`` selects their generator and
boards, ``table.bot.greekfeatures`` encodes and judges them, and a game ends by
their own rules (Plakoto's pinned mother; a draw is learnt as ``(0.5, 0, 0, 0, 0)``
and counts no points in ``stats``).
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, features, greekfeatures, search
from table.bot.net import (
    N_OUTPUTS, RACE, CONTACT, equity, evaluate_board, final_probs, flip_probs, forward, tidy,
)
from table.rules import kernel
from table.rules.board import is_race

MAX_MOVES = 1000


@njit(cache=True)
def roll_dice(first: bool) -> tuple[int, int]:  # pragma: no cover - compiled
    """Two dice from numba's generator; the opening roll is never a double."""
    while True:
        a = np.random.randint(1, 7)
        b = np.random.randint(1, 7)
        if not first or a != b:
            return a, b


@njit(cache=True)
def random_race(board: np.ndarray, checkers: int = 15) -> None:  # pragma: no cover - compiled
    """Write a random race into ``board``: no contact, each side with ``checkers``.

    A split point ``s`` (8..17) separates the sides; each side's checkers lie
    on its own points 1..s (the mover) or 1..24-s (the opponent), more of them
    nearer home, as in races that follow the breaking of contact.
    """
    for i in range(26):
        board[i] = 0
    s = np.random.randint(8, 18)
    for side in range(2):
        top = s if side == 0 else 24 - s
        for _c in range(checkers):
            u = np.random.random()
            p = 1 + int(top * u ** 1.3)
            if p > top:
                p = top
            if side == 0:
                board[p] += 1
            else:
                board[25 - p] -= 1


@njit(cache=True)
def _td_update(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
    x: np.ndarray, h: np.ndarray, raw: np.ndarray, net: int, target: np.ndarray,
    alpha: float, dh: np.ndarray,
) -> None:  # pragma: no cover - compiled
    nh = b1.shape[1]
    # Normalised steps: alpha is the share of the error each layer corrects
    # in one update, whatever the layer's width (plain steps diverge: with
    # 128 hidden units a step of 0.1 overshoots the target several times).
    hh = 1.0
    for j in range(nh):
        hh += h[j] * h[j]
    xx = 1.0
    for i in range(x.shape[0]):
        xx += x[i] * x[i]
    a2 = alpha / hh
    a1 = alpha / xx
    for j in range(nh):
        s = 0.0
        for k in range(N_OUTPUTS):
            s += (target[k] - raw[k]) * w2[net, j, k]
        dh[j] = s * h[j] * (1.0 - h[j])
    for k in range(N_OUTPUTS):
        d = a2 * (target[k] - raw[k])
        b2[net, k] += d
        for j in range(nh):
            w2[net, j, k] += d * h[j]
    for j in range(nh):
        b1[net, j] += a1 * dh[j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            a = a1 * xi
            row = w1[net, i]
            for j in range(nh):
                row[j] += a * dh[j]


@njit(cache=True)
def play_and_learn(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
    db: np.ndarray, n_games: int, seed: int, alpha: float, lam: float, stats: np.ndarray,
    races: bool, start: np.ndarray, checkers: int, rules: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Play ``n_games`` of self-play from ``start`` (a variant's start board, each side with
    ``checkers``; ``db`` is built for them; ``rules`` its ``search.rules_of``, which reads
    a 28-entry board for checkers waiting off the board), learning after each.

    With ``races``, each game starts instead from a random race (see
    ``random_race``): a pass that teaches the race network positions that
    games from the start rarely reach.

    ``stats`` (int64[9]) accumulates: games, moves, first-player points won,
    single wins, gammons, backgammons, games abandoned at ``MAX_MOVES``,
    candidate positions evaluated, and games ended early because both sides
    reached the bear-off database ``db`` (whose exact chances then serve as
    the result; pass an empty database to play every game out).
    """
    np.random.seed(seed)
    ni = features.N_INPUTS
    nh = b1.shape[1]
    hashes = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    # TD(lambda) trains one hidden layer (its gradient below): no second layer.
    no_wh = np.zeros((2, w1.shape[2], 0), dtype=np.float32)
    no_bh = np.zeros((2, 0), dtype=np.float32)
    width = start.shape[0]
    out_boards = np.empty((kernel.MAX_PLAYS, width), dtype=np.int8)
    out_steps = np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8)
    out_nsteps = np.empty(kernel.MAX_PLAYS, dtype=np.int8)
    xs = np.zeros((MAX_MOVES, ni), dtype=np.float32)
    hs = np.zeros((MAX_MOVES, nh), dtype=np.float32)
    raws = np.zeros((MAX_MOVES, N_OUTPUTS), dtype=np.float32)
    vals = np.zeros((MAX_MOVES, N_OUTPUTS), dtype=np.float64)
    nets = np.zeros(MAX_MOVES, dtype=np.int64)
    x = np.zeros(ni, dtype=np.float32)
    hid = np.zeros(nh, dtype=np.float32)
    p = np.zeros(N_OUTPUTS, dtype=np.float32)
    g = np.zeros(N_OUTPUTS, dtype=np.float64)
    mix = np.zeros(N_OUTPUTS, dtype=np.float64)
    tgt = np.zeros(N_OUTPUTS, dtype=np.float32)
    dh = np.zeros(nh, dtype=np.float32)
    scratch = np.empty(26, dtype=np.int8)
    folded = np.empty(26, dtype=np.int8)
    cand = np.empty(width, dtype=np.int8)
    board = np.empty(width, dtype=np.int8)
    greek = rules[0] >= search.GREEK
    game = rules[0] - search.GREEK
    for _game in range(n_games):
        if races:
            board[:] = 0  # a race has every checker on the board
            random_race(board, checkers)
        else:
            for i in range(width):
                board[i] = start[i]
        m = 0
        finished = False
        while m < MAX_MOVES:
            d1, d2 = roll_dice(m == 0 and not races)
            n = search.generate_any(board, d1, d2, rules, hashes, out_boards, out_steps,
                                    out_nsteps)
            best = -1
            best_eq = -1e9
            for c in range(n):
                search.turn_for(out_boards[c], cand, rules)
                if greek:
                    greekfeatures.judge(w1, b1, no_wh, no_bh, w2, b2, cand, game, x, hid, p,
                                        checkers)
                else:
                    evaluate_board(w1, b1, no_wh, no_bh, w2, b2, db, search.fold(cand, folded),
                                   x, hid, scratch, p, checkers)
                eq = -equity(p)
                stats[7] += 1
                if eq > best_eq:
                    best_eq = eq
                    best = c
            search.turn_for(out_boards[best], board, rules)
            seen = board if greek else search.fold(board, folded)  # what the networks read
            over = (greekfeatures.outcome(seen, game, checkers, p) if greek
                    else final_probs(seen, p, checkers))
            if over:
                for k in range(N_OUTPUTS):
                    vals[m, k] = p[k]
                nets[m] = -1
                finished = True
                # The player who just moved is the first player when m is even; it won
                # (a Greek draw, p[0] = 0.5, counts none).
                pts = 0 if p[0] > 0.0 else 1 + int(p[3]) + int(p[4])
                stats[2] += pts if m % 2 == 0 else -pts
                if pts:
                    stats[3 + pts - 1] += 1
                m += 1
                break
            if bearoff.applies(db, seen):
                bearoff.probabilities(db, seen, p, checkers)
                for k in range(N_OUTPUTS):
                    vals[m, k] = p[k]
                nets[m] = -1
                finished = True
                stats[8] += 1
                m += 1
                break
            if greek:
                net = greekfeatures.pick_net(seen, game)
                greekfeatures.encode(seen, game, xs[m])
            else:
                net = RACE if is_race(seen) else CONTACT
                features.encode(seen, xs[m], scratch)
            forward(w1, b1, w2, b2, net, xs[m], hs[m], raws[m])
            for k in range(N_OUTPUTS):
                p[k] = raws[m, k]
            if greek:
                greekfeatures.tidy(seen, p, checkers)
            else:
                tidy(seen, p, checkers)
            for k in range(N_OUTPUTS):
                vals[m, k] = p[k]
            nets[m] = net
            m += 1
        stats[1] += m
        if not finished:
            stats[6] += 1
            continue
        stats[0] += 1
        # The lambda-return, backwards from the result (state m-1).
        for k in range(N_OUTPUTS):
            g[k] = vals[m - 1, k]
        for t in range(m - 2, -1, -1):
            for k in range(N_OUTPUTS):
                mix[k] = (1.0 - lam) * vals[t + 1, k] + lam * g[k]
            flip_probs(mix, g)
            for k in range(N_OUTPUTS):
                tgt[k] = g[k]
            _td_update(w1, b1, w2, b2, xs[t], hs[t], raws[t], nets[t], tgt, alpha, dh)
