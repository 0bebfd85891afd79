"""The ``.mat`` match text format of Jellyfish, GNU Backgammon and eXtreme Gammon.

This module reads and writes the text only: a ``MatRecord`` holds the games
as the file lists them, column by column.  Replaying the moves against the
rules is ``table.match``'s job (``Match.from_mat``).

The layout, as GNU Backgammon writes it::

     5 point match

     Game 1
     Anca : 0                       Bogdan : 0
      1) 31: 8/5 6/5                 64: 24/18 13/9
      2)  Doubles => 2                Takes

Player 1 (the left column) is Table's player 0.  Points are numbered from the
mover's side, ``25`` is the bar and ``0`` is off; every die is written as its
own step.  A game ends with ``Wins N point(s)`` in the winner's column.

>>> rec = parse_mat(" 3 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5   42: 24/20 13/11\\n")
>>> rec.length, rec.players, [(e.player, e.kind, e.dice, e.move) for e in rec.games[0].entries]
(3, ('A', 'B'), [(0, 'roll', (3, 1), '8/5 6/5'), (1, 'roll', (4, 2), '24/20 13/11')])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from table.errors import RecordError
from table.rules.dice import Dice

_LEFT_WIDTH = 28
_SCORE_WIDTH = 31
_RIGHT_INDENT = 20  # an entry starting this far right of the margin is in the right column

_HEADER_RE = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH_RE = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE_RE = re.compile(r"^\s*(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)\s*$")
_NUMBERED_RE = re.compile(r"^\s*(\d+)\)(.*)$")
_START_RE = re.compile(
    r"(?<!\S)(?:\d\d:|Doubles\b|Takes\b|Drops\b|Passes\b|Accepts\b|Wins\b|Beavers\b|Raccoons\b)",
    re.I)
_ROLL_RE = re.compile(r"^(\d)(\d):\s*(.*)$")
_DOUBLE_RE = re.compile(r"^Doubles\s*=>\s*(\d+)$", re.I)
_WIN_RE = re.compile(r"^Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?\.?$", re.I)


@dataclass(frozen=True)
class MatEntry:
    """One thing a player did, as written.

    ``kind`` is ``roll`` (``dice`` and the ``move`` text, empty when nothing
    could move), ``double`` (``value`` is the cube's new value), ``take``,
    ``drop`` or ``win`` (``value`` is the points won).  ``line`` is the line
    number in the file it was read from (0 for a record built in memory).
    """

    player: int
    kind: str
    dice: Dice | None = None
    move: str = ""
    value: int = 0
    line: int = 0


@dataclass(frozen=True)
class MatGame:
    """One game: its number, the score before it (player 0, player 1) and its entries in order."""

    number: int
    score: tuple[int, int]
    entries: tuple[MatEntry, ...]
    line: int = 0


@dataclass(frozen=True)
class MatRecord:
    """A whole ``.mat`` file.  ``length`` 0 is a money session."""

    length: int
    players: tuple[str, str]
    games: tuple[MatGame, ...]
    headers: tuple[tuple[str, str], ...] = field(default=())

    def header(self, key: str) -> str | None:
        """The value of the ``; [key "value"]`` line, if there is one (case-insensitive key)."""
        for k, v in self.headers:
            if k.lower() == key.lower():
                return v
        return None


# Writing ---------------------------------------------------------------------


def _entry_text(e: MatEntry) -> str:
    if e.kind == "roll":
        assert e.dice is not None
        return f"{e.dice[0]}{e.dice[1]}: {e.move}".rstrip()
    if e.kind == "double":
        return f" Doubles => {e.value}"
    if e.kind == "take":
        return " Takes"
    if e.kind == "drop":
        return " Drops"
    if e.kind == "win":
        return f" Wins {e.value} point{'s' if e.value != 1 else ''}"
    raise ValueError(f"unknown entry kind {e.kind!r}")


def _game_lines(game: MatGame, players: tuple[str, str]) -> list[str]:
    left = f"{players[0]} : {game.score[0]}"
    lines = [f" Game {game.number}",
             f" {left:<{_SCORE_WIDTH}} {players[1]} : {game.score[1]}" if len(left) >= _SCORE_WIDTH
             else f" {left:<{_SCORE_WIDTH}}{players[1]} : {game.score[1]}"]
    number = 0
    row: list[str | None] = []

    def flush() -> None:
        nonlocal row
        if row:
            left_text = row[0] or ""
            right_text = row[1] if len(row) > 1 and row[1] else ""
            pad = left_text.ljust(_LEFT_WIDTH)
            if len(left_text) >= _LEFT_WIDTH and right_text and not right_text.startswith(" "):
                pad += " "
            lines.append(f"{number:3d}) {pad}{right_text}".rstrip())
        row = []

    for e in game.entries:
        if e.kind == "win":
            flush()
            text = _entry_text(e)
            lines.append(" " * 5 + (text if e.player == 0 else " " * _LEFT_WIDTH + text))
            continue
        if e.player == 0 or not row or len(row) > 1:
            flush()
            number += 1
            row = [None]
        if e.player == 0:
            row[0] = _entry_text(e)
        else:
            row.append(_entry_text(e))
    flush()
    return lines


def format_mat(record: MatRecord) -> str:
    """Write ``record`` in the layout GNU Backgammon uses."""
    out = [f'; [{k} "{v}"]' for k, v in record.headers]
    if out:
        out.append("")
    out += [f" {record.length} point match", ""]
    for game in record.games:
        out += _game_lines(game, record.players)
        out.append("")
    return "\n".join(out)


# Reading ---------------------------------------------------------------------


def _fail(line: int, message: str) -> RecordError:
    return RecordError(f"line {line}: {message}")


def _parse_entry(text: str, player: int, line: int) -> MatEntry:
    text = text.strip()
    m = _ROLL_RE.match(text)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise _fail(line, f"{a}{b} is not a roll: each die is 1 to 6")
        return MatEntry(player, "roll", dice=(a, b), move=m.group(3).strip(), line=line)
    m = _DOUBLE_RE.match(text)
    if m:
        return MatEntry(player, "double", value=int(m.group(1)), line=line)
    word = text.lower()
    if word in ("takes", "accepts"):
        return MatEntry(player, "take", line=line)
    if word in ("drops", "passes"):
        return MatEntry(player, "drop", line=line)
    m = _WIN_RE.match(text)
    if m:
        return MatEntry(player, "win", value=int(m.group(1)), line=line)
    if word.startswith(("beavers", "raccoons")):
        raise _fail(line, f"{text!r}: beavers are not part of the rules Table plays")
    raise _fail(line, f"cannot read {text!r}: expected a roll like '31: 8/5 6/5', "
                      "'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'")


def _split_entries(body: str, line: int, numbered: bool) -> list[tuple[int, str]]:
    """The entries of a line's body, each with its column (0 left, 1 right)."""
    starts = [m.start() for m in _START_RE.finditer(body)]
    if not starts:
        if body.strip():
            raise _fail(line, f"cannot read {body.strip()!r}")
        return []
    if body[:starts[0]].strip():
        raise _fail(line, f"cannot read {body[:starts[0]].strip()!r}")
    if len(starts) > 2:
        raise _fail(line, "more than two entries on one line")
    texts = [body[s:e] for s, e in zip(starts, starts[1:] + [len(body)])]
    if len(texts) == 2:
        return [(0, texts[0]), (1, texts[1])]
    limit = 8 if numbered else _RIGHT_INDENT
    return [(1 if starts[0] > limit else 0, texts[0])]


def parse_mat(text: str) -> MatRecord:
    """Read a ``.mat`` file; ``RecordError`` names the line of anything unreadable.

    >>> parse_mat(" 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 71: 8/1\\n")
    Traceback (most recent call last):
    ...
    table.errors.RecordError: line 4: 71 is not a roll: each die is 1 to 6
    """
    if not isinstance(text, str):
        raise RecordError(f"a .mat record is text, got {type(text).__name__}")
    headers: list[tuple[str, str]] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    games: list[MatGame] = []
    entries: list[MatEntry] = []
    current: tuple[int, tuple[int, int], int] | None = None  # number, score, line
    expect_score: int | None = None  # the line of a "Game N" waiting for its score line
    last_number = 0

    def close() -> None:
        if current is not None:
            games.append(MatGame(current[0], current[1], tuple(entries), current[2]))

    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            m = _HEADER_RE.match(line.strip())
            if m:
                headers.append((m.group(1), m.group(2)))
            continue
        if expect_score is not None:
            m = _SCORE_RE.match(line)
            if not m:
                raise _fail(n, f"expected the players and scores, like 'Anca : 0   Bogdan : 2', got {line.strip()!r}")
            names = (m.group(1), m.group(3))
            if players is None:
                players = names
            elif names != players:
                raise _fail(n, f"players {names[0]!r} and {names[1]!r} differ from game 1's "
                               f"{players[0]!r} and {players[1]!r}")
            assert current is not None
            current = (current[0], (int(m.group(2)), int(m.group(4))), current[2])
            expect_score = None
            continue
        m = _LENGTH_RE.match(line)
        if m:
            if length is not None:
                raise _fail(n, "a second match starts here; a .mat file holds one match")
            length = int(m.group(1))
            continue
        m = _GAME_RE.match(line)
        if m:
            if length is None:
                raise _fail(n, "a game starts before the 'N point match' line")
            close()
            entries = []
            current = (int(m.group(1)), (0, 0), n)
            expect_score = n
            last_number = 0
            continue
        if current is None:
            raise _fail(n, f"cannot read {line.strip()!r} before the first game")
        m = _NUMBERED_RE.match(line)
        if m:
            number = int(m.group(1))
            if number != last_number + 1:
                raise _fail(n, f"move number {number} follows {last_number}")
            last_number = number
            parts = _split_entries(m.group(2), n, numbered=True)
        else:
            parts = _split_entries(line, n, numbered=False)
            if any(not t.strip().lower().startswith("wins") for _, t in parts):
                raise _fail(n, f"a line without a move number holds only 'Wins ...': {line.strip()!r}")
        entries += [_parse_entry(t, player, n) for player, t in parts]
    if expect_score is not None:
        raise _fail(expect_score, "the game has no line with the players and scores")
    close()
    if length is None:
        raise RecordError("no 'N point match' line: this is not a .mat record")
    if players is None:
        raise RecordError("the record has no games")
    return MatRecord(length=length, players=players, games=tuple(games), headers=tuple(headers))
