"""An independent, deliberately naive legal-play generator used only as a test oracle.

It shares no code with the engine: it follows the written rules literally,
trying every order of the dice and every checker, then keeps the plays that
use the most dice (and the higher die when only one can be used).  It is far
too slow for the product and exists so the compiled generator has something
to disagree with.
"""

from __future__ import annotations

from itertools import permutations


def _mine(board: tuple[int, ...]) -> dict[int, int]:
    # point -> count for the mover; 25 = bar
    return {p: board[p] for p in range(1, 26) if board[p] > 0}


def _single_moves(board: list[int], die: int) -> list[tuple[int, int]]:
    moves = []
    on_bar = board[25] > 0
    all_home = all(board[p] <= 0 for p in range(7, 26))
    highest = max((p for p in range(1, 26) if board[p] > 0), default=0)
    for src in range(25, 0, -1):
        if board[src] <= 0:
            continue
        if on_bar and src != 25:
            continue
        dst = src - die
        if dst > 0:
            if board[dst] >= -1:
                moves.append((src, dst))
        elif all_home and (dst == 0 or src == highest):
            moves.append((src, 0))
    return moves


def _apply(board: list[int], src: int, dst: int) -> list[int]:
    b = list(board)
    b[src] -= 1
    if dst > 0:
        if b[dst] == -1:
            b[dst] = 0
            b[0] -= 1
        b[dst] += 1
    return b


def oracle_results(board: tuple[int, ...], dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """The set of boards (mover's view, before turning round) after each legal play."""
    d1, d2 = dice
    orders = [[d1] * 4] if d1 == d2 else [list(o) for o in set(permutations((d1, d2)))]
    found: list[tuple[int, tuple[int, ...], int]] = []  # (dice used, board, first die)

    def walk(b: list[int], rest: list[int], used: int, first: int) -> None:
        moves = _single_moves(b, rest[0]) if rest else []
        if not moves:
            found.append((used, tuple(b), first))
            return
        for src, dst in moves:
            walk(_apply(b, src, dst), rest[1:], used + 1, first if used else rest[0])

    for order in orders:
        walk(list(board), order, 0, 0)
    most = max(u for u, _, _ in found)
    if most == 0:
        return set()
    kept = [(b, f) for u, b, f in found if u == most]
    if d1 != d2 and most == 1:
        high = max(d1, d2)
        if any(f == high for _, f in kept):
            kept = [(b, f) for b, f in kept if f == high]
    return {b for b, _ in kept}
