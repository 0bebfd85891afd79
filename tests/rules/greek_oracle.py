"""A naive legal-play generator for Plakoto and Fevga: a test oracle.

It shares no code with the engine (``table.rules.greekkernel``): it reads the
rules of docs/variants.md ("Plakoto", "Fevga") literally.  A position is a
``State``: each side's free checkers as a sorted tuple of (point, count) by
its own numbering, and (Plakoto) the points where its checkers are pinned.
Every order of the dice is tried and every checker for each die; every
sequence of steps is a candidate play if the position it leaves is allowed
(Fevga: the mover does not hold all of its 19-24); of the candidates those
using the most dice are kept (of one die of a non-double, the higher if it
can be played); then Fevga drops the plays that leave the opponent stuck
behind a prime, unless all of them do.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


class State(NamedTuple):
    mine: tuple[tuple[int, int], ...]  # free checkers, own numbering
    mine_pinned: frozenset[int]
    theirs: tuple[tuple[int, int], ...]
    theirs_pinned: frozenset[int]


def start() -> State:
    return State(((24, 15),), frozenset(), ((24, 15),), frozenset())


def across(game: str, p: int) -> int:
    """The opponent's number for the mover's point ``p``."""
    if game == "plakoto":
        return 25 - p  # the sides face each other
    return p + 12 if p <= 12 else p - 12  # Fevga: both go the same way, 24 faces 12


def _checkers(state: State) -> tuple[int, int]:
    mine = sum(n for _, n in state.mine) + len(state.mine_pinned)
    theirs = sum(n for _, n in state.theirs) + len(state.theirs_pinned)
    return mine, theirs


def turned(state: State) -> State:
    return State(state.theirs, state.theirs_pinned, state.mine, state.mine_pinned)


def _may_step(game: str, mine: dict[int, int], pinned: set[int], theirs: dict[int, int],
              src: int, die: int) -> int | None:
    """Where the step lands (0 = off), or None."""
    if mine.get(src, 0) == 0:
        return None
    if game == "fevga" and src == 24:
        on_board = sum(mine.values())
        passed = on_board < 15 or any(p <= 11 for p, n in mine.items() if n)
        if not passed and on_board != mine[24]:
            return None  # the first checker has not passed the opponent's start yet
    to = src - die
    if to >= 1:
        there = theirs.get(across(game, to), 0)
        if game == "fevga" and there >= 1:
            return None
        if game == "plakoto" and (there >= 2 or to in pinned):
            return None
        return to
    everything_home = not pinned and all(p <= 6 for p, n in mine.items() if n)
    if not everything_home:
        return None
    if to == 0 or src == max(p for p, n in mine.items() if n):
        return 0
    return None


def _step(game: str, state: State, src: int, to: int) -> tuple[State, bool]:
    mine, theirs = dict(state.mine), dict(state.theirs)
    mine_pinned, theirs_pinned = set(state.mine_pinned), set(state.theirs_pinned)
    pinned_one = False
    mine[src] -= 1
    if game == "plakoto" and mine[src] == 0 and across(game, src) in theirs_pinned:
        theirs_pinned.discard(across(game, src))  # freed: its captor has gone
        theirs[across(game, src)] = 1
    if to:
        if game == "plakoto" and theirs.get(across(game, to), 0) == 1:
            theirs[across(game, to)] = 0
            theirs_pinned.add(across(game, to))
            pinned_one = True
        mine[to] = mine.get(to, 0) + 1
    return State(tuple(sorted((p, n) for p, n in mine.items() if n)), frozenset(mine_pinned),
                 tuple(sorted((p, n) for p, n in theirs.items() if n)),
                 frozenset(theirs_pinned)), pinned_one


def holds_start_quarter(state: State) -> bool:
    held = {p for p, n in state.mine if n}
    return all(p in held for p in range(19, 25))


def traps(state: State) -> bool:
    """The opponent's checkers on the board all on one point, the six in front of it mine."""
    points = {p for p, n in state.theirs if n}
    if len(points) != 1:
        return False
    (q,) = points
    if q < 7:
        return False
    held = {across("fevga", p) for p, n in state.mine if n}  # in the opponent's numbering
    return all(r in held for r in range(q - 6, q))


@lru_cache(maxsize=200_000)
def plays(game: str, state: State, dice: tuple[int, int]) -> frozenset[State]:
    """The positions (mover's side, not turned) after each legal play of ``dice``."""
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: list[tuple[int, int, State]] = []  # (dice used, the first die, result)

    def walk(here: State, rest: tuple[int, ...], used: tuple[int, ...]) -> None:
        if used and not (game == "fevga" and holds_start_quarter(here)):
            found.append((len(used), used[0], here))
        if not rest:
            return
        mine = dict(here.mine)
        for src in range(1, 25):
            to = _may_step(game, mine, set(here.mine_pinned), dict(here.theirs), src, rest[0])
            if to is not None:
                walk(_step(game, here, src, to)[0], rest[1:], used + (rest[0],))

    for order in orders:
        walk(state, order, ())
    if not found:
        return frozenset()
    most = max(n for n, _, _ in found)
    kept = [(n, die, s) for n, die, s in found if n == most]
    if most == 1 and d1 != d2 and any(die == max(d1, d2) for _, die, _ in kept):
        kept = [(n, die, s) for n, die, s in kept if die == max(d1, d2)]
    results = {s for _, _, s in kept}
    if game == "fevga":
        free = {s for s in results if not traps(s)}
        results = free or results
    return frozenset(results)


def outcome(game: str, state: State) -> tuple[int, bool]:
    """(value for the mover, over): bearing off 1 or 2; Plakoto's mother: 2 or a draw."""
    mine, theirs = _checkers(state)
    if mine == 0:
        return (1 if theirs < 15 else 2), True
    if theirs == 0:
        return (-1 if mine < 15 else -2), True
    if game == "plakoto":
        my_mother = 24 in state.mine_pinned
        their_mother = 24 in state.theirs_pinned
        my_start = dict(state.mine).get(24, 0)
        their_start = dict(state.theirs).get(24, 0)
        if my_mother and their_mother:
            return 0, True
        if my_mother and not their_start:
            return -2, True
        if their_mother and not my_start:
            return 2, True
    return 0, False


@lru_cache(maxsize=200_000)
def leaves(game: str, state: State, plies: int) -> int:
    """Leaves ``plies`` deep: every roll, every play; no play passes; a finished game is a leaf."""
    if plies == 0 or outcome(game, state)[1]:
        return 1
    total = 0
    for roll in ROLLS:
        after = plays(game, state, roll) or {state}
        total += sum(leaves(game, turned(s), plies - 1) for s in after)
    return total


def to_board(game: str, state: State) -> tuple[int, ...]:
    """The engine's raw board (docs: ``table.rules.greekkernel``), for the fixture only."""
    board = [0] * (50 if game == "plakoto" else 26)
    for p, n in state.mine:
        board[p] += n
    for q, n in state.theirs:
        board[across(game, q)] -= n  # ``across`` is its own inverse in both games
    for p in state.mine_pinned:
        board[25 + p] = 1
    for q in state.theirs_pinned:
        board[25 + across(game, q)] = -1
    return tuple(board)
