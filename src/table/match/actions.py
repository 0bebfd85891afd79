"""The actions that make up a match, and their JSON form.

Every action is a small frozen value.  A match is the list of actions applied
to it; the web server puts them on the wire and stores them as JSON.

>>> Move("8/5 6/5").to_json()
{'type': 'move', 'play': '8/5 6/5'}
>>> action_from_json({'type': 'roll', 'dice': [3, 1]})
Roll(dice=(3, 1))
>>> Resign(2).to_json()
{'type': 'resign', 'level': 2}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Union

from table.errors import DiceError, NotationError, RecordError
from table.rules.dice import Dice, check_dice

if TYPE_CHECKING:
    from table.rules.position import Play

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3
LEVEL_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


def _dice_json(dice: Dice | None) -> list[int] | None:
    return None if dice is None else [dice[0], dice[1]]


def _read_dice(data: dict[str, Any], kind: str) -> Dice | None:
    raw = data.get("dice")
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise RecordError(f"{kind}: 'dice' must be a list of two numbers, got {raw!r}")
    try:
        return check_dice(tuple(raw))
    except DiceError as exc:
        raise RecordError(f"{kind}: {exc}") from None


@dataclass(frozen=True)
class OpeningRoll:
    """Each player rolls one die; the higher plays both.  ``dice`` is (player 0's die, player 1's).

    Leave ``dice`` as ``None`` to have the match's dice source roll them.
    """

    dice: Dice | None = None
    kind: ClassVar[str] = "opening_roll"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "dice": _dice_json(self.dice)}


@dataclass(frozen=True)
class Roll:
    """The player on roll rolls two dice (drawn from the match's dice source when ``None``)."""

    dice: Dice | None = None
    kind: ClassVar[str] = "roll"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "dice": _dice_json(self.dice)}


@dataclass(frozen=True)
class Move:
    """Play the rolled dice: ``play`` in standard notation, ``""`` when nothing can move.

    ``Move.of(play)`` makes the move of a ``Play`` already in hand (from
    ``Position.legal_plays``), which applies without looking its text up
    among all the legal plays:

    >>> from table.rules.position import Position
    >>> play = Position.initial().legal_plays((3, 1))[0]
    >>> move = Move.of(play)
    >>> move == Move(str(play)), move.to_json() == {"type": "move", "play": str(play)}
    (True, True)
    """

    play: str
    kind: ClassVar[str] = "move"
    # The play the text names, when the caller holds it: not part of the action's identity.
    resolved: Play | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, play: Play) -> Move:
        """The move that plays ``play``."""
        return cls(str(play), play)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "play": self.play}


@dataclass(frozen=True)
class Double:
    """Offer the cube at twice its value (before rolling)."""

    kind: ClassVar[str] = "double"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class Take:
    """Accept a double: own the cube at its new value."""

    kind: ClassVar[str] = "take"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class Drop:
    """Refuse a double: lose the game at the cube's value before the double."""

    kind: ClassVar[str] = "drop"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class Resign:
    """Offer to lose a single game (1), a gammon (2) or a backgammon (3), times the cube."""

    level: int
    kind: ClassVar[str] = "resign"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "level": self.level}


@dataclass(frozen=True)
class AcceptResignation:
    """Accept the resignation on offer: the game ends with those points."""

    kind: ClassVar[str] = "accept_resignation"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class RejectResignation:
    """Refuse the resignation on offer: play goes on."""

    kind: ClassVar[str] = "reject_resignation"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class NextGame:
    """Start the next game of the match once a game is over."""

    kind: ClassVar[str] = "next_game"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True)
class NameDouble:
    """Acey-Deucey: after playing the 1 and the 2 of a 1-2, name the double to play four times.

    Written ``names 6-6`` (``text``, read back by ``NameDouble.parse``):

    >>> NameDouble(6).text, NameDouble.parse("names 6-6"), NameDouble(6).to_json()
    ('names 6-6', NameDouble(number=6), {'type': 'name_double', 'number': 6})
    """

    number: int
    kind: ClassVar[str] = "name_double"

    @property
    def text(self) -> str:
        return f"names {self.number}-{self.number}"

    @classmethod
    def parse(cls, text: str) -> NameDouble:
        """Read ``names N-N`` (or just ``N-N``); ``NotationError`` says what is wrong."""
        m = re.fullmatch(r"\s*(?:names\s+)?([1-6])-([1-6])\s*", text.lower()) if isinstance(text, str) else None
        if m is None or m.group(1) != m.group(2):
            raise NotationError(f"a named double is written like 'names 6-6', got {text!r}")
        return cls(int(m.group(1)))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "number": self.number}


@dataclass(frozen=True)
class RecordedResult:
    """End the game as a record states it: ``winner`` gains ``points``, whatever the rules say.

    Never among the legal actions: only reading a real-world record that breaks
    the rules uses it (``Match.from_mat`` warns then), so that the match keeps
    the score the file states, as GNU Backgammon does.
    """

    winner: int
    points: int
    kind: ClassVar[str] = "recorded_result"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "winner": self.winner, "points": self.points}


Action = Union[
    OpeningRoll, Roll, Move, Double, Take, Drop, Resign,
    AcceptResignation, RejectResignation, NextGame, RecordedResult, NameDouble,
]

ACTION_TYPES: tuple[type[Action], ...] = (
    OpeningRoll, Roll, Move, Double, Take, Drop, Resign,
    AcceptResignation, RejectResignation, NextGame, RecordedResult, NameDouble,
)
_BY_KIND: dict[str, type[Action]] = {cls.kind: cls for cls in ACTION_TYPES}
_FIELDS: dict[str, frozenset[str]] = {
    "opening_roll": frozenset({"dice"}), "roll": frozenset({"dice"}),
    "move": frozenset({"play"}), "resign": frozenset({"level"}),
    "recorded_result": frozenset({"winner", "points"}), "name_double": frozenset({"number"}),
}


def is_level(value: object) -> bool:
    """Whether ``value`` is a resignation level: the whole number 1, 2 or 3 (not ``True``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in LEVEL_NAMES


def is_die(value: object) -> bool:
    """Whether ``value`` is a die's number: the whole number 1 to 6 (not ``True``)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def _read_number(data: dict[str, Any], kind: str, name: str, ok: Callable[[object], bool],
                 what: str) -> int:
    value = data.get(name)
    if not ok(value):
        raise RecordError(f"{kind}: {name!r} must be {what}, got {value!r}")
    assert isinstance(value, int)
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object of ``action`` (the same as ``action.to_json()``)."""
    return action.to_json()


def action_from_json(data: object) -> Action:
    """Read an action written by ``to_json``; ``RecordError`` says what is wrong.

    Any JSON value is answered with an action or a ``RecordError``: unknown
    fields and fields of the wrong type are refused, never ignored.

    >>> action_from_json({'type': 'resign', 'level': []})
    Traceback (most recent call last):
    ...
    table.errors.RecordError: resign: 'level' must be 1, 2 or 3, got []
    >>> action_from_json({'type': 'fly'})
    Traceback (most recent call last):
    ...
    table.errors.RecordError: unknown action type 'fly'; known: accept_resignation, double, drop, move, name_double, next_game, opening_roll, recorded_result, reject_resignation, resign, roll, take
    """
    if not isinstance(data, dict):
        raise RecordError(f"an action is a JSON object, got {data!r}")
    kind = data.get("type")
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"unknown action type {kind!r}; known: {', '.join(sorted(_BY_KIND))}")
    allowed = _FIELDS.get(cls.kind, frozenset())
    extra = sorted(map(repr, set(data) - allowed - {"type"}))
    if extra:
        takes = f"only {', '.join(sorted(allowed))}" if allowed else "no other field"
        raise RecordError(f"{cls.kind}: unknown field(s) {', '.join(extra)}; it takes {takes}")
    if cls is OpeningRoll:
        dice = _read_dice(data, cls.kind)
        if dice is not None and dice[0] == dice[1]:
            raise RecordError(f"opening_roll: the two dice must differ, got {list(dice)}")
        return OpeningRoll(dice)
    if cls is Roll:
        return Roll(_read_dice(data, cls.kind))
    if cls is Move:
        play = data.get("play")
        if not isinstance(play, str):
            raise RecordError(f"move: 'play' must be a string, got {play!r}")
        return Move(play)
    if cls is Resign:
        return Resign(_read_number(data, "resign", "level", is_level, "1, 2 or 3"))
    if cls is RecordedResult:
        winner, points = data.get("winner"), data.get("points")
        if winner not in (0, 1) or isinstance(winner, bool):
            raise RecordError(f"recorded_result: 'winner' must be player 0 or 1, got {winner!r}")
        if not isinstance(points, int) or isinstance(points, bool) or points < 1:
            raise RecordError(f"recorded_result: 'points' must be a whole number from 1, got {points!r}")
        return RecordedResult(winner, points)
    if cls is NameDouble:
        return NameDouble(_read_number(data, "name_double", "number", is_die, "a die's number, 1 to 6"))
    return cls()  # type: ignore[call-arg]
