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
>>> game = parse_sgf("(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B]RE[W+1R];W[31hefe])")[0]
>>> game.players, game.length, game.result, [sgf_move(m) for m in game.moves]
(('A', 'B'), 3, 'W+1R', ['31hefe'])
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


# Reading whole records -----------------------------------------------------------

_TOKEN_RE = re.compile(r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)|"
                       r"(?P<ident>[A-Za-z]+)(?P<values>(?:\s*\[(?:[^\]\\]|\\.)*\])+))", re.S)
_VALUE_RE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)
# Set-up properties: a game that starts from a position other than the opening one.
_SETUP = {"AE", "AB", "AW", "CP", "CV"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)


def _trees(text: str) -> list[list[tuple[int, dict[str, list[str]]]]]:
    """Each game tree's main line: its nodes as (line number, properties)."""
    trees: list[list[tuple[int, dict[str, list[str]]]]] = []
    depth, pos = 0, 0
    node: dict[str, list[str]] | None = None
    while True:
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            if text[pos:].strip():
                raise RecordError(f"line {text.count(chr(10), 0, pos) + 1}: cannot read the SGF "
                                  f"text {text[pos:pos + 20].strip()!r}")
            break
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        pos = m.end()
        if m.group("open"):
            depth += 1
            if depth == 1:
                trees.append([])
        elif m.group("close"):
            depth -= 1
            if depth < 0:
                raise RecordError("SGF: a ')' closes nothing")
        elif m.group("node"):
            if depth < 1:
                raise RecordError("SGF: a node outside any game tree")
            node = {}
            if depth == 1:  # variations (deeper trees) are not part of the game played
                trees[-1].append((text.count("\n", 0, start) + 1, node))
        else:
            if node is None:
                raise RecordError("SGF: a property before the first node")
            values = [_unescape(v) for v in _VALUE_RE.findall(m.group("values"))]
            node.setdefault(m.group("ident"), []).extend(values)
    if depth:
        raise RecordError("SGF: a game tree is not closed with ')'")
    return trees


def _match_info(values: list[str], line: int) -> tuple[int, int, tuple[int, int]]:
    info = {}
    for value in values:
        key, _, number = value.partition(":")
        if not number.strip().isdigit():
            raise RecordError(f"line {line}: cannot read the match information MI[{value}]")
        info[key.strip()] = int(number)
    return info.get("length", 0), info.get("game", 0), (info.get("ws", 0), info.get("bs", 0))


def parse_sgf(text: str) -> list[SgfGame]:
    """The games of SGF backgammon text (``GM[6]``), as GNU Backgammon and Table write them.

    ``RecordError`` says what cannot be read; games set up from a position are refused.
    """
    return [game for game, _ in parse_sgf_lines(text)]


def parse_sgf_lines(text: str) -> list[tuple[SgfGame, tuple[int, ...]]]:
    """Like ``parse_sgf``, with the line number of each game's root node and of each move."""
    if not isinstance(text, str):
        raise RecordError(f"an SGF record is text, got {type(text).__name__}")
    out = []
    for tree in _trees(text):
        if not tree:
            continue
        line, root = tree[0]
        if root.get("GM", ["6"])[0].strip() != "6":
            raise RecordError(f"line {line}: GM[{root['GM'][0]}] is not a backgammon record (GM[6])")
        length, index, score = _match_info(root.get("MI", []), line)
        players = (root.get("PW", ["White"])[0], root.get("PB", ["Black"])[0])
        rules = tuple(r for value in root.get("RU", []) for r in value.split(":") if r)
        result = root.get("RE", [None])[0]
        moves, lines = [], [line]
        for node_line, node in tree:
            if _SETUP & node.keys():
                raise RecordError(f"line {node_line}: games set up from a position "
                                  f"({', '.join(sorted(_SETUP & node.keys()))}) cannot be replayed")
            if "PL" in node and "DI" in node:
                dice = node["DI"][0]
                if not re.fullmatch(r"[1-6][1-6]", dice):
                    raise RecordError(f"line {node_line}: DI[{dice}] is not a roll")
                player = 0 if node["PL"][0] == "W" else 1
                moves.append(SgfMove(player, "dice", (int(dice[0]), int(dice[1]))))
                lines.append(node_line)
            for colour in ("W", "B"):
                for value in node.get(colour, []):
                    try:
                        moves += parse_sgf_moves(f";{colour}[{value}]")
                    except RecordError as exc:
                        raise RecordError(f"line {node_line}: {exc}") from None
                    lines.append(node_line)
        out.append((SgfGame(players, length, index, score, rules, result, tuple(moves)),
                    tuple(lines)))
    if not out:
        raise RecordError("no SGF game tree found: a record starts with '(;'")
    return out
