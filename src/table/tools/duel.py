"""Compiled cubeless money games between two players, with duplicate dice.

Each pair of games uses one dice stream twice, the players swapping sides, so
that much of the luck cancels.  A player is pubeval, the rule-based player,
random, or a network (0-ply, 0-ply with noise, or look-ahead with move filters).
Used by the trainer's periodic strength check and by ``table bench strength``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from table.jitcache import njit

from table.bot import bearoff, search
from table.bot.net import Weights
from table.errors import TableError
from table.rules import kernel
from table.rules.board import BOARD_SIZE, checkers_on
from table.rules.greek import game_for
from table.rules.reservekernel import RESERVE
from table.rules.position import Position
from table.rules.variant import STANDARD, Variant, find_variant
from table.tools import greekrules, pubeval, rulebased

PUBEVAL = 0
NETWORK = 1
RANDOM = 2
RULES = 3  # the rule-based player of ``table.tools.rulebased``
MAX_TURNS = 1200


@dataclass(frozen=True)
class Player:
    """One side of a duel: a kind, and for networks the weights and search settings."""

    kind: int  # PUBEVAL, NETWORK, RANDOM or RULES
    weights: Weights | None = None
    depth: int = 0
    noise: float = 0.0
    keep: tuple[int, ...] = (8, 3)  # move filters, as in bot.LevelSettings
    margin: tuple[float, ...] = (0.16, 0.10)
    bearoff: bool = True
    budget: int = 0  # plays judged at most a choice (``search.choose``), 0 for no cap


@njit(cache=True)
def play_turn(
    side: int, board: np.ndarray, d1: int, d2: int, kinds: np.ndarray, depths: np.ndarray,
    noises: np.ndarray, keeps: np.ndarray, margins: np.ndarray, budgets: np.ndarray,
    net_a: search.Net, net_b: search.Net, pw: np.ndarray, work: search.Work, px: np.ndarray,
) -> bool:  # pragma: no cover - compiled
    """Player ``side`` plays ``d1``-``d2``; ``board`` is left turned round for the other side.

    Returns True when the play ended the game; ``work.p[0]`` then holds the
    final chances from the other side's view (lose gammon, lose backgammon).
    """
    kind = kinds[side]
    if kind == PUBEVAL:
        n = search.generate_level(board, d1, d2, work, 0)
        best = pubeval.pick(pw, board, work.boards[0], n, px)
    elif kind == RANDOM:
        n = search.generate_level(board, d1, d2, work, 0)
        best = np.random.randint(0, n)
    elif kind == RULES:
        n = search.generate_level(board, d1, d2, work, 0)
        if work.rules[0] >= search.GREEK:
            best = greekrules.pick(board, work.boards[0], n, work.rules[0] - search.GREEK)
        else:
            best = rulebased.pick(board, work.boards[0], n)
    else:
        n, best = search.choose(net_a if side == 0 else net_b, work, board, d1, d2,
                                depths[side], noises[side], keeps[side], margins[side],
                                budgets[side])
    search.turn_for(work.boards[0, best], board, work.rules)
    return search.game_over(net_a, work, board, work.p[0])


@njit(cache=True)
def _play_game(
    first: int, dice: np.ndarray, kinds: np.ndarray, depths: np.ndarray, noises: np.ndarray,
    keeps: np.ndarray, margins: np.ndarray, budgets: np.ndarray, net_a: search.Net,
    net_b: search.Net, pw: np.ndarray, start: np.ndarray, work: search.Work, px: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """Points won by player 0 (negative if lost); 0 if abandoned at ``MAX_TURNS`` or drawn
    (Plakoto's two pinned mothers)."""
    board = start.copy()
    side = first
    for turn in range(MAX_TURNS):
        if play_turn(side, board, dice[turn, 0], dice[turn, 1], kinds, depths, noises, keeps,
                     margins, budgets, net_a, net_b, pw, work, px):
            if work.p[0, 0] > 0.0:  # the side now on roll did not lose: a Greek draw
                return 0
            pts = 1 + int(work.p[0, 3]) + int(work.p[0, 4])
            return pts if side == 0 else -pts
        side = 1 - side
    return 0


@njit(cache=True)
def draw_dice(dice: np.ndarray) -> None:  # pragma: no cover - compiled
    """A game's dice stream into ``dice`` (turns, 2); the opening roll is never a double."""
    for t in range(len(dice)):
        while True:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
            if t > 0 or a != b:
                break
        dice[t, 0] = a
        dice[t, 1] = b


@njit(cache=True)
def play_pairs(
    n_pairs: int, seed: int, kinds: np.ndarray, depths: np.ndarray, noises: np.ndarray,
    keeps: np.ndarray, margins: np.ndarray, budgets: np.ndarray, net_a: search.Net,
    net_b: search.Net, pw: np.ndarray, start: np.ndarray, results: np.ndarray,
    work: search.Work,
) -> None:  # pragma: no cover - compiled
    """Play ``n_pairs`` duplicate pairs; ``results[i]`` = player 0's points in the pair's two games."""
    np.random.seed(seed)
    dice = np.empty((MAX_TURNS, 2), dtype=np.int64)
    px = np.empty(pubeval.N_INPUTS, dtype=np.float64)
    for i in range(n_pairs):
        draw_dice(dice)
        total = 0
        for first in range(2):
            total += _play_game(first, dice, kinds, depths, noises, keeps, margins, budgets,
                                net_a, net_b, pw, start, work, px)
        results[i] = total


START = np.array(Position.initial().board, dtype=np.int8)


def start_board(variant: Variant | str = STANDARD, greek: bool = False) -> np.ndarray:
    """The raw start board of ``variant`` for compiled self-play and duels.

    Refuses a variant the compiled players cannot play yet (a step rule the
    kernel does not know); Plakoto and Fevga (``table.rules.greek``) only to
    callers that play their boards (``greek``: the duels and self-play do, the
    refinement pass and the cubeful duels do not).  The players read the variant's checkers a side
    from this board (``checkers_on``): who is gammoned depends on them.

    >>> bool((start_board("standard") == START).all())
    True
    >>> int(start_board("nackgammon")[23])  # two checkers on the 23-point
    2
    >>> start_board("hypergammon")[22:25].tolist()  # one each on the 22-, 23- and 24-points
    [1, 1, 1]
    >>> start_board("race")[26:].tolist()  # 28 entries: all fifteen wait off the board
    [15, -15]
    >>> len(start_board("plakoto", greek=True)), int(start_board("fevga", greek=True)[12])
    (50, -15)
    """
    v = find_variant(variant)
    if greek and game_for(v.rules) is not None:
        return np.array(Position.initial(v).board, dtype=np.int8)
    # Checkers waiting off the board have the 28-entry board and its own generator
    # (reservekernel), which ``search.make_work(hidden, variant)`` selects.
    if v.entry == "bar" and not kernel.supports(v.rules):
        raise TableError(f"the benchmarks and trainers play variants on the standard rules; "
                         f"{v.name} is not one yet")
    return np.array(Position.initial(v).board, dtype=np.int8)


def _db(p: Player, checkers: int) -> np.ndarray:
    return bearoff.database(checkers) if p.bearoff and p.kind == NETWORK else bearoff.empty()


def duel(a: Player, b: Player, pairs: int, seed: int, start: np.ndarray = START,
         variant: Variant | str = STANDARD) -> np.ndarray:
    """Player ``a``'s points in each of ``pairs`` duplicate pairs of games against ``b``,
    each game from ``start`` (a variant's ``start_board``, whose checkers a side the game is
    scored by); ``variant`` gives the move rules of a 28-entry board (checkers off the board)."""
    if pairs < 1:
        raise ValueError("a duel needs at least one pair of games")
    v = find_variant(variant)
    wide = len(start) > BOARD_SIZE
    greek = game_for(v.rules) is not None
    if len(start) != search.board_width(v):
        raise TableError(f"a {len(start)}-entry start board is not {v.name}'s")
    if (wide or greek) and PUBEVAL in (a.kind, b.kind):
        raise TableError(f"pubeval reads the standard board only: it cannot play {v.name}")
    checkers = int(checkers_on(start)[0]) + (int(start[RESERVE]) if v.entry == "reserve" else 0)
    some = a.weights or b.weights or Weights.random(8, 0)
    wa = a.weights or some
    wb = b.weights or some
    fa, fb = search.filters(a.keep, a.margin), search.filters(b.keep, b.margin)
    results = np.zeros(pairs, dtype=np.int64)
    play_pairs(
        pairs, seed,
        np.array([a.kind, b.kind], dtype=np.int64),
        np.array([a.depth, b.depth], dtype=np.int64),
        np.array([a.noise, b.noise], dtype=np.float64),
        np.stack([fa[0], fb[0]]), np.stack([fa[1], fb[1]]),
        np.array([a.budget, b.budget], dtype=np.int64),
        search.make_net(wa, bearoff.empty() if greek else _db(a, checkers), checkers),
        search.make_net(wb, bearoff.empty() if greek else _db(b, checkers), checkers),
        pubeval.WEIGHTS, start, results, search.make_work(max(wa.hidden, wb.hidden), v),
    )
    return results


def summary(results: np.ndarray) -> tuple[float, float]:
    """Points per game and the half-width of its 95% confidence interval.

    Each duplicate pair is one independent sample (its two games share dice).
    """
    per_game = results.astype(np.float64) / 2.0
    n = len(per_game)
    mean = float(per_game.mean())
    if n < 2:
        return mean, float("inf")
    return mean, float(1.96 * per_game.std(ddof=1) / np.sqrt(n))
