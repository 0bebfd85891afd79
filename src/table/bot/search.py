"""Compiled move choice: 0-ply, 0-ply with noise, and look-ahead over the opponent's rolls.

Plies are counted as GNU Backgammon counts them: 0-ply judges the position
after a play with the network alone; 1-ply averages, over the opponent's 21
rolls, the position after the opponent's best reply (chosen at 0-ply) -- in
the older convention that counts our own move too, this is "2-ply".  The
look-ahead runs only on the candidates that survive a 0-ply move filter.

Every function works on raw boards from the player on roll's side, and on a
``Work`` set of arrays so that nothing is allocated in the hot path.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from table.bot import features
from table.bot.net import EXACT, N_OUTPUTS, equity, evaluate_board, flip_probs
from table.rules import kernel

LEVELS = 3  # nested generate() calls: our move, their reply, our next move


class Work(NamedTuple):
    """Scratch arrays for the compiled search (one set per thread)."""

    hashes: np.ndarray
    boards: np.ndarray
    steps: np.ndarray
    nsteps: np.ndarray
    x: np.ndarray
    hidden: np.ndarray
    scratch: np.ndarray
    cand: np.ndarray
    probs: np.ndarray
    eqs: np.ndarray
    order: np.ndarray


def make_work(hidden: int) -> Work:
    """Scratch arrays for a network with ``hidden`` hidden units."""
    return Work(
        np.empty(kernel.MAX_PLAYS, dtype=np.int64),
        np.empty((LEVELS, kernel.MAX_PLAYS, 26), dtype=np.int8),
        np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8),
        np.empty(kernel.MAX_PLAYS, dtype=np.int8),
        np.zeros(features.N_INPUTS, dtype=np.float32),
        np.zeros(hidden, dtype=np.float32),
        np.empty(26, dtype=np.int8),
        np.empty((LEVELS, 26), dtype=np.int8),
        np.zeros((6, N_OUTPUTS), dtype=np.float32),
        np.zeros((LEVELS, kernel.MAX_PLAYS), dtype=np.float64),
        np.zeros(kernel.MAX_PLAYS, dtype=np.int64),
    )


@njit(cache=True)
def flip_into(src: np.ndarray, dst: np.ndarray) -> None:  # pragma: no cover - compiled
    """``dst`` = ``src`` seen from the other side."""
    for i in range(26):
        dst[i] = -src[25 - i]


@njit(cache=True)
def generate_level(board: np.ndarray, d1: int, d2: int, hashes: np.ndarray, boards: np.ndarray,
                   level: int, steps: np.ndarray, nsteps: np.ndarray) -> int:  # pragma: no cover
    """Legal plays into ``boards[level]`` (mover's view); a pass is one 'play' that changes nothing."""
    n = kernel.generate(board, d1, d2, hashes, boards[level], steps, nsteps)
    if n == 0:
        for i in range(26):
            boards[level, 0, i] = board[i]
        n = 1
    return n


@njit(cache=True)
def score_plays(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, db: np.ndarray,
                boards: np.ndarray, level: int, n: int, x: np.ndarray, hidden: np.ndarray,
                scratch: np.ndarray, cand: np.ndarray, p: np.ndarray,
                eqs: np.ndarray) -> int:  # pragma: no cover - compiled
    """0-ply equity, for the mover, of each play in ``boards[level]``; returns the best index."""
    best = 0
    for c in range(n):
        flip_into(boards[level, c], cand)
        evaluate_board(w1, b1, w2, b2, db, cand, x, hidden, scratch, p)
        eqs[c] = -equity(p)
        if eqs[c] > eqs[best]:
            best = c
    return best


@njit(cache=True)
def _add_turned(acc: np.ndarray, p: np.ndarray, wt: float) -> None:  # pragma: no cover
    """Add ``wt`` times ``p`` turned round: ``p`` is the other side's, after its play."""
    acc[0] += wt * (1.0 - p[0])
    acc[1] += wt * p[3]
    acc[2] += wt * p[4]
    acc[3] += wt * p[1]
    acc[4] += wt * p[2]


@njit(cache=True)
def eval_1ply(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, db: np.ndarray,
              board: np.ndarray, level: int, hashes: np.ndarray, boards: np.ndarray,
              steps: np.ndarray, nsteps: np.ndarray, x: np.ndarray, hidden: np.ndarray,
              scratch: np.ndarray, cand: np.ndarray, eqs: np.ndarray,
              p: np.ndarray, acc: np.ndarray) -> None:  # pragma: no cover - compiled
    """Probabilities for the player on roll at ``board``, averaged over its 21 rolls.

    For each roll the player's best play at 0-ply is taken and the position
    after it judged at 0-ply; ``acc`` receives the average.
    """
    used = evaluate_board(w1, b1, w2, b2, db, board, x, hidden, scratch, p)
    if used < 0 or used == EXACT:
        for k in range(N_OUTPUTS):
            acc[k] = p[k]
        return
    for k in range(N_OUTPUTS):
        acc[k] = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            wt = 1.0 if d1 == d2 else 2.0
            n = generate_level(board, d1, d2, hashes, boards, level, steps, nsteps)
            best = score_plays(w1, b1, w2, b2, db, boards, level, n, x, hidden, scratch,
                               cand[level], p, eqs[level])
            flip_into(boards[level, best], cand[level])
            evaluate_board(w1, b1, w2, b2, db, cand[level], x, hidden, scratch, p)
            _add_turned(acc, p, wt)
    for k in range(N_OUTPUTS):
        acc[k] /= 36.0


@njit(cache=True)
def eval_2ply(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, db: np.ndarray,
              board: np.ndarray, level: int, hashes: np.ndarray, boards: np.ndarray,
              steps: np.ndarray, nsteps: np.ndarray, x: np.ndarray, hidden: np.ndarray,
              scratch: np.ndarray, cand: np.ndarray, eqs: np.ndarray,
              p: np.ndarray, acc: np.ndarray, p_in: np.ndarray, acc_in: np.ndarray) -> None:  # pragma: no cover
    """Like ``eval_1ply`` one level deeper: each roll's best play (at 0-ply) judged at 1-ply."""
    used = evaluate_board(w1, b1, w2, b2, db, board, x, hidden, scratch, p)
    if used < 0 or used == EXACT:
        for k in range(N_OUTPUTS):
            acc[k] = p[k]
        return
    for k in range(N_OUTPUTS):
        acc[k] = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            wt = 1.0 if d1 == d2 else 2.0
            n = generate_level(board, d1, d2, hashes, boards, level, steps, nsteps)
            best = score_plays(w1, b1, w2, b2, db, boards, level, n, x, hidden, scratch,
                               cand[level], p, eqs[level])
            flip_into(boards[level, best], cand[level])
            eval_1ply(w1, b1, w2, b2, db, cand[level], level + 1, hashes, boards, steps, nsteps,
                      x, hidden, scratch, cand, eqs, p_in, acc_in)
            _add_turned(acc, acc_in, wt)
    for k in range(N_OUTPUTS):
        acc[k] /= 36.0


# At depth 2, the plays that survive the 1-ply stage: at most this many, this close.
PLY2_KEEP = 3
PLY2_MARGIN = 0.10


@njit(cache=True)
def choose(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, db: np.ndarray,
           board: np.ndarray, d1: int, d2: int, depth: int, noise: float,
           keep: int, margin: float,
           hashes: np.ndarray, boards: np.ndarray, steps: np.ndarray, nsteps: np.ndarray,
           x: np.ndarray, hidden: np.ndarray, scratch: np.ndarray, cand: np.ndarray,
           probs: np.ndarray, eqs: np.ndarray, order: np.ndarray) -> tuple[int, int]:  # pragma: no cover
    """Choose a play for the player on roll; returns (number of plays, index chosen).

    The plays are left in ``boards[0]`` (mover's view, in the kernel's order;
    a pass is one play that changes nothing).  ``noise`` (a standard
    deviation in equity, drawn from numba's generator) is added to each 0-ply
    judgement.  With ``depth`` 1, the best ``keep`` plays within ``margin``
    of the best at 0-ply are judged again at 1-ply; with ``depth`` 2 the best
    ``PLY2_KEEP`` of those within ``PLY2_MARGIN`` at 1-ply are judged at 2-ply.
    """
    n = generate_level(board, d1, d2, hashes, boards, 0, steps, nsteps)
    e0 = eqs[0]
    best = score_plays(w1, b1, w2, b2, db, boards, 0, n, x, hidden, scratch, cand[0], probs[0], e0)
    if noise > 0.0:
        for c in range(n):
            e0[c] += noise * np.random.standard_normal()
        best = 0
        for c in range(n):
            if e0[c] > e0[best]:
                best = c
    if depth <= 0 or n == 1:
        return n, best
    # The move filter: the best few at 0-ply, within a margin of the best.
    m = 0
    for c in range(n):
        if e0[c] >= e0[best] - margin:
            order[m] = c
            m += 1
    # Partial selection sort of the survivors by 0-ply equity.
    for i in range(m):
        k = i
        for j in range(i + 1, m):
            if e0[order[j]] > e0[order[k]]:
                k = j
        t = order[i]
        order[i] = order[k]
        order[k] = t
        if i + 1 >= keep:
            m = keep
            break
    best_c = order[0]
    best_e = -1e9
    e1 = np.empty(m, dtype=np.float64)
    for i in range(m):
        c = order[i]
        flip_into(boards[0, c], cand[0])
        eval_1ply(w1, b1, w2, b2, db, cand[0], 1, hashes, boards, steps, nsteps, x, hidden,
                  scratch, cand, eqs, probs[1], probs[2])
        e1[i] = -equity(probs[2])
        if e1[i] > best_e:
            best_e = e1[i]
            best_c = c
    if depth < 2 or m == 1:
        return n, best_c
    # Re-rank the survivors by their 1-ply equity and look deeper at the best few.
    for i in range(m):
        k = i
        for j in range(i + 1, m):
            if e1[j] > e1[k]:
                k = j
        t = order[i]
        order[i] = order[k]
        order[k] = t
        te = e1[i]
        e1[i] = e1[k]
        e1[k] = te
    top = e1[0]
    best_e = -1e9
    for i in range(min(m, PLY2_KEEP)):
        if e1[i] < top - PLY2_MARGIN:
            break
        c = order[i]
        flip_into(boards[0, c], cand[0])
        eval_2ply(w1, b1, w2, b2, db, cand[0], 1, hashes, boards, steps, nsteps, x, hidden,
                  scratch, cand, eqs, probs[1], probs[2], probs[3], probs[4])
        e = -equity(probs[2])
        if e > best_e:
            best_e = e
            best_c = c
    return n, best_c


@njit(cache=True)
def evaluate_ply(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, db: np.ndarray,
                 board: np.ndarray, depth: int,
                 hashes: np.ndarray, boards: np.ndarray, steps: np.ndarray, nsteps: np.ndarray,
                 x: np.ndarray, hidden: np.ndarray, scratch: np.ndarray, cand: np.ndarray,
                 probs: np.ndarray, eqs: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """Probabilities for the player on roll at ``board`` at 0, 1 or 2 ply."""
    if depth <= 0:
        evaluate_board(w1, b1, w2, b2, db, board, x, hidden, scratch, out)
    elif depth >= 2:
        eval_2ply(w1, b1, w2, b2, db, board, 0, hashes, boards, steps, nsteps, x, hidden,
                  scratch, cand, eqs, probs[1], out, probs[3], probs[4])
    else:
        eval_1ply(w1, b1, w2, b2, db, board, 1, hashes, boards, steps, nsteps, x, hidden,
                  scratch, cand, eqs, probs[1], out)


__all__ = ["Work", "make_work", "choose", "evaluate_ply", "flip_probs", "flip_into"]
