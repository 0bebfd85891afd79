"""A plain-text picture of a position, for terminals and logs.

The player on roll is ``X`` and moves from the top-right round to the bottom
right (points 24 down to 1); the opponent is ``O``.  Stacks taller than five
show their count in the fifth row.  ``str(position)`` draws the same picture.
In Plakoto a pinned checker is drawn in lower case (``x``, ``o``) at the foot
of its point, under the checkers that pin it (see ``grid``).

>>> print(render(Position.initial()))
  13 14 15 16 17 18       19 20 21 22 23 24
+-------------------+---+-------------------+
|  X           O    |   |  O              X |
|  X           O    |   |  O              X |
|  X           O    |   |  O                |
|  X                |   |  O                |
|  X                |   |  O                |
|                   |BAR|                   |
|  O                |   |  X                |
|  O                |   |  X                |
|  O           X    |   |  X                |
|  O           X    |   |  X              O |
|  O           X    |   |  X              O |
+-------------------+---+-------------------+
  12 11 10  9  8  7        6  5  4  3  2  1
X (on roll): pips 167, off 0, bar 0
O: pips 167, off 0, bar 0
Position ID: 4HPwATDgc/ABMA
"""

from __future__ import annotations

from table.rules.greekkernel import PINS
from table.rules.position import Position
from table.rules.variant import PIN

_ROWS = 5


def _cell(count: int, row: int, pinned: int = 0) -> str:
    """Three characters for one point at one row (0 = nearest the edge); ``pinned`` (+1 the
    mover's, -1 the opponent's) is a checker under the ``count`` on top, drawn at the foot."""
    if pinned:
        if row == 0:
            return "  x" if pinned > 0 else "  o"
        row -= 1
    n = abs(count)
    if n <= row:
        return "   "
    if row == _ROWS - 1 - (1 if pinned else 0) and n + (1 if pinned else 0) > _ROWS:
        return f"{n:>3}"
    return "  X" if count > 0 else "  O"


def pins(position: Position) -> dict[int, int]:
    """The points (the mover's numbers) holding a pinned checker: +1 the mover's, -1 the opponent's.

    >>> p = Position.from_id("EAAA/z8AAID/Hw:20:", "plakoto")
    >>> pins(p), pins(Position.initial())
    ({20: 1}, {})
    """
    if position.variant.rules.capture != PIN:
        return {}
    b = position.board
    return {p: b[PINS + p] for p in range(1, 25) if b[PINS + p]}


def _half(board: tuple[int, ...], points: list[int], row: int, pinned: dict[int, int]) -> str:
    return "".join(_cell(board[p], row, pinned.get(p, 0)) for p in points) + " "


def _labels(points: list[int]) -> str:
    return "".join(f"{p:>3}" for p in points) + " "


def grid(position: Position) -> list[str]:
    """The board alone, as lines of text, seen from ``X``: its points are numbered 1-24 and it moves to 1.

    A pinned checker (Plakoto) is a lower-case letter at the foot of its point, under its captors:

    >>> print("\\n".join(grid(Position.from_id("EAAA/z8AAID/Hw:20:", "plakoto"))[:4]))
      13 14 15 16 17 18       19 20 21 22 23 24
    +-------------------+---+-------------------+
    |                   |   |     x           X |
    |                   |   |     O           X |
    """
    b = position.board
    pinned = pins(position)
    top_left, top_right = list(range(13, 19)), list(range(19, 25))
    bottom_left, bottom_right = list(range(12, 6, -1)), list(range(6, 0, -1))
    edge = "+" + "-" * 19 + "+---+" + "-" * 19 + "+"
    lines = [" " + _labels(top_left) + "     " + _labels(top_right), edge]
    opp_bar, my_bar = -b[0], b[25]
    for row in range(_ROWS):
        bar = _cell(-opp_bar, row)
        lines.append(f"|{_half(b, top_left, row, pinned)}|{bar}|{_half(b, top_right, row, pinned)}|")
    lines.append("|" + " " * 19 + "|BAR|" + " " * 19 + "|")
    for row in reversed(range(_ROWS)):
        bar = _cell(my_bar, row)
        lines.append(f"|{_half(b, bottom_left, row, pinned)}|{bar}|{_half(b, bottom_right, row, pinned)}|")
    lines.append(edge)
    lines.append(" " + _labels(bottom_left) + "     " + _labels(bottom_right))
    return [line.rstrip() for line in lines]


def render(position: Position) -> str:
    """Draw ``position`` as text, with pip counts and its Position ID."""
    lines = grid(position)
    b = position.board
    my_bar, opp_bar = b[25], -b[0]
    pips = position.pip_counts()
    off = position.borne_off()
    # Race, Dutch, Acey-Deucey: the checkers that have not entered yet are in no cell of the grid.
    waiting = position.waiting() if position.variant.entry == "reserve" else None
    mine, theirs = ("", "") if waiting is None else (f", waiting {waiting[0]}", f", waiting {waiting[1]}")
    mine, theirs = f", bar {my_bar}{mine}", f", bar {opp_bar}{theirs}"
    pinned = pins(position)
    if not position.variant.hitting:  # Plakoto, Fevga: no bar; Plakoto's pinned checkers instead
        counts = [sum(1 for v in pinned.values() if v == side) for side in (1, -1)]
        plakoto = position.variant.rules.capture == PIN
        mine, theirs = (f", pinned {counts[0]}", f", pinned {counts[1]}") if plakoto else ("", "")
    lines.append(f"X (on roll): pips {pips[0]}, off {off[0]}{mine}")
    lines.append(f"O: pips {pips[1]}, off {off[1]}{theirs}")
    if pinned:
        lines.append("x, o: a pinned checker, under the checkers that pin it")
    game = "" if position.variant.name == "standard" else f" ({position.variant.title})"
    lines.append(f"Position ID: {position.id}{game}")
    return "\n".join(lines)
