"""GNU Backgammon Position IDs.

A Position ID is an 80-bit key in base64 (14 characters, no padding).  The key
walks each side's points 1..24 and then its bar, in that side's own numbering,
writing a 1 bit per checker and a 0 bit after each point.  GNU Backgammon's
own output puts the side *not* on roll first and the side on roll second;
that output, not the manual's wording, is the reference.  Bits fill each byte
from its least significant end.

>>> board = decode_position_id("4HPwATDgc/ABMA")
>>> encode_position_id(board)
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import base64
import binascii
import re

from table.errors import PositionIdError

_ID_RE = re.compile(r"^[A-Za-z0-9+/]{14}$")


def _side_counts(board: tuple[int, ...], mover: bool) -> list[int]:
    """Checkers on points 1..24 then the bar, in that side's own numbering."""
    if mover:
        return [board[i] if board[i] > 0 else 0 for i in range(1, 26)]
    return [-board[25 - j] if board[25 - j] < 0 else 0 for j in range(1, 26)]


def encode_position_id(board: tuple[int, ...]) -> str:
    """The Position ID of a raw board (see ``table.rules.kernel``)."""
    key = 0
    bit = 0
    for mover in (False, True):
        for n in _side_counts(board, mover):
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    raw = key.to_bytes(10, "little")
    return base64.b64encode(raw).decode("ascii").rstrip("=")


def decode_position_id(text: str) -> tuple[int, ...]:
    """The raw board of a Position ID; ``PositionIdError`` says what is wrong."""
    if not isinstance(text, str):
        raise PositionIdError(f"a Position ID is a string, got {type(text).__name__}")
    text = text.strip()
    if not _ID_RE.match(text):
        raise PositionIdError(
            f"{text!r} is not a Position ID: expected 14 characters of A-Z a-z 0-9 + /"
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex already guards
        raise PositionIdError(f"{text!r} is not valid base64: {exc}") from None
    key = int.from_bytes(raw, "little")
    sides: list[list[int]] = []
    bit = 0
    for side in ("opponent", "player on roll"):
        counts: list[int] = []
        total = 0
        while len(counts) < 25:
            n = 0
            while bit < 80 and (key >> bit) & 1:
                n += 1
                bit += 1
            if bit >= 80:
                raise PositionIdError(f"Position ID {text!r} ends before the {side}'s checkers do")
            bit += 1
            counts.append(n)
            total += n
        if total > 15:
            raise PositionIdError(
                f"Position ID {text!r} gives the {side} {total} checkers; at most 15 are allowed"
            )
        sides.append(counts)
    if key >> bit:
        raise PositionIdError(f"Position ID {text!r} has stray bits after both sides' checkers")
    opp, me = sides
    board = [0] * 26
    for p in range(1, 26):
        board[p] = me[p - 1]
    for j in range(1, 25):
        n = opp[j - 1]
        if n:
            if board[25 - j]:
                raise PositionIdError(
                    f"Position ID {text!r} puts both sides' checkers on point {25 - j}"
                )
            board[25 - j] = -n
    board[0] = -opp[24]
    return tuple(board)
