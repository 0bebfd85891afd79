"""Plakoto's board, Position ID and end of game (docs/variants.md, "Plakoto").

The raw board is 50 numbers (laid out in ``table.rules.greekkernel``): the
standard 26 with empty bars, then a pinned flag per point.

**Position ID.** GNU Backgammon's Position ID cannot hold a checker under
another side's, so a Plakoto position with pins is written
``<Position ID>:<mover's pinned points>:<opponent's pinned points>``: the
Position ID of the checkers on top (the pinned ones left out), then, after a
colon each, the points where the side on roll and its opponent have a checker
pinned, each in its own numbering, as numbers joined by ``,`` (empty when
none).  With nothing pinned it is the plain Position ID, so exactly one text
stands for each position.  The start is ``AACA/z8AAID/Pw``.

**Notation.** Standard, with ``*`` on the point where a step pins a checker
(``6/1*``), as a hit is marked.

>>> from table import Position
>>> p = Position.from_checkers({24: 14, 8: 1}, {24: 14, 20: 1}, "plakoto")
>>> play = p.parse_play("8/5*", "21")
>>> str(play), play.position.id  # the player now on roll has a checker pinned on its 20-point
('8/5*', 'EAAA/z8AAID/Hw:20:')
>>> Position.from_id(play.position.id, "plakoto") == play.position
True
"""

from __future__ import annotations

import re
from typing import Sequence

from table.errors import PositionError, PositionIdError
from table.rules.greek import GreekGame, Side, capped_value
from table.rules.greekkernel import PINS, PLAKOTO, PLAKOTO_SIZE
from table.rules.posid import decode_position_id, encode_position_id

__all__ = ["PLAKOTO_GAME", "PlakotoGame"]

_PINS_RE = re.compile(r"(?:[0-9]{1,2}(?:,[0-9]{1,2})*)?")


class PlakotoGame(GreekGame):
    """Plakoto: a lone checker is pinned by the opposing checker landing on it."""

    name = "Plakoto"
    size = PLAKOTO_SIZE
    code = PLAKOTO

    def sides(self, board: Sequence[int]) -> tuple[Side, Side]:
        mine: Side = {}
        theirs: Side = {}
        for p in range(1, 25):
            n, pin = board[p], board[PINS + p]
            m, t = max(n, 0) + (pin > 0), max(-n, 0) + (pin < 0)
            if m:
                mine[p] = m
            if t:
                theirs[25 - p] = t
        return mine, theirs

    def across(self, point: int) -> int:
        return 25 - point

    def turned(self, board: Sequence[int]) -> tuple[int, ...]:
        return tuple([-board[25 - i] for i in range(26)] + [-board[75 - k] for k in range(26, 50)])

    def check(self, board: tuple[int, ...]) -> None:
        for p in range(1, 25):
            pin = board[PINS + p]
            if pin not in (-1, 0, 1):
                raise PositionError(f"entry {PINS + p} (pinned on point {p}) is -1, 0 or 1, not {pin}")
            if pin * board[p] > 0 or (pin and not board[p]):
                raise PositionError(f"a checker pinned on point {p} needs the other side's checkers on top")

    def encode_id(self, board: Sequence[int]) -> str:
        base = encode_position_id(tuple(board[:26]))
        mine = [p for p in range(1, 25) if board[PINS + p] > 0]
        theirs = [25 - p for p in range(24, 0, -1) if board[PINS + p] < 0]
        if not mine and not theirs:
            return base
        return f"{base}:{','.join(map(str, mine))}:{','.join(map(str, theirs))}"

    def decode_id(self, text: str) -> tuple[int, ...]:
        if not isinstance(text, str):
            raise PositionIdError(f"a Position ID is a string, got {type(text).__name__}")
        text = text.strip()
        parts = text.split(":")
        if len(parts) not in (1, 3):
            raise PositionIdError(
                f"{text!r} is not a Plakoto Position ID: a Position ID, then with pinned checkers "
                "':', the points where the player on roll has one pinned, ':', the opponent's "
                "(such as 'gQAA/D8AAAAAAA::23')")
        top = list(decode_position_id(parts[0])) + [0] * 24
        if top[0] or top[25]:
            raise PositionIdError(f"Position ID {text!r} has checkers on the bar, which Plakoto has not")
        if len(parts) == 3:
            if not parts[1] and not parts[2]:
                raise PositionIdError(
                    f"{text!r} lists no pinned checker: write the Position ID alone, without ':'")
            for side, who, field in ((1, "player on roll", parts[1]), (-1, "opponent", parts[2])):
                if not _PINS_RE.fullmatch(field):
                    raise PositionIdError(
                        f"{text!r}: the {who}'s pinned points {field!r} are not numbers 1-24 joined by ','")
                for point in map(int, field.split(",") if field else []):
                    index = point if side == 1 else 25 - point
                    if not 1 <= point <= 24:
                        raise PositionIdError(f"{text!r}: the {who} cannot have a checker pinned on {point}")
                    if top[PINS + index]:
                        raise PositionIdError(f"{text!r} pins two checkers on the {who}'s point {point}")
                    if top[index] * side >= 0:
                        raise PositionIdError(
                            f"{text!r}: the {who}'s checker pinned on {point} has no opposing checker on top")
                    top[PINS + index] = side
        board = tuple(top)
        for who, checkers in zip(("player on roll", "opponent"), self.sides(board)):
            if sum(checkers.values()) > 15:
                raise PositionIdError(
                    f"Position ID {text!r} gives the {who} {sum(checkers.values())} checkers with the "
                    "pinned ones; at most 15 are allowed")
        return board

    def result(self, board: Sequence[int], checkers: int) -> tuple[int, bool]:
        """The mother rule first (a pinned mother: -2 or a draw), then bearing off."""
        mine, theirs = self.sides(board)
        value = capped_value(mine, theirs, checkers)
        if value:
            return value, True
        # A side's mother is its last checker on its 24-point: it is pinned there when the
        # flag is set (the mover's 24 is the opponent's 1 and the other way round).
        my_mother = board[PINS + 24] > 0
        their_mother = board[PINS + 1] < 0
        if my_mother and their_mother:
            return 0, True  # each pinned the other's mother: a draw
        if my_mother and board[1] >= 0:  # the pinner has left its own 24-point
            return -2, True
        if their_mother and board[24] <= 0:
            return 2, True
        return 0, False

    def closed(self, board: Sequence[int], point: int) -> bool:
        return board[point] <= -2 or (board[point] < 0 and board[PINS + point] > 0)

    def why_illegal(self, board: Sequence[int], moves: list[tuple[int, int]], used: int,
                    example: str) -> str:
        for src, _ in moves:
            if board[PINS + src] > 0 and board[src] <= 0:
                return f"your checker on point {src} is pinned and cannot move"
        if any(dst == 0 for _, dst in moves) and any(board[PINS + p] > 0 for p in range(1, 25)):
            return "you may not bear off while one of your checkers is pinned"
        return super().why_illegal(board, moves, used, example)

    def is_race(self, board: Sequence[int]) -> bool:
        mine, theirs = self.sides(board)
        return max(mine, default=0) < min((25 - q for q in theirs), default=25)


PLAKOTO_GAME = PlakotoGame()
