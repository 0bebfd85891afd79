"""What Plakoto and Fevga share on the Python side: the seam ``Position`` dispatches to.

Each game is a ``GreekGame`` (``table.rules.plakoto.PLAKOTO_GAME``,
``table.rules.fevga.FEVGA_GAME``) that owns its raw board (laid out in
``table.rules.greekkernel``), its Position ID and its reading of the end of
the game; plays come from ``greekkernel.generate_greek``.  ``game_for`` says
which game a variant's ``Rules`` name, ``None`` for the other variants.

Both games write moves in standard notation, each side in its own numbering
(``24/18 13/10``; ``6/off``); Plakoto marks a pinning step with ``*``, as a
hit (``13/7*``).  A side's checkers (``sides``) are dicts from its own point
numbers (1..24) to counts, a pinned checker counted with its side.

>>> from table.rules.variant import find_variant
>>> game_for(find_variant("standard").rules) is None
True
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Mapping, Sequence

import numpy as np

from table.errors import PositionError, PositionIdError
from table.rules.greekkernel import PLAKOTO, Outputs, generate_greek
from table.rules.variant import NO_CAPTURE, PIN, ROTATE, Rules

__all__ = ["GreekGame", "Side", "game_for", "encode_sides", "decode_sides", "capped_value"]

Side = dict[int, int]  # own point number -> checkers
Step = tuple[int, int]
_ID_RE = re.compile(r"^[A-Za-z0-9+/]{14}$")


def game_for(rules: Rules) -> GreekGame | None:
    """The game whose step rule ``rules`` is (Plakoto: pinning; Fevga: one checker blocks and
    both sides go the same way), ``None`` for any other (mixes of them included).

    >>> from table.rules.variant import NO_CAPTURE
    >>> game_for(Rules(capture=PIN)).name, game_for(Rules(block=1, capture=NO_CAPTURE, turn=ROTATE)).name
    ('Plakoto', 'Fevga')
    >>> game_for(Rules(block=1, capture=NO_CAPTURE)) is None
    True
    """
    # Imported here: each game's module builds on this one.
    if rules == Rules(capture=PIN):
        from table.rules.plakoto import PLAKOTO_GAME
        return PLAKOTO_GAME
    if rules == Rules(block=1, capture=NO_CAPTURE, turn=ROTATE):
        from table.rules.fevga import FEVGA_GAME
        return FEVGA_GAME
    return None


def encode_sides(opponent: Sequence[int], mover: Sequence[int]) -> str:
    """A GNU Backgammon Position ID from each side's 25 counts (points 1..24 then the bar, own numbering).

    The format's facts (docs/CONTRIBUTING.md, ``table.rules.posid``): the side not
    on roll first, one bit per checker then a 0 bit per point, bytes filled from the
    least significant bit, base64 without padding.
    """
    bits = "".join("1" * n + "0" for n in (*opponent, *mover))
    key = int(bits[::-1], 2) if bits else 0
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii").rstrip("=")


def decode_sides(text: str) -> tuple[list[int], list[int]]:
    """The two sides' 25 counts of a Position ID, (opponent, mover), each side's own numbering.

    Unlike ``posid.decode_position_id`` both sides may have checkers on one
    point (a pin, or Fevga's numbering); ``PositionIdError`` says what is wrong.
    """
    if not isinstance(text, str):
        raise PositionIdError(f"a Position ID is a string, got {type(text).__name__}")
    if not _ID_RE.match(text):
        raise PositionIdError(
            f"{text!r} is not a Position ID: expected 14 characters of A-Z a-z 0-9 + /")
    try:
        key = int.from_bytes(base64.b64decode(text + "==", validate=True), "little")
    except binascii.Error as exc:  # pragma: no cover - the regex already guards
        raise PositionIdError(f"{text!r} is not valid base64: {exc}") from None
    bits = format(key, "080b")[::-1]
    sides: list[list[int]] = []
    at = 0
    for who in ("opponent", "player on roll"):
        counts = []
        for _ in range(25):
            end = bits.find("0", at)
            if end < 0:
                raise PositionIdError(f"Position ID {text!r} ends before the {who}'s checkers do")
            counts.append(end - at)
            at = end + 1
        if sum(counts) > 15:
            raise PositionIdError(
                f"Position ID {text!r} gives the {who} {sum(counts)} checkers; at most 15 are allowed")
        sides.append(counts)
    if "1" in bits[at:]:
        raise PositionIdError(f"Position ID {text!r} has stray bits after both sides' checkers")
    return sides[0], sides[1]


def capped_value(mine: Side, theirs: Side, checkers: int) -> int:
    """The bear-off result from the mover's side: +-1 single, +-2 gammon (no backgammon), 0 if neither is done."""
    if not sum(mine.values()):
        return 1 if sum(theirs.values()) < checkers else 2
    if not sum(theirs.values()):
        return -1 if sum(mine.values()) < checkers else -2
    return 0


class GreekGame:
    """One game's board, ID, end and plays; subclasses fill in the board's layout."""

    name = ""
    size = 0
    code = PLAKOTO  # the kernel's ``game`` argument

    def __init__(self) -> None:
        self._out: Outputs | None = None

    # The layout: subclasses -------------------------------------------------------------------

    def sides(self, board: Sequence[int]) -> tuple[Side, Side]:
        """(mover, opponent) checkers on the board, each by its own numbering."""
        raise NotImplementedError

    def across(self, point: int) -> int:
        """The mover's number for the opponent's ``point`` (the same map both ways)."""
        raise NotImplementedError

    def build(self, mover: Mapping[int, int], opponent: Mapping[int, int]) -> tuple[int, ...]:
        """The raw board with these checkers (own numberings) and none pinned."""
        board = [0] * self.size
        for side, checkers in ((1, mover), (-1, opponent)):
            for point, n in checkers.items():
                if not isinstance(point, int) or not 1 <= point <= 24:
                    raise PositionError(f"point {point!r} does not exist: {self.name} uses 1-24 (no bar)")
                if not isinstance(n, int) or n < 0:
                    raise PositionError(f"checker count {n!r} on point {point} is not a count")
                index = point if side == 1 else self.across(point)
                if board[index] and n:
                    raise PositionError(f"both sides have checkers on the mover's point {index} "
                                        f"(the opponent's {self.across(index)})")
                board[index] = side * n
        return tuple(board)

    def turned(self, board: Sequence[int]) -> tuple[int, ...]:
        raise NotImplementedError

    def encode_id(self, board: Sequence[int]) -> str:
        raise NotImplementedError

    def decode_id(self, text: str) -> tuple[int, ...]:
        raise NotImplementedError

    def result(self, board: Sequence[int], checkers: int) -> tuple[int, bool]:
        """(value from the mover's side, whether the game is over); (0, True) is a draw."""
        raise NotImplementedError

    def is_race(self, board: Sequence[int]) -> bool:
        raise NotImplementedError

    def check(self, board: tuple[int, ...]) -> None:
        """``PositionError`` if the layout's own constraints fail (beyond sizes and counts)."""

    # Shared ------------------------------------------------------------------------------------

    def validate(self, board: tuple[int, ...], checkers: int) -> None:
        """``PositionError`` saying what is wrong with a raw board of this game."""
        if len(board) != self.size:
            raise PositionError(f"a {self.name} board has {self.size} entries, got {len(board)}")
        for i, n in enumerate(board):
            if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
                raise PositionError(f"board entry {i} is {n!r}, not a whole number")
        if board[0] or board[25]:
            raise PositionError(f"{self.name} has no bar: entries 0 and 25 are 0")
        self.check(board)
        for who, side in zip(("player on roll", "opponent"), self.sides(board)):
            if sum(side.values()) > checkers:
                raise PositionError(
                    f"the {who} has {sum(side.values())} checkers; at most {checkers} are allowed")

    def pips(self, board: Sequence[int]) -> tuple[int, int]:
        mine, theirs = self.sides(board)
        return (sum(p * n for p, n in mine.items()), sum(p * n for p, n in theirs.items()))

    def on_board(self, board: Sequence[int]) -> tuple[int, int]:
        mine, theirs = self.sides(board)
        return sum(mine.values()), sum(theirs.values())

    def plays(self, board: Sequence[int], d1: int, d2: int
              ) -> list[tuple[tuple[Step, ...], tuple[int, ...], tuple[bool, ...]]]:
        """Each legal play: its steps, the board after it (mover's side) and which steps pinned."""
        out = self._out or self._outputs()
        raw = np.array(board, dtype=np.int8)
        n = generate_greek(raw, d1, d2, self.code, out.hashes, out.boards, out.steps, out.nsteps,
                           out.hits)
        if n < 0:  # pragma: no cover - no real position has this many plays
            raise RuntimeError("more legal plays than the generator has room for")
        boards = out.boards[:n].tolist()
        steps = out.steps[:n].tolist()
        hits = out.hits[:n].tolist()
        counts = out.nsteps[:n].tolist()
        return [(tuple((a, b) for a, b in steps[k][:counts[k]]), tuple(boards[k]),
                 tuple(hits[k][:counts[k]])) for k in range(n)]

    def closed(self, board: Sequence[int], point: int) -> bool:
        """Whether the mover may not land on its ``point`` (1..24)."""
        raise NotImplementedError

    def why_illegal(self, board: Sequence[int], moves: list[Step], used: int, example: str) -> str:
        """Why the moves (``(from, to)`` by the mover's numbering) are no legal play, as a player reads it."""
        for _, dst in moves:
            if 1 <= dst <= 24 and self.closed(board, dst):
                return f"point {dst} is closed to you"
        mine = self.sides(board)[0]
        if any(dst == 0 for _, dst in moves) and any(p > 6 for p in mine):
            return "you may bear off only when all your checkers are in your home board"
        return (f"the moves do not fit the roll or the rules; a legal play uses {used} "
                f"{'die' if used == 1 else 'dice'}, for example {example}")

    def _outputs(self) -> Outputs:
        self._out = Outputs(self.size)
        return self._out

