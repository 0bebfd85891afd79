"""Checkers waiting off the board (Race, Dutch, Acey-Deucey): their board, ID and notation.

A reserve variant's raw board is the standard 26 entries plus ``b[26]``, the
mover's reserve, and ``b[27]``, the opponent's as a negative count (the why is
in ``table.rules.reservekernel``, which generates the plays).

**Position IDs.** GNU Backgammon's Position ID holds the board and the bar
only, so a reserve position's ID is the Position ID of its board followed by
the two reserve counts, the mover's first: ``<ID>:<mover>:<opponent>``.  The
start of Race, Dutch and Acey-Deucey is ``AAAAAAAAAAAAAA:15:15``.  The colon is
not a base64 character, so an ID of either kind is read without guessing.

**Notation.** A checker entering from the reserve is written from ``in``
(``in/22``, ``in/20*``, ``in/16`` for a checker that enters and moves on); the
bar stays ``bar``.

>>> board = decode_reserve_id("AAAAAAAAAAAAAA:15:15")
>>> board[26:], encode_reserve_id(board)
((15, -15), 'AAAAAAAAAAAAAA:15:15')
>>> format_reserve_steps([(26, 19), (19, 14)], [False, False], False)
'in/14'
>>> parse_reserve_text("in/22 bar/20*")
[Segment(src=26, dst=22, hit=False), Segment(src=25, dst=20, hit=True)]
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from table.errors import NotationError, PositionIdError
from table.rules.board import BAR, BOARD_SIZE, OFF
from table.rules.movetext import Segment, format_steps, parse_move_text
from table.rules.posid import decode_position_id, encode_position_id
from table.rules.reservekernel import RESERVE, RESERVE_BOARD_SIZE, THEIR_RESERVE

__all__ = ["RESERVE", "THEIR_RESERVE", "RESERVE_BOARD_SIZE", "flip_reserve_rows", "folded",
           "encode_reserve_id", "decode_reserve_id", "format_reserve_steps",
           "parse_reserve_text"]

_SUFFIX_RE = re.compile(r"^(?P<id>[^:]*):(?P<mine>[0-9]{1,2}):(?P<theirs>[0-9]{1,2})$")


def flip_reserve_rows(boards: np.ndarray) -> np.ndarray:
    """Each 28-entry row turned round for the other side, as a new array.

    >>> flip_reserve_rows(np.array([[0] * 24 + [1, 2, 3, -4]], dtype=np.int8))[0].tolist()[:3]
    [-2, -1, 0]
    >>> flip_reserve_rows(np.array([[0] * 24 + [1, 2, 3, -4]], dtype=np.int8))[0].tolist()[26:]
    [4, -3]
    """
    out = np.empty_like(boards)
    out[:, :BOARD_SIZE] = -boards[:, BOARD_SIZE - 1::-1]
    out[:, RESERVE] = -boards[:, THEIR_RESERVE]
    out[:, THEIR_RESERVE] = -boards[:, RESERVE]
    return out


def folded(board: Sequence[int]) -> tuple[int, ...]:
    """The 26-entry board with each side's reserve counted on its bar.

    For the questions where a waiting checker is like a hit one: checkers
    still in play, pips (25 each), contact, and the backgammon (docs/variants.md:
    a checker still waiting counts as on the bar).

    >>> folded([-1] + [0] * 24 + [2, 3, -4])[0], folded([-1] + [0] * 24 + [2, 3, -4])[25]
    (-5, 5)
    """
    b = list(board[:BOARD_SIZE])
    b[BAR] += board[RESERVE]
    b[OFF] += board[THEIR_RESERVE]
    return tuple(b)


def encode_reserve_id(board: Sequence[int]) -> str:
    """The extended Position ID of a 28-entry board: ``<Position ID>:<mover>:<opponent>``."""
    return f"{encode_position_id(tuple(board[:BOARD_SIZE]))}:{board[RESERVE]}:{-board[THEIR_RESERVE]}"


def decode_reserve_id(text: str) -> tuple[int, ...]:
    """The 28-entry board of an extended Position ID; ``PositionIdError`` says what is wrong."""
    if not isinstance(text, str):
        raise PositionIdError(f"a Position ID is a string, got {type(text).__name__}")
    m = _SUFFIX_RE.match(text.strip())
    if m is None:
        raise PositionIdError(
            f"{text!r} is not a Position ID of a game whose checkers start off the board: "
            "expected a Position ID, ':', the waiting checkers of the player on roll, ':', "
            "the opponent's (such as 'AAAAAAAAAAAAAA:15:15')")
    board = decode_position_id(m.group("id"))
    mine, theirs = int(m.group("mine")), int(m.group("theirs"))
    for who, n, side in (("player on roll", mine, 1), ("opponent", theirs, -1)):
        on_board = sum(abs(v) for v in board if v * side > 0)
        if on_board + n > 15:
            raise PositionIdError(
                f"Position ID {text!r} gives the {who} {on_board} checkers on the board and "
                f"{n} waiting; at most 15 are allowed")
    return board + (mine, -theirs)


def format_reserve_steps(steps: Sequence[tuple[int, int]], hits: Sequence[bool],
                         doubles: bool) -> str:
    """``movetext.format_steps`` with a step from the reserve (26) written from ``in``."""
    text = format_steps(steps, hits, doubles)
    # 26 is no point: it can only be the start of a word.
    return re.sub(r"(^| )26/", r"\1in/", text)


def parse_reserve_text(text: str) -> list[Segment]:
    """``movetext.parse_move_text`` that also reads ``in`` (the reserve) as a starting point."""
    if not isinstance(text, str):
        raise NotationError(f"move text must be a string, got {type(text).__name__}")
    segments: list[Segment] = []
    for word in text.strip().lower().replace(",", " ").split():
        if not re.match(r"^in/", word):
            segments.extend(parse_move_text(word))
            continue
        # Read as if from the bar, then start the word's first stretch (and each repeat's) in the reserve.
        parts = parse_move_text("bar" + word[2:])
        segments.extend(Segment(RESERVE, s.dst, s.hit) if s.src == BAR else s for s in parts)
    if not segments:
        raise NotationError("empty move text: write moves like 'in/22 13/10'")
    return segments
