"""Fevga's board, Position ID and end of game (docs/variants.md, "Fevga").

The raw board is the standard 26 numbers with empty bars, both sides in the
mover's numbering; the opponent's own point ``q`` is the mover's point
``(q + 11) % 24 + 1`` (``table.rules.greekkernel``).

**Position ID.** GNU Backgammon's format holds each side's checkers in that
side's own numbering, which is what a Fevga position needs; only GNU
Backgammon would read it as a board where the sides move in opposite
directions.  So a Fevga position's ID is the same 14 characters, each side by
its own numbering, and ``Position.from_id(id, "fevga")`` reads it back.

**Notation.** Standard, in the mover's numbering (``24/18 24/21``).

>>> start = FEVGA_GAME.build({24: 15}, {24: 15})
>>> start[24], start[12], FEVGA_GAME.turned(start) == start
(15, -15, True)
>>> FEVGA_GAME.encode_id(start) == FEVGA_GAME.encode_id(FEVGA_GAME.turned(start))
True
"""

from __future__ import annotations

from typing import Sequence

from table.errors import PositionError, PositionIdError
from table.rules.greek import GreekGame, Side, capped_value, decode_sides, encode_sides
from table.rules.greekkernel import FEVGA, FEVGA_SIZE, rotated

__all__ = ["FEVGA_GAME", "FevgaGame"]

_ROTATED = rotated.py_func


class FevgaGame(GreekGame):
    """Fevga: both sides move the same way; one checker holds a point."""

    name = "Fevga"
    size = FEVGA_SIZE
    code = FEVGA

    def sides(self, board: Sequence[int]) -> tuple[Side, Side]:
        mine = {p: board[p] for p in range(1, 25) if board[p] > 0}
        theirs = {_ROTATED(p): -board[p] for p in range(1, 25) if board[p] < 0}
        return mine, theirs

    def across(self, point: int) -> int:
        return _ROTATED(point)

    def turned(self, board: Sequence[int]) -> tuple[int, ...]:
        return tuple([0] + [-board[_ROTATED(p)] for p in range(1, 25)] + [0])

    def encode_id(self, board: Sequence[int]) -> str:
        mine, theirs = self.sides(board)
        return encode_sides([theirs.get(p, 0) for p in range(1, 26)],
                            [mine.get(p, 0) for p in range(1, 26)])

    def decode_id(self, text: str) -> tuple[int, ...]:
        opponent, mover = decode_sides(text.strip() if isinstance(text, str) else text)
        if opponent[24] or mover[24]:
            raise PositionIdError(f"Position ID {text!r} has checkers on the bar, which Fevga has not")
        try:
            return self.build({p + 1: n for p, n in enumerate(mover[:24]) if n},
                              {p + 1: n for p, n in enumerate(opponent[:24]) if n})
        except PositionError as exc:
            raise PositionIdError(f"Position ID {text!r}: {exc}") from None

    def result(self, board: Sequence[int], checkers: int) -> tuple[int, bool]:
        value = capped_value(*self.sides(board), checkers)
        return value, value != 0

    def closed(self, board: Sequence[int], point: int) -> bool:
        return board[point] < 0

    def why_illegal(self, board: Sequence[int], moves: list[tuple[int, int]], used: int,
                    example: str) -> str:
        mine = self.sides(board)[0]
        leaving = sum(1 for src, _ in moves if src == 24)
        passed = any(p <= 11 for p in mine) or sum(mine.values()) < 15
        if leaving and not passed and (sum(mine.values()) > mine.get(24, 0) or leaving > 1) \
                and not any(dst <= 11 for _, dst in moves):
            return ("only one checker may leave your 24-point until it has passed your "
                    "opponent's starting point (your 11-point)")
        return super().why_illegal(board, moves, used, example)

    def is_race(self, board: Sequence[int]) -> bool:
        """No checker can meet another again: every checker of both sides is on its own 1-12
        (one side's 13-24 is the other's path home)."""
        mine, theirs = self.sides(board)
        return max(mine, default=0) <= 12 and max(theirs, default=0) <= 12


FEVGA_GAME = FevgaGame()
