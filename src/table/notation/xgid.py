"""eXtreme Gammon XGIDs.

An XGID is ``XGID=`` and ten fields separated by colons::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10

1. the board, 26 characters drawn from the *bottom* player's side whoever is
   on roll: character 0 is the top player's bar, 1-24 are the bottom player's
   points 1-24, 25 is the bottom player's bar; ``-`` is empty, ``A``-``O`` are
   1-15 of the bottom player's checkers and ``a``-``o`` the top player's;
2. log2 of the cube value;
3. the cube's position: 1 bottom player owns it, 0 centred, -1 top player;
4. whose turn it is: 1 bottom player, -1 top player;
5. the dice: ``00`` not rolled yet, two digits for a roll, or ``D`` (the player
   on turn has doubled), ``B`` (the opponent beavered), ``R`` (raccoon);
6. and 7. the bottom and the top player's scores;
8. in a match 1 for the Crawford game; in money play Jacoby (1) plus beavers (2);
9. the match length, 0 for money play;
10. log2 of the largest cube allowed.

Here the two sides are named by XG's constants ``BOTTOM`` (1) and ``TOP`` (-1),
so ``turn``, ``cube_owner`` and ``score`` mean exactly what the fields say.
The ``position`` of an ``XgidInfo`` is a ``Position``, so it is always seen
from the player whose turn it is (the doubler while a double is pending).

>>> info = from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
>>> info.position == Position.initial(), info.turn, info.dice, info.max_cube
(True, 1, None, 1024)
>>> to_xgid(Position.initial())
'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from table.errors import PositionError, XgidError
from table.rules.board import BOARD_SIZE as _BOARD_SIZE
from table.rules.board import CHECKERS as _CHECKERS
from table.rules.position import Position

__all__ = ["BOTTOM", "TOP", "CubeOffer", "XgidInfo", "from_xgid", "to_xgid"]

BOTTOM = 1
TOP = -1

_PREFIX = "XGID="
_FIELDS = ("board", "cube value", "cube position", "turn", "dice", "bottom score",
           "top score", "Crawford/Jacoby", "match length", "max cube")
_INT_RE = re.compile(r"^(0|-?[1-9][0-9]*)$")
_MAX_CUBE_LOG = 15


class CubeOffer(IntEnum):
    """What the dice field says about a pending double; ``NONE`` is falsy."""

    NONE = 0
    DOUBLE = 1   # "D": the player on turn has doubled
    BEAVER = 2   # "B": the opponent has beavered
    RACCOON = 3  # "R": the doubler has raccooned


_OFFER_LETTERS = {CubeOffer.DOUBLE: "D", CubeOffer.BEAVER: "B", CubeOffer.RACCOON: "R"}


@dataclass(frozen=True)
class XgidInfo:
    """Everything an XGID records.  Building one with impossible values raises ``XgidError``.

    ``position`` is seen from the player on turn (``turn``, ``BOTTOM`` or
    ``TOP``).  ``cube_value`` and ``max_cube`` are values (1, 2, 4, ...), not
    logarithms; ``cube_owner`` is ``None`` (centred), ``BOTTOM`` or ``TOP``.
    ``dice`` is ``None`` until rolled.  ``score`` is (bottom, top).
    ``crawford`` belongs to matches, ``jacoby`` and ``beaver`` to money play.
    """

    position: Position
    cube_value: int = 1
    cube_owner: int | None = None
    turn: int = BOTTOM
    dice: tuple[int, int] | None = None
    double_offered: CubeOffer = CubeOffer.NONE
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise XgidError(problem)
        object.__setattr__(self, "double_offered", CubeOffer(self.double_offered))

    @property
    def xgid(self) -> str:
        """The XGID text, ``XGID=`` included.

        >>> XgidInfo(Position.initial(), turn=TOP, dice=(3, 1)).xgid
        'XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:0:10'
        """
        bottom_view = self.position if self.turn == BOTTOM else self.position.swapped()
        board = "".join(_letter(n) for n in bottom_view.board)
        if self.dice is not None:
            dice = f"{self.dice[0]}{self.dice[1]}"
        else:
            dice = _OFFER_LETTERS.get(self.double_offered, "00")
        if self.match_length:
            rules = int(self.crawford)
        else:
            rules = int(self.jacoby) + 2 * int(self.beaver)
        owner = 0 if self.cube_owner is None else self.cube_owner
        fields = (board, _log2(self.cube_value), owner, self.turn, dice, self.score[0],
                  self.score[1], rules, self.match_length, _log2(self.max_cube))
        return _PREFIX + ":".join(str(f) for f in fields)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _log2(value: int) -> int:
    return value.bit_length() - 1


def _is_cube(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)
            and 1 <= value <= 1 << _MAX_CUBE_LOG and not value & (value - 1))


def _letter(n: int) -> str:
    if n > 0:
        return chr(ord("A") + n - 1)
    if n < 0:
        return chr(ord("a") - n - 1)
    return "-"


def _problem(info: XgidInfo) -> str | None:
    """What makes ``info`` impossible, or None."""
    if not isinstance(info.position, Position):
        return f"position must be a Position, got {type(info.position).__name__}"
    if info.turn not in (BOTTOM, TOP) or not _is_int(info.turn):
        return f"turn must be BOTTOM (1) or TOP (-1), got {info.turn!r}"
    for name in ("cube_value", "max_cube"):
        if not _is_cube(getattr(info, name)):
            return (f"{name} must be a power of two from 1 to {1 << _MAX_CUBE_LOG}, "
                    f"got {getattr(info, name)!r}")
    if info.cube_value > info.max_cube:
        return f"the cube ({info.cube_value}) is above the largest cube allowed ({info.max_cube})"
    if info.cube_owner not in (None, BOTTOM, TOP) or isinstance(info.cube_owner, bool):
        return f"cube_owner must be None (centred), BOTTOM (1) or TOP (-1), got {info.cube_owner!r}"
    if info.cube_owner is not None and info.cube_value == 1:
        return "an owned cube has been doubled at least once, so its value cannot be 1"
    for name in ("crawford", "jacoby", "beaver"):
        if not isinstance(getattr(info, name), bool):
            return f"{name} must be True or False, got {getattr(info, name)!r}"
    offer = info.double_offered
    if not _is_int(offer) or offer not in tuple(CubeOffer):
        return f"double_offered must be a CubeOffer, got {offer!r}"
    dice = info.dice
    if dice is not None:
        if (not isinstance(dice, tuple) or len(dice) != 2
                or not all(_is_int(d) and 1 <= d <= 6 for d in dice)):
            return f"dice must be None or two numbers from 1 to 6, got {dice!r}"
        if offer:
            return "a double is answered before the roll, so dice and a double cannot both show"
    length, score = info.match_length, info.score
    if not _is_int(length) or length < 0:
        return f"the match length must be 0 (money) or more, got {length!r}"
    if not isinstance(score, tuple) or len(score) != 2 or not all(_is_int(s) and s >= 0 for s in score):
        return f"the score must be two whole numbers, 0 or more, got {score!r}"
    if length:
        if max(score) >= length:
            return (f"score {score[0]}-{score[1]} has reached the match length {length}: "
                    "the match is over")
        if info.jacoby or info.beaver:
            return "the Jacoby and beaver rules belong to money play, not to a match"
        if info.crawford:
            if max(score) != length - 1:
                return (f"the Crawford game needs a player at {length - 1} in a match to {length}, "
                        f"but the score is {score[0]}-{score[1]}")
            if info.cube_value != 1 or info.cube_owner is not None or offer:
                return "nobody may double in the Crawford game, so the cube stays at 1 in the centre"
    elif info.crawford:
        return "money play has no Crawford game"
    if offer >= CubeOffer.BEAVER and (length or not info.beaver):
        return "a beaver or raccoon needs money play with the beaver rule on"
    return None


def to_xgid(
    position: Position,
    *,
    cube_value: int = 1,
    cube_owner: int | None = None,
    turn: int = BOTTOM,
    dice: tuple[int, int] | None = None,
    double_offered: CubeOffer = CubeOffer.NONE,
    score: tuple[int, int] = (0, 0),
    match_length: int = 0,
    crawford: bool = False,
    jacoby: bool = False,
    beaver: bool = False,
    max_cube: int = 1024,
) -> str:
    """The XGID of ``position``, seen from the player on turn (``turn``).

    Impossible arguments raise ``XgidError``.  See ``XgidInfo`` for the meaning
    of each argument.

    >>> p = Position.from_checkers({6: 2, 5: 1}, {1: 3})
    >>> to_xgid(p, turn=TOP, cube_value=2, cube_owner=BOTTOM, dice=(6, 2),
    ...         score=(3, 4), match_length=7)
    'XGID=-C-----------------ba-----:1:1:-1:62:3:4:0:7:10'
    """
    return XgidInfo(
        position, cube_value=cube_value, cube_owner=cube_owner, turn=turn, dice=dice,
        double_offered=double_offered, score=score, match_length=match_length,
        crawford=crawford, jacoby=jacoby, beaver=beaver, max_cube=max_cube,
    ).xgid


def _int_field(fields: list[str], index: int) -> int:
    text = fields[index]
    if not _INT_RE.match(text):
        raise XgidError(f"the {_FIELDS[index]} field (number {index + 1}) must be a whole "
                        f"number, got {text!r}")
    return int(text)


def _cube_field(fields: list[str], index: int) -> int:
    log = _int_field(fields, index)
    if not 0 <= log <= _MAX_CUBE_LOG:
        raise XgidError(f"the {_FIELDS[index]} field is log2 of the cube, 0 to {_MAX_CUBE_LOG}, "
                        f"got {log}")
    return 1 << log


def _board_field(text: str) -> list[int]:
    """The board seen from the bottom player, in ``Position.board`` numbering."""
    if len(text) != _BOARD_SIZE:
        raise XgidError(f"the board field must have {_BOARD_SIZE} characters, got {len(text)}")
    board = []
    for i, c in enumerate(text):
        if c == "-":
            board.append(0)
        elif "A" <= c <= "O":
            board.append(ord(c) - ord("A") + 1)
        elif "a" <= c <= "o":
            board.append(-(ord(c) - ord("a") + 1))
        else:
            raise XgidError(f"board character {i} is {c!r}: use '-', A-O (bottom player) "
                            "or a-o (top player) for 0-15 checkers")
    if board[0] > 0:
        raise XgidError("board character 0 is the top player's bar, but holds bottom-player checkers")
    if board[25] < 0:
        raise XgidError("board character 25 is the bottom player's bar, but holds top-player checkers")
    for side, total in (("bottom", sum(n for n in board if n > 0)),
                        ("top", -sum(n for n in board if n < 0))):
        if total > _CHECKERS:
            raise XgidError(f"the board field gives the {side} player {total} checkers; "
                            f"at most {_CHECKERS} are allowed")
    return board


def from_xgid(text: str) -> XgidInfo:
    """Read an XGID (the ``XGID=`` prefix is optional); ``XgidError`` names a bad field.

    >>> info = from_xgid("XGID=-C-----------------ba-----:1:1:-1:62:3:4:0:7:10")
    >>> info.turn == TOP, info.position.checkers(), info.position.checkers(mover=False)
    (True, {5: 1, 6: 2}, {1: 3})
    >>> from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10")
    Traceback (most recent call last):
    ...
    table.errors.XgidError: the turn field (number 4) must be 1 (bottom player) or -1 (top player), got 2
    """
    if not isinstance(text, str):
        raise XgidError(f"an XGID is a string, got {type(text).__name__}")
    body = text.strip()
    if body[: len(_PREFIX)].upper() == _PREFIX:
        body = body[len(_PREFIX):]
    fields = body.split(":")
    if len(fields) != len(_FIELDS):
        raise XgidError(f"an XGID has {len(_FIELDS)} fields separated by ':', "
                        f"{text.strip()!r} has {len(fields)}")
    board = _board_field(fields[0])
    cube_value = _cube_field(fields, 1)
    owner = _int_field(fields, 2)
    if owner not in (-1, 0, 1):
        raise XgidError(f"the cube position field (number 3) must be 1 (bottom player), 0 "
                        f"(centred) or -1 (top player), got {owner}")
    turn = _int_field(fields, 3)
    if turn not in (BOTTOM, TOP):
        raise XgidError(f"the turn field (number 4) must be 1 (bottom player) or -1 "
                        f"(top player), got {turn}")
    dice_text = fields[4]
    letters = {v: k for k, v in _OFFER_LETTERS.items()}
    dice: tuple[int, int] | None = None
    offer = CubeOffer.NONE
    if dice_text in letters:
        offer = letters[dice_text]
    elif re.fullmatch(r"[1-6][1-6]", dice_text):
        dice = (int(dice_text[0]), int(dice_text[1]))
    elif dice_text != "00":
        raise XgidError(f"the dice field (number 5) must be 00, two dice 1-6 such as 62, "
                        f"or D, B or R, got {dice_text!r}")
    score = (_int_field(fields, 5), _int_field(fields, 6))
    rules = _int_field(fields, 7)
    length = _int_field(fields, 8)
    if length < 0:
        raise XgidError(f"the match length field (number 9) must be 0 (money) or more, got {length}")
    allowed = (0, 1) if length else (0, 1, 2, 3)
    if rules not in allowed:
        kind = "in a match it is 0 or 1 (Crawford)" if length else \
            "in money play it is 0 to 3 (Jacoby 1 + beaver 2)"
        raise XgidError(f"the Crawford/Jacoby field (number 8) is {rules}: {kind}")
    max_cube = _cube_field(fields, 9)
    try:
        bottom_view = Position(board)
    except PositionError as exc:
        raise XgidError(f"the board field is not a position: {exc}") from None
    try:
        return XgidInfo(
            bottom_view if turn == BOTTOM else bottom_view.swapped(),
            cube_value=cube_value,
            cube_owner=None if owner == 0 else owner,
            turn=turn,
            dice=dice,
            double_offered=offer,
            score=score,
            match_length=length,
            crawford=bool(length and rules),
            jacoby=bool(not length and rules & 1),
            beaver=bool(not length and rules & 2),
            max_cube=max_cube,
        )
    except XgidError as exc:
        raise XgidError(f"XGID {text.strip()!r}: {exc}") from None
