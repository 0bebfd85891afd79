"""A naive legal-play generator for variants whose checkers start off the board: a test oracle.

It shares no code with the engine (``table.rules.reservekernel``): it reads
the rules of docs/variants.md literally.  Every order of the dice is tried,
every checker for each die, and of all the sequences that stop, the ones using
the most dice are kept (of one die of a non-double, the higher if it can be
played).  A position is held as two dicts, so that even the board layout is
not the engine's: ``mine`` and ``theirs`` map "R" (waiting), "B" (bar) and
points 1..24 to counts, each side by its own numbering.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import NamedTuple


class Flags(NamedTuple):
    """The rules that differ between Race, Dutch and Acey-Deucey."""

    enter_all_first: bool  # Dutch
    hit_only_with_home: bool  # Dutch
    bar_must_enter: bool  # Race and Dutch; not Acey-Deucey


RACE = Flags(False, False, True)
DUTCH = Flags(True, True, True)
ACEY = Flags(False, False, False)

Side = dict  # "R", "B" or a point -> count


def from_board(board: tuple[int, ...]) -> tuple[Side, Side]:
    """The two sides of a 28-entry raw board (mover's view) as dicts."""
    mine = {"R": board[26], "B": board[25]}
    theirs = {"R": -board[27], "B": -board[0]}
    for p in range(1, 25):
        if board[p] > 0:
            mine[p] = board[p]
        elif board[p] < 0:
            theirs[25 - p] = -board[p]
    return mine, theirs


def to_board(mine: Side, theirs: Side) -> tuple[int, ...]:
    b = [0] * 28
    b[26] = mine["R"]
    b[25] = mine["B"]
    b[27] = -theirs["R"]
    b[0] = -theirs["B"]
    for p in range(1, 25):
        b[p] += mine.get(p, 0)
        b[p] -= theirs.get(25 - p, 0)
    return tuple(b)


def _count(side: Side, where: object) -> int:
    return int(side.get(where, 0))


def _moves(mine: Side, theirs: Side, die: int, rules: Flags) -> list[tuple[object, int]]:
    """Every (from, to) one die allows; ``to`` 0 is off."""
    result: list[tuple[object, int]] = []
    if rules.bar_must_enter and mine["B"] > 0:
        sources: list[object] = ["B"]
    elif rules.enter_all_first and mine["R"] > 0:
        sources = ["R", "B"]
    else:
        sources = ["R", "B"] + list(range(1, 25))
    has_home = any(_count(mine, p) for p in range(1, 7))
    everything_home = mine["R"] == 0 and mine["B"] == 0 and all(
        _count(mine, p) == 0 for p in range(7, 25))
    highest = max((p for p in range(1, 25) if _count(mine, p)), default=0)
    for src in sources:
        if _count(mine, src) == 0:
            continue
        start = 25 if src in ("R", "B") else int(src)  # type: ignore[call-overload]
        to = start - die
        if to >= 1:
            theirs_there = _count(theirs, 25 - to)
            if theirs_there >= 2:
                continue
            if theirs_there == 1 and rules.hit_only_with_home and not has_home:
                continue
            result.append((src, to))
        elif everything_home and (to == 0 or start == highest):
            result.append((src, 0))
    return result


def move(mine: Side, theirs: Side, src: object, to: int) -> tuple[Side, Side]:
    mine = dict(mine)
    theirs = dict(theirs)
    mine[src] -= 1
    if to:
        if _count(theirs, 25 - to) == 1:
            theirs[25 - to] = 0
            theirs["B"] += 1
        mine[to] = _count(mine, to) + 1
    return mine, theirs


@lru_cache(maxsize=200_000)  # the same position comes up again and again in a game tree
def plays(board: tuple[int, ...], dice: tuple[int, int], rules: Flags) -> frozenset[tuple[int, ...]]:
    """The boards (mover's view, not turned round) after each legal play of ``dice``."""
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else list(set(permutations((d1, d2))))
    found: list[tuple[int, int, tuple[int, ...]]] = []  # (dice used, the die used alone, board)

    def walk(mine: Side, theirs: Side, rest: tuple[int, ...], used: list[int]) -> None:
        moves = _moves(mine, theirs, rest[0], rules) if rest else []
        if not moves:
            if used:
                found.append((len(used), used[0], to_board(mine, theirs)))
            return
        for src, to in moves:
            walk(*move(mine, theirs, src, to), rest[1:], used + [rest[0]])

    for order in orders:
        walk(*from_board(board), order, [])
    if not found:
        return frozenset()
    most = max(n for n, _, _ in found)
    kept = [(n, die, b) for n, die, b in found if n == most]
    if most == 1 and d1 != d2 and any(die == max(d1, d2) for _, die, _ in kept):
        kept = [(n, die, b) for n, die, b in kept if die == max(d1, d2)]
    return frozenset(b for _, _, b in kept)


def turned(board: tuple[int, ...]) -> tuple[int, ...]:
    """The board seen by the other side."""
    mine, theirs = from_board(board)
    return to_board(theirs, mine)


ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


@lru_cache(maxsize=200_000)
def leaves(board: tuple[int, ...], plies: int, rules: Flags) -> int:
    """Leaves ``plies`` deep: every roll, every play; no play passes; a finished game is a leaf."""
    mine, theirs = from_board(board)
    over = sum(mine.values()) == 0 or sum(theirs.values()) == 0
    if plies == 0 or over:
        return 1
    total = 0
    for roll in ROLLS:
        after = plays(board, roll, rules) or {board}
        total += sum(leaves(turned(b), plies - 1, rules) for b in after)
    return total
