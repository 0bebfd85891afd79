"""Smart Game Format for backgammon (``GM[6]``), as GNU Backgammon writes it.

White is player 0 and Black player 1.  Points are single letters: ``a`` is
White's 1 point (Black's 24) through ``x``, White's 24 point (Black's 1);
``y`` is the bar and ``z`` is off.  A move is the roll followed by one
from/to pair per die; cube actions are ``double``, ``take`` and ``drop``.
Dice rolled but never played (the roller resigned) are a ``PL[B]DI[64]`` node,
as GNU Backgammon writes them.
Each game is its own tree; ``MI`` gives the match length, the game (counted
from 0, as GNU Backgammon does) and the score before it.

>>> sgf_move(SgfMove(0, "roll", (3, 1), ((8, 5), (6, 5))))
'31hefe'
>>> sgf_move(SgfMove(1, "roll", (6, 1), ((25, 18),)))
'61yg'
>>> [(m.player, sgf_move(m)) for m in parse_sgf_moves("(;GM[6];W[31hefe];B[double])")]
[(0, '31hefe'), (1, 'double')]
>>> format_sgf([SgfGame(("A", "B"), 3, 0, (0, 0), (), "W+1R", (SgfMove(1, "dice", (6, 4)),))]).split()[-1]
';PL[B]DI[64])'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from table.errors import RecordError
from table.rules.dice import Dice

_BAR, _OFF = 25, 0


@dataclass(frozen=True)
class SgfMove:
    """One node: a roll and its steps (in the mover's own numbering, 25 = bar, 0 = off), or a cube action.

    ``kind`` ``"dice"`` is a roll left unplayed: its player resigned with the dice rolled.
    """

    player: int
    kind: str  # "roll", "dice", "double", "take" or "drop"
    dice: Dice | None = None
    steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class SgfGame:
    """One game tree.  ``result`` is like ``W+2`` or ``B+1R`` (R: by resignation), or ``None``."""

    players: tuple[str, str]
    length: int
    index: int
    score: tuple[int, int]
    rules: tuple[str, ...]
    result: str | None
    moves: tuple[SgfMove, ...]


def point_letter(player: int, point: int) -> str:
    """The letter of ``point`` (in ``player``'s own numbering) on the SGF board."""
    if point == _BAR:
        return "y"
    if point == _OFF:
        return "z"
    white_point = point if player == 0 else 25 - point
    return chr(ord("a") + white_point - 1)


def letter_point(player: int, letter: str) -> int:
    """The inverse of ``point_letter``."""
    if letter == "y":
        return _BAR
    if letter == "z":
        return _OFF
    white_point = ord(letter) - ord("a") + 1
    if not 1 <= white_point <= 24:
        raise RecordError(f"{letter!r} is not an SGF backgammon point (a-x, y = bar, z = off)")
    return white_point if player == 0 else 25 - white_point


def sgf_move(move: SgfMove) -> str:
    """The value of a move node, e.g. ``31hefe`` or ``double``."""
    if move.kind == "dice":
        raise ValueError("unplayed dice are a PL[]DI[] node, not a move")
    if move.kind != "roll":
        return move.kind
    assert move.dice is not None
    pairs = "".join(point_letter(move.player, a) + point_letter(move.player, b) for a, b in move.steps)
    return f"{move.dice[0]}{move.dice[1]}{pairs}"


def _dice(move: SgfMove) -> str:
    assert move.dice is not None
    return f"{move.dice[0]}{move.dice[1]}"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def format_sgf(games: Sequence[SgfGame], application: str = "Table") -> str:
    """Write the games, one tree each, in the order given."""
    out = []
    for g in games:
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(application)}]"
                f"MI[length:{g.length}][game:{g.index}][ws:{g.score[0]}][bs:{g.score[1]}]"
                f"PW[{_escape(g.players[0])}]PB[{_escape(g.players[1])}]")
        if g.rules:
            root += "RU[" + ":".join(_escape(r) for r in g.rules) + "]"
        if g.result:
            root += f"RE[{g.result}]"
        lines = [root]
        lines += [f";PL[{'WB'[m.player]}]DI[{_dice(m)}]" if m.kind == "dice"
                  else f";{'WB'[m.player]}[{sgf_move(m)}]" for m in g.moves]
        out.append("\n".join(lines) + ")")
    return "\n".join(out) + "\n"


_NODE_MOVE_RE = re.compile(r";\s*(?:([WB])\[([^\]]*)\]|PL\[([WB])\]\s*DI\[([1-6][1-6])\])")
_ROLL_RE = re.compile(r"^([1-6])([1-6])((?:[a-z][a-z]){0,4})$")


def parse_sgf_moves(text: str) -> list[SgfMove]:
    """The move nodes of SGF text, in order (a reader for checking what was written)."""
    moves = []
    for m in _NODE_MOVE_RE.finditer(text):
        if m.group(3):
            dice = m.group(4)
            moves.append(SgfMove(0 if m.group(3) == "W" else 1, "dice", (int(dice[0]), int(dice[1]))))
            continue
        player = 0 if m.group(1) == "W" else 1
        value = m.group(2)
        if value in ("double", "take", "drop"):
            moves.append(SgfMove(player, value))
            continue
        r = _ROLL_RE.match(value)
        if not r:
            raise RecordError(f"cannot read the SGF move {value!r}")
        pairs = r.group(3)
        steps = tuple((letter_point(player, pairs[i]), letter_point(player, pairs[i + 1]))
                      for i in range(0, len(pairs), 2))
        moves.append(SgfMove(player, "roll", (int(r.group(1)), int(r.group(2))), steps))
    return moves
