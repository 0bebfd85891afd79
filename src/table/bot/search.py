"""Compiled move choice: the network's judgement, with look-ahead over the rolls to come.

Plies are counted as GNU Backgammon counts them: 0-ply judges the position
after a play with the network alone; n-ply averages, over the opponent's 21
rolls, the position after the opponent's best reply (chosen at 0-ply) judged
at (n-1)-ply -- in the older convention that counts our own move too, 1-ply
is "2-ply".  One function, ``evaluate``, does every depth.

A play is chosen in stages, as the strongest programs do: every legal play is
judged at 0-ply; the best few within an equity window of the best (``keep[0]``,
``margin[0]``) are judged again at 1-ply; of those, the best few within
``margin[1]`` at 1-ply are judged at 2-ply, and so on down to the depth asked.

Every function works on raw boards from the player on roll's side; the
networks travel as a ``Net`` and the scratch arrays as a ``Work`` so that
nothing is allocated in the hot path.

The same code searches the variants whose checkers start off the board (Race,
Dutch, Acey-Deucey): their boards have 28 entries (``table.rules.reservekernel``),
a ``Work`` made for the variant (``make_work(hidden, variant)``) holds them and
the reserve rules, ``generate_level`` then calls ``generate_reserve``, ``turn``
turns either width round, and the networks judge the folded 26-entry board
(the waiting checkers counted on each side's bar, ``table.rules.reserve.folded``).

And the Greek games without hitting (Plakoto, Fevga): ``make_work(hidden, variant)``
holds their boards (50 entries for Plakoto's pins, 26 for Fevga's, both sides in
the mover's numbering), ``generate_any`` calls ``greekkernel.generate_greek``,
``turn_for`` turns them round, and ``table.bot.greekfeatures`` encodes and judges
them (finished games exactly, the mother rule and draws included); no bear-off
database (``make_net(weights, bearoff.empty())``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, features, greekfeatures
from table.bot.net import N_OUTPUTS, Weights, equity, evaluate_board, final_probs, flip_probs
from table.rules import kernel
from table.rules.board import BAR, BOARD_SIZE, CHECKERS, OFF, flip, is_race
from table.rules.greek import game_for
from table.rules.greekkernel import generate_greek, turn_round
from table.rules.reservekernel import RESERVE, RESERVE_BOARD_SIZE, THEIR_RESERVE, flip_reserve, generate_reserve
from table.rules.variant import STANDARD, Variant

# ``Work.rules[0]``: which generator and board (``rules_of``); a Greek game's is GREEK + its code.
STANDARD_BOARD = 0
RESERVE_BOARD = 1
GREEK = 2
MAX_DEPTH = 2  # the deepest search the scratch arrays have room for
# ``Work.tally``: the plays judged since ``choose`` began; its budget (0: none); the count when
# the stage being judged began, and how many of its candidates are still to judge; 1 once the
# stage is given up (``over_budget``).
COUNT_JUDGED, COUNT_BUDGET, COUNT_START, COUNT_REST, COUNT_OVER, COUNT_SIZE = 0, 1, 2, 3, 4, 5
LEVELS = MAX_DEPTH + 1  # nested generate() calls: our move, then one per ply below it


class Net(NamedTuple):
    """What judges a position: the two networks' arrays (see ``Weights``) and a bear-off database."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    db: np.ndarray
    wh: np.ndarray  # the second hidden layer; no units when there is one layer
    bh: np.ndarray
    checkers: int = CHECKERS  # each side's at the start: the variant's (who is gammoned)


def make_net(weights: Weights, db: np.ndarray, checkers: int = CHECKERS) -> Net:
    """The arrays of ``weights`` with the bear-off database ``db`` (``bearoff.empty()`` for none),
    for a variant with ``checkers`` a side (``db`` built for them: ``bearoff.database(checkers)``)."""
    return Net(weights.w1, weights.b1, weights.w2, weights.b2, db, *weights.second_layer(), checkers)


class Work(NamedTuple):
    """Scratch arrays for the compiled search (one set per thread); ``level`` rows per ply."""

    hashes: np.ndarray  # the move generator's duplicate check
    boards: np.ndarray  # [level, play]: the legal plays, mover's view
    steps: np.ndarray
    nsteps: np.ndarray
    x: np.ndarray  # network inputs
    hidden: np.ndarray  # network hidden activations
    scratch: np.ndarray  # the encoder's
    cand: np.ndarray  # [level]: a play turned round, the side then on roll's view
    node: np.ndarray  # [level]: the position being looked ahead from
    roll: np.ndarray  # [level]: the next of its 21 rolls
    p: np.ndarray  # [level]: chances of the play being judged
    best_p: np.ndarray  # [level]: chances after the best play of that level
    acc: np.ndarray  # [level]: the sum over the rolls
    res: np.ndarray  # [level]: what the level below returned
    eqs: np.ndarray  # [level, play]: equity of each play for its mover
    order: np.ndarray  # the root's candidates, best first
    rules: np.ndarray  # int64[4]: the board (``rules_of``), then reserve_first, hit_needs_home, bar_first
    folded: np.ndarray  # int8[26]: a 28-entry board folded for the networks
    tally: np.ndarray  # int64[5]: ``choose``'s budget, see ``COUNT_*``


def make_work(hidden: int, variant: Variant = STANDARD) -> Work:
    """Scratch arrays for a network with ``hidden`` hidden units, searching ``variant``'s boards
    (28 entries and the reserve generator when its checkers start off the board; Plakoto's 50)."""
    chances = (LEVELS, N_OUTPUTS)
    width = board_width(variant)
    return Work(
        np.empty(kernel.MAX_PLAYS, dtype=np.int64),
        np.empty((LEVELS, kernel.MAX_PLAYS, width), dtype=np.int8),
        np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8),
        np.empty(kernel.MAX_PLAYS, dtype=np.int8),
        np.zeros(features.N_INPUTS, dtype=np.float32),
        np.zeros(hidden, dtype=np.float32),
        np.empty(BOARD_SIZE, dtype=np.int8),
        np.empty((LEVELS, width), dtype=np.int8),
        np.empty((LEVELS, width), dtype=np.int8),
        np.zeros(LEVELS, dtype=np.int64),
        np.zeros(chances, dtype=np.float32),
        np.zeros(chances, dtype=np.float32),
        np.zeros(chances, dtype=np.float32),
        np.zeros(chances, dtype=np.float32),
        np.zeros((LEVELS, kernel.MAX_PLAYS), dtype=np.float64),
        np.zeros(kernel.MAX_PLAYS, dtype=np.int64),
        rules_of(variant),
        np.empty(BOARD_SIZE, dtype=np.int8),
        np.zeros(COUNT_SIZE, dtype=np.int64),
    )


def board_width(variant: Variant) -> int:
    """Entries of ``variant``'s raw board in the search: 26, 28 (reserve) or 50 (Plakoto)."""
    game = game_for(variant.rules)
    if game is not None:
        return game.size
    return RESERVE_BOARD_SIZE if variant.entry == "reserve" else BOARD_SIZE


def filters(keep: tuple[int, ...], margin: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Move filters for ``choose``, one per stage up to ``MAX_DEPTH``; the last repeats.

    >>> filters((8, 3), (0.16, 0.1))
    (array([8, 3]), array([0.16, 0.1 ]))
    >>> filters((5,), (0.2,))[0]
    array([5, 5])
    """
    if not keep or not margin or min(keep) < 1 or min(margin) < 0.0:
        raise ValueError(f"move filter {keep!r}, {margin!r}: keep at least 1 play per stage, "
                         "within a margin of at least 0")
    k = [keep[min(i, len(keep) - 1)] for i in range(MAX_DEPTH)]
    m = [margin[min(i, len(margin) - 1)] for i in range(MAX_DEPTH)]
    return np.array(k, dtype=np.int64), np.array(m, dtype=np.float64)


@njit(cache=True)
def turn(board: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Write into ``out`` the board (26 or 28 entries) as the opponent sees it."""
    if board.shape[0] == RESERVE_BOARD_SIZE:
        flip_reserve(board, out)
    else:
        flip(board, out)


@njit(cache=True)
def turn_for(board: np.ndarray, out: np.ndarray, rules: np.ndarray) -> None:  # pragma: no cover
    """``turn`` for any board the search holds (``rules`` as ``rules_of``: Fevga's 26 entries
    turn round by rotation, not by the standard flip)."""
    if rules[0] >= GREEK:
        turn_round(board, out)
    else:
        turn(board, out)


@njit(cache=True)
def fold(board: np.ndarray, out: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The 26-entry board the networks read: ``board`` itself, or a 28-entry one folded into
    ``out`` (each side's waiting checkers on its bar, as ``table.rules.reserve.folded``)."""
    if board.shape[0] == BOARD_SIZE:
        return board
    for i in range(BOARD_SIZE):
        out[i] = board[i]
    out[BAR] += board[RESERVE]
    out[OFF] += board[THEIR_RESERVE]
    return out


@njit(cache=True)
def judged(work: Work, board: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """``fold`` into ``work.folded``."""
    return fold(board, work.folded)


@njit(cache=True)
def game_over(net: Net, work: Work, board: np.ndarray,
              out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """``final_probs`` of a board of any width: whether the game is over, its outcome in ``out``
    (a Greek game's by its own rules: a draw is ``(0.5, 0, 0, 0, 0)``)."""
    if work.rules[0] >= GREEK:
        return greekfeatures.outcome(board, work.rules[0] - GREEK, net.checkers, out)
    return final_probs(judged(work, board), out, net.checkers)


@njit(cache=True)
def judge(net: Net, work: Work, board: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """0-ply chances of ``board`` (any width the search holds) for its player on roll."""
    if work.rules[0] >= GREEK:
        greekfeatures.judge(net.w1, net.b1, net.wh, net.bh, net.w2, net.b2, board,
                            work.rules[0] - GREEK, work.x, work.hidden, out, net.checkers)
    else:
        evaluate_board(net.w1, net.b1, net.wh, net.bh, net.w2, net.b2, net.db,
                       judged(work, board), work.x, work.hidden, work.scratch, out, net.checkers)


def rules_of(variant: Variant) -> np.ndarray:
    """``Work.rules`` for ``variant``: which generator and board (``STANDARD_BOARD``,
    ``RESERVE_BOARD``, ``GREEK`` + the Greek game's code), and the reserve flags it reads."""
    r = variant.rules
    game = game_for(r)
    kind = RESERVE_BOARD if variant.entry == "reserve" else STANDARD_BOARD
    if game is not None:
        kind = GREEK + game.code
    return np.array([kind, r.reserve_first, r.hit_needs_home, r.bar_first], dtype=np.int64)


@njit(cache=True)
def generate_any(board: np.ndarray, d1: int, d2: int, rules: np.ndarray, hashes: np.ndarray,
                 out_boards: np.ndarray, out_steps: np.ndarray,
                 out_nsteps: np.ndarray) -> int:  # pragma: no cover - compiled
    """Legal plays of any board the search holds (``rules`` as ``rules_of``) into ``out_boards``
    (mover's view); a pass is one 'play' that changes nothing."""
    if rules[0] == RESERVE_BOARD:
        n = generate_reserve(board, d1, d2, rules[1], rules[2], rules[3], hashes, out_boards,
                             out_steps, out_nsteps)
    elif rules[0] >= GREEK:
        # Which steps pinned is the notation's business, not the search's: a throwaway array.
        hits = np.empty((out_boards.shape[0], 4), dtype=np.bool_)
        n = generate_greek(board, d1, d2, rules[0] - GREEK, hashes, out_boards, out_steps,
                           out_nsteps, hits)
    else:
        n = kernel.generate(board, d1, d2, hashes, out_boards, out_steps, out_nsteps)
    if n == 0:
        for i in range(board.shape[0]):
            out_boards[0, i] = board[i]
        n = 1
    return n


@njit(cache=True)
def generate_level(board: np.ndarray, d1: int, d2: int, work: Work,
                   level: int) -> int:  # pragma: no cover - compiled
    """Legal plays into ``work.boards[level]`` (mover's view); a pass is one 'play' that changes nothing."""
    return generate_any(board, d1, d2, work.rules, work.hashes, work.boards[level], work.steps,
                        work.nsteps)


@njit(cache=True)
def score_plays(net: Net, work: Work, level: int, n: int) -> int:  # pragma: no cover - compiled
    """0-ply equity, for the mover, of each play in ``work.boards[level]`` into ``work.eqs[level]``.

    Returns the best index; ``work.best_p[level]`` receives the chances after
    it, for the side then on roll.
    """
    eqs = work.eqs[level]
    cand = work.cand[level]
    p = work.p[level]
    best = 0
    work.tally[COUNT_JUDGED] += n
    for c in range(n):
        turn_for(work.boards[level, c], cand, work.rules)
        judge(net, work, cand, p)
        eqs[c] = -equity(p)
        if c == 0 or eqs[c] > eqs[best]:
            best = c
            for k in range(N_OUTPUTS):
                work.best_p[level, k] = p[k]
    return best


@njit(cache=True)
def _add_turned(acc: np.ndarray, p: np.ndarray, wt: float) -> None:  # pragma: no cover
    """Add ``wt`` times ``p`` turned round: ``p`` is the other side's, after its play."""
    acc[0] += wt * (1.0 - p[0])
    acc[1] += wt * p[3]
    acc[2] += wt * p[4]
    acc[3] += wt * p[1]
    acc[4] += wt * p[2]


# The 21 rolls in the order the look-ahead takes them, and how many of the 36 each stands for.
_ROLLS = np.array([(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)], dtype=np.int64)


@njit(cache=True)
def _exact(net: Net, board: np.ndarray, out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Exact chances into ``out`` when the game is over or the bear-off database knows them."""
    if final_probs(board, out, net.checkers):
        return True
    if bearoff.applies(net.db, board):
        bearoff.probabilities(net.db, board, out, net.checkers)
        return True
    return False


@njit(cache=True)
def exact_for(net: Net, work: Work, board: np.ndarray,
              out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """``_exact`` for any board the search holds (a Greek game: only a finished one)."""
    if work.rules[0] >= GREEK:
        return greekfeatures.outcome(board, work.rules[0] - GREEK, net.checkers, out)
    return _exact(net, judged(work, board), out)


@njit(cache=True)
def evaluate(net: Net, work: Work, board: np.ndarray, depth: int, level: int,
             out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Chances for the player on roll at ``board``, looking ``depth`` plies ahead, into ``out``.

    At depth 0 the network (or the bear-off database, or the finished game)
    judges.  Deeper, for each of the 21 rolls the player's best play is found
    at 0-ply and the position after it judged at ``depth - 1``; ``out``
    receives the average.  Uses the scratch rows ``level`` to
    ``level + depth - 1``.

    The recursion runs on an explicit stack, one row per ply (numba cannot
    load a recursive function from its cache when another cached function
    calls it): ``work.node[lv]`` is the position judged at row ``lv``,
    ``work.roll[lv]`` the next of its rolls, ``work.acc[lv]`` the sum so far.
    """
    if depth <= 0:
        judge(net, work, board, out)
        return
    if exact_for(net, work, board, out):
        return
    top = level
    last = level + depth - 1  # the row whose replies are judged at 0-ply
    # (A 28-entry board is looked ahead from as it is: the bear-off classes are the 26-entry's.)
    if (work.rules[0] == STANDARD_BOARD and is_race(board)
            and bearoff.equivalent_differs(net.db, board)):
        # Look ahead from the bear-off classes' representatives, as 0-ply judges: positions
        # whose home sides have the same roll distributions get the same chances at any depth.
        bearoff.canonical_into(net.db, board, work.node[top])
    else:
        for i in range(board.shape[0]):
            work.node[top, i] = board[i]
    work.roll[top] = 0
    work.acc[top, :] = 0.0
    lv = top
    while True:
        if over_budget(work.tally, 0):
            return  # what ``out`` holds counts for nothing
        r = work.roll[lv]
        if r == 21:
            for k in range(N_OUTPUTS):
                work.res[lv, k] = work.acc[lv, k] / 36.0
            if lv == top:
                for k in range(N_OUTPUTS):
                    out[k] = work.res[top, k]
                return
            lv -= 1
            r = work.roll[lv]
            _add_turned(work.acc[lv], work.res[lv + 1], 1.0 if _ROLLS[r, 0] == _ROLLS[r, 1] else 2.0)
            work.roll[lv] = r + 1
            continue
        d1 = _ROLLS[r, 0]
        d2 = _ROLLS[r, 1]
        wt = 1.0 if d1 == d2 else 2.0
        n = generate_level(work.node[lv], d1, d2, work, lv)
        best = score_plays(net, work, lv, n)
        if lv == last:
            # The best play was judged at 0-ply while it was chosen.
            _add_turned(work.acc[lv], work.best_p[lv], wt)
            work.roll[lv] = r + 1
            continue
        child = work.node[lv + 1]
        turn_for(work.boards[lv, best], child, work.rules)
        if exact_for(net, work, child, work.res[lv + 1]):
            _add_turned(work.acc[lv], work.res[lv + 1], wt)
            work.roll[lv] = r + 1
            continue
        lv += 1
        work.roll[lv] = 0
        work.acc[lv, :] = 0.0


@njit(cache=True)
def _keep_best(eqs: np.ndarray, order: np.ndarray, m: int, keep: int,
               margin: float) -> int:  # pragma: no cover - compiled
    """The move filter: of the plays ``order[:m]``, keep the best ``keep`` within ``margin``.

    Leaves them first in ``order``, best first by ``eqs``; returns how many.
    """
    top = eqs[order[0]]
    for i in range(1, m):
        top = max(top, eqs[order[i]])
    kept = 0
    for i in range(m):
        if eqs[order[i]] >= top - margin:
            order[kept] = order[i]
            kept += 1
    # Partial selection sort: only the first ``keep`` places matter.
    for i in range(min(kept, keep)):
        k = i
        for j in range(i + 1, kept):
            if eqs[order[j]] > eqs[order[k]]:
                k = j
        t = order[i]
        order[i] = order[k]
        order[k] = t
    return min(kept, keep)


@njit(cache=True)
def choose(net: Net, work: Work, board: np.ndarray, d1: int, d2: int, depth: int, noise: float,
           keep: np.ndarray, margin: np.ndarray, budget: int = 0) -> tuple[int, int]:  # pragma: no cover
    """Choose a play for the player on roll; returns (number of plays, index chosen).

    The plays are left in ``work.boards[0]`` (mover's view, in the kernel's
    order; a pass is one play that changes nothing).  ``noise`` (a standard
    deviation in equity, drawn from numba's generator) is added to each 0-ply
    judgement.  Then, for each ply up to ``depth``, the plays that pass the
    filter of the stage before (``keep[s]`` plays at most, within
    ``margin[s]`` of the best, see ``filters``) are judged one ply deeper.
    The play chosen is the best at the deepest stage (the first such, in the
    order of the stage before, on a tie).

    ``budget`` (0: none) caps the plays judged in all, the root's included: a stage
    whose look-ahead passes it, or is foreseen to from the candidates it has judged
    (``over_budget``), is given up and the stage before decides.  It is counted in
    plays judged, not in time, so that a choice does not depend on the machine;
    ``work.tally[COUNT_JUDGED]`` is left holding how many were judged.
    """
    count = work.tally
    count[:] = 0
    n = generate_level(board, d1, d2, work, 0)
    eqs = work.eqs[0]  # each play's equity at the deepest stage it reached
    best = score_plays(net, work, 0, n)
    if noise > 0.0:
        for c in range(n):
            eqs[c] += noise * np.random.standard_normal()
        best = 0
        for c in range(n):
            if eqs[c] > eqs[best]:
                best = c
    if depth <= 0 or n == 1:
        return n, best
    order = work.order
    for c in range(n):
        order[c] = c
    m = n
    count[COUNT_BUDGET] = budget
    for stage in range(min(depth, MAX_DEPTH)):
        m = _keep_best(eqs, order, m, keep[stage], margin[stage])
        if m == 1:
            break
        saved = np.empty(m, dtype=np.float64)
        for i in range(m):
            saved[i] = eqs[order[i]]
        count[COUNT_START] = count[COUNT_JUDGED]
        for i in range(m):
            c = order[i]
            turn_for(work.boards[0, c], work.cand[0], work.rules)
            evaluate(net, work, work.cand[0], stage + 1, 1, work.res[0])
            eqs[c] = -equity(work.res[0])
            count[COUNT_REST] = m - 1 - i
            if over_budget(count, i + 1):
                break
        if over_budget(count, 0):
            for i in range(m):
                eqs[order[i]] = saved[i]
            m = 1  # ``_keep_best`` put the best of the stage before first
            break
    count[COUNT_BUDGET] = 0
    best = order[0]
    for i in range(1, m):
        if eqs[order[i]] > eqs[best]:
            best = order[i]
    return n, best


@njit(cache=True)
def over_budget(count: np.ndarray, done: int) -> bool:  # pragma: no cover - compiled
    """Whether ``choose``'s stage is to be given up (``count`` as ``Work.tally``; once so, it
    stays so, in ``COUNT_OVER``): its budget is spent, or foreseen to be once ``done`` of its
    candidates are judged (0: look at the spent budget alone), each of the ``COUNT_REST``
    after them costing what those did on average.

    >>> count = np.array([0, 9000, 1000, 3, 0])  # the stage began at 1,000 plays judged
    >>> count[0] = 4000; bool(over_budget(count, 1))  # 4,000 + 3 x 3,000: foreseen over
    True
    >>> count[:] = [4000, 0, 1000, 3, 0]; bool(over_budget(count, 1))  # no budget
    False
    """
    if count[COUNT_BUDGET] <= 0:
        return False
    if count[COUNT_OVER] == 0:
        foreseen = count[COUNT_JUDGED]
        if done > 0:
            foreseen += (count[COUNT_JUDGED] - count[COUNT_START]) * count[COUNT_REST] // done
        if foreseen > count[COUNT_BUDGET]:
            count[COUNT_OVER] = 1
    return bool(count[COUNT_OVER] == 1)


# For other compiled loops that walk the 21 rolls (the rollout labeller).
ROLLS = _ROLLS
add_turned = _add_turned
exact = _exact
flip_into = flip  # the name the tools knew: ``table.rules.board.flip``

__all__ = ["MAX_DEPTH", "ROLLS", "Net", "Work", "make_net", "make_work", "filters", "choose",
           "evaluate", "exact", "add_turned", "flip_probs", "flip_into", "turn", "judged",
           "game_over", "generate_level", "generate_any", "rules_of", "fold", "turn_for", "judge",
           "exact_for", "board_width", "GREEK", "over_budget", "COUNT_JUDGED", "COUNT_OVER"]
