"""GNU Backgammon Match IDs, and the combined ``PositionID:MatchID`` string.

A Match ID is a 66-bit *match key* written as 12 characters of base64 (9
bytes, no padding).  The layout follows section 11.7 of the GNU Backgammon
manual, bit 1 first, each field with its least significant bit first, and the
bit string packed into bytes from their least significant end:

====== ===================================================================
bits   field
====== ===================================================================
1-4    log2 of the cube value
5-6    cube owner: 0 = player 0, 1 = player 1, 3 = centred
7      dice owner: the player on roll, or the one who has rolled
8      Crawford game
9-11   game state (``GameState``)
12     turn: whose decision it is (after a double, the opponent's)
13     a double is being offered
14-15  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16-18  first die (0 = not rolled)
19-21  second die
22-36  match length (0 = money game)
37-51  player 0's score
52-66  player 1's score
====== ===================================================================

The documented key has no Jacoby bit, so ``MatchInfo`` has none.  The six
spare bits of the last character are not part of the key: they are ignored
when reading and written as zero.

Reading is as lenient as GNU Backgammon's ``set matchid`` (1.07, tried on
every combination of fields; see tests/notation/gnubg_matchids.py): it
refuses only a die above 6, a match longer than 64 points, a score above the
match length and a Crawford game in money play.  (A won match's score past the
length, which a gammon can bring and our own Match writes, is read as a
finished match; GNU Backgammon refuses it.)  Every other key is read the
way GNU Backgammon settles it: a cube value above 4096 is 1, owner bits 10
are a centred cube, a single rolled die is no roll, game states 5-7 are a
game over, and a pending double or resignation that does not fit the rest is
dropped (see ``_settle``).  What is read is always a key that reads back as
itself.

>>> info = decode_match_id("cIkSAAAAAAAA")
>>> info.cube_value, info.cube_owner, info.player_on_roll, info.dice, info.match_length
(1, None, 1, (5, 4), 0)
>>> encode_match_id(info)
'cIkSAAAAAAAA'
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from enum import IntEnum

from table.errors import MatchIdError
from table.rules.position import Position

__all__ = [
    "GameState",
    "MatchInfo",
    "decode_match_id",
    "encode_match_id",
    "gnubg_id",
    "parse_gnubg_id",
]

_ID_RE = re.compile(r"^[A-Za-z0-9+/]{12}$")
_KEY_BITS = 66
_MAX_CUBE_LOG = 15  # four bits
# GNU Backgammon's limits when reading a key: longer matches are refused,
# larger cubes are read as 1.
_GNUBG_MAX_CUBE_LOG = 12
_GNUBG_MAX_LENGTH = 64
_MAX_15_BITS = (1 << 15) - 1
_CENTRED = 3

# (name, first bit counting from 0, width) in the manual's order.
_LAYOUT = (
    ("cube", 0, 4),
    ("owner", 4, 2),
    ("dice_owner", 6, 1),
    ("crawford", 7, 1),
    ("state", 8, 3),
    ("turn", 11, 1),
    ("double", 12, 1),
    ("resign", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
)


class GameState(IntEnum):
    """Bits 9-11 of the match key."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


_FINISHED = (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)


@dataclass(frozen=True)
class MatchInfo:
    """Everything a Match ID records.  Players are 0 and 1, as in GNU Backgammon.

    Building one with impossible values raises ``MatchIdError`` saying which.

    ``cube_value`` is the value itself (1, 2, 4, ... 32768); ``cube_owner`` is
    ``None`` for a centred cube.  ``player_on_roll`` is the dice owner: the
    player about to roll or who has rolled.  ``turn`` is the player who must
    act now, which differs from ``player_on_roll`` while a double or a
    resignation awaits an answer.  ``dice`` is ``(0, 0)`` before the roll.
    ``match_length`` 0 is a money game; ``score`` is (player 0, player 1).

    >>> MatchInfo(dice=(7, 1))
    Traceback (most recent call last):
    ...
    table.errors.MatchIdError: each die is 0 (not rolled) to 6, got (7, 1)
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise MatchIdError(problem)
        object.__setattr__(self, "game_state", GameState(self.game_state))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _problem(info: MatchInfo) -> str | None:
    """What makes ``info`` impossible, or None."""
    cube = info.cube_value
    if not _is_int(cube) or cube < 1 or cube & (cube - 1) or cube > 1 << _MAX_CUBE_LOG:
        return f"the cube value must be a power of two from 1 to {1 << _MAX_CUBE_LOG}, got {cube!r}"
    if info.cube_owner not in (None, 0, 1) or isinstance(info.cube_owner, bool):
        return f"the cube owner must be None (centred), 0 or 1, got {info.cube_owner!r}"
    if info.cube_owner is not None and cube == 1:
        return "an owned cube has been doubled at least once, so its value cannot be 1"
    for name in ("player_on_roll", "turn"):
        value = getattr(info, name)
        if not _is_int(value) or value not in (0, 1):
            return f"{name} must be player 0 or 1, got {value!r}"
    for name in ("crawford", "double_offered"):
        if not isinstance(getattr(info, name), bool):
            return f"{name} must be True or False, got {getattr(info, name)!r}"
    if not _is_int(info.game_state) or info.game_state not in tuple(GameState):
        return f"the game state must be 0 to 4 (see GameState), got {info.game_state!r}"
    if not _is_int(info.resignation) or not 0 <= info.resignation <= 3:
        return f"the resignation must be 0 (none) to 3 (backgammon), got {info.resignation!r}"
    dice = info.dice
    if not isinstance(dice, tuple) or len(dice) != 2 or not all(_is_int(d) for d in dice):
        return f"dice must be a pair of whole numbers, got {dice!r}"
    if not all(0 <= d <= 6 for d in dice):
        return f"each die is 0 (not rolled) to 6, got {dice!r}"
    if (dice[0] == 0) != (dice[1] == 0):
        return f"both dice are rolled or neither is, got {dice!r}"
    length, score = info.match_length, info.score
    if not _is_int(length) or not 0 <= length <= _MAX_15_BITS:
        return f"the match length must be 0 (money) to {_MAX_15_BITS}, got {length!r}"
    if not isinstance(score, tuple) or len(score) != 2 or not all(_is_int(s) for s in score):
        return f"the score must be a pair of whole numbers, got {score!r}"
    if not all(0 <= s <= _MAX_15_BITS for s in score):
        return f"each score must be 0 to {_MAX_15_BITS}, got {score!r}"
    if length:
        reached = sum(s >= length for s in score)
        # Only the game that wins the match can take a score to the length.
        if reached and info.game_state not in _FINISHED:
            return (f"score {score[0]}-{score[1]} has reached the match length {length}, "
                    "but the game is not over")
    if info.crawford:
        if not length:
            return "a money game has no Crawford game"
        if max(score) < length - 1:
            return (f"the Crawford game needs a player at {length - 1} in a match to {length}, "
                    f"but the score is {score[0]}-{score[1]}")
        if cube != 1 or info.cube_owner is not None or info.double_offered:
            return "nobody may double in the Crawford game, so the cube stays at 1 in the centre"
    state = info.game_state
    # GNU Backgammon records each game's opening roll as "no game yet" with the dice set.
    if state == GameState.NO_GAME and (info.double_offered or info.resignation):
        return "before a game starts there are no doubles or resignations"
    if info.double_offered:
        if state != GameState.PLAYING:
            return "a double can only be offered while a game is being played"
        if dice != (0, 0):
            return f"a double is offered before rolling, but the dice show {dice[0]}-{dice[1]}"
        if info.turn == info.player_on_roll:
            return "after a double it is the opponent's turn to take or pass"
        if info.resignation:
            return "a double and a resignation cannot both be pending"
    if info.resignation and state not in (GameState.PLAYING, GameState.RESIGNED):
        return "a resignation can only be pending in a game being played"
    return None


def encode_match_id(info: MatchInfo) -> str:
    """The 12-character Match ID of ``info``.

    >>> encode_match_id(MatchInfo(cube_value=2, cube_owner=0, player_on_roll=1,
    ...     turn=1, dice=(5, 2), match_length=9, score=(2, 4)))
    'QYkqASAAIAAA'
    """
    values = {
        "cube": info.cube_value.bit_length() - 1,
        "owner": _CENTRED if info.cube_owner is None else info.cube_owner,
        "dice_owner": info.player_on_roll,
        "crawford": int(info.crawford),
        "state": int(info.game_state),
        "turn": info.turn,
        "double": int(info.double_offered),
        "resign": info.resignation,
        "die1": info.dice[0],
        "die2": info.dice[1],
        "length": info.match_length,
        "score0": info.score[0],
        "score1": info.score[1],
    }
    key = 0
    for name, start, _width in _LAYOUT:
        key |= values[name] << start
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchInfo:
    """Read a Match ID; ``MatchIdError`` says what is wrong with a bad one.

    >>> decode_match_id("QYkqASAAIAAA").score
    (2, 4)
    >>> decode_match_id("QYkqASAAIAA")
    Traceback (most recent call last):
    ...
    table.errors.MatchIdError: 'QYkqASAAIAA' is not a Match ID: expected 12 characters of A-Z a-z 0-9 + /, got 11
    """
    if not isinstance(text, str):
        raise MatchIdError(f"a Match ID is a string, got {type(text).__name__}")
    text = text.strip()
    if not _ID_RE.match(text):
        bad = sorted({c for c in text if not (c.isascii() and (c.isalnum() or c in "+/"))})
        detail = f"characters {''.join(bad)!r} are not base64" if bad else f"got {len(text)}"
        raise MatchIdError(
            f"{text!r} is not a Match ID: expected 12 characters of A-Z a-z 0-9 + /, {detail}"
        )
    try:
        raw = base64.b64decode(text, validate=True)
    except binascii.Error as exc:  # pragma: no cover - the pattern already guards
        raise MatchIdError(f"{text!r} is not valid base64: {exc}") from None
    key = int.from_bytes(raw, "little") & ((1 << _KEY_BITS) - 1)
    f = {name: (key >> start) & ((1 << width) - 1) for name, start, width in _LAYOUT}
    refusal = _gnubg_refuses(f)
    if refusal:
        raise MatchIdError(f"Match ID {text!r}: {refusal} (GNU Backgammon refuses it too)")
    f = _settle(f)
    try:
        return MatchInfo(
            cube_value=1 << f["cube"],
            cube_owner=None if f["owner"] == _CENTRED else f["owner"],
            player_on_roll=f["dice_owner"],
            crawford=bool(f["crawford"]),
            game_state=GameState(f["state"]),
            turn=f["turn"],
            double_offered=bool(f["double"]),
            resignation=f["resign"],
            dice=(f["die1"], f["die2"]),
            match_length=f["length"],
            score=(f["score0"], f["score1"]),
        )
    except MatchIdError as exc:
        raise MatchIdError(f"Match ID {text!r}: {exc}") from None


def _gnubg_refuses(f: dict[str, int]) -> str | None:
    """Why GNU Backgammon's ``set matchid`` refuses the raw key fields ``f``, or None."""
    if f["die1"] > 6 or f["die2"] > 6:
        return f"a die shows {max(f['die1'], f['die2'])}, but dice go to 6"
    length = f["length"]
    if length > _GNUBG_MAX_LENGTH:
        return f"a match is at most {_GNUBG_MAX_LENGTH} points, the key says {length}"
    score = (f["score0"], f["score1"])
    if length and max(score) > length:
        # GNU Backgammon refuses a won match's score past the length too, but a
        # gammon can take it there and our own Match writes such IDs.
        won = 2 <= f["state"] <= 4 and min(score) < length
        if not won:
            return f"score {score[0]}-{score[1]} is past the match length {length}"
    if not length and f["crawford"]:
        return "a money game has no Crawford game"
    return None


def _settle(raw: dict[str, int]) -> dict[str, int]:
    """The key fields as GNU Backgammon settles them on reading, made consistent.

    Where GNU Backgammon keeps something our ``MatchInfo`` cannot hold (game
    states 5-7, a score at the length while a game goes on) the nearest
    meaning is kept: no game is being played.
    """
    f = dict(raw)
    if f["cube"] > _GNUBG_MAX_CUBE_LOG:
        f["cube"] = 0  # GNU Backgammon refuses the value and leaves the cube at 1
    if f["owner"] == 2 or f["cube"] == 0:
        f["owner"] = _CENTRED  # bits 10 mean nothing; an undoubled cube belongs to nobody
    if (f["die1"] == 0) != (f["die2"] == 0):
        f["die1"] = f["die2"] = 0  # one die is no roll
    length, score = f["length"], (f["score0"], f["score1"])
    if f["state"] > max(GameState):
        f["state"] = GameState.OVER  # GNU Backgammon holds no game in progress
    if length and max(score) >= length and f["state"] in (GameState.NO_GAME, GameState.PLAYING):
        f["state"] = GameState.OVER  # the match is won: no game can be under way
    if f["crawford"] and max(score) < length - 1:
        f["crawford"] = 0  # GNU Backgammon drops a Crawford flag nobody is at match point for
    if f["crawford"]:
        f["cube"], f["owner"], f["double"] = 0, _CENTRED, 0  # the cube is out of play
    state = f["state"]
    if state != GameState.PLAYING:
        f["double"] = 0
        if state != GameState.RESIGNED:
            f["resign"] = 0
    if state in _FINISHED:
        f["die1"] = f["die2"] = 0  # GNU Backgammon sets dice only in a game being played
    elif state == GameState.NO_GAME:
        if f["die1"] == f["die2"]:
            f["die1"] = f["die2"] = 0  # an opening roll is never a double
        f["turn"] = f["dice_owner"]  # the opening roll's winner plays it
    elif f["double"] and (f["die1"] or f["turn"] == f["dice_owner"] or f["resign"]):
        # GNU Backgammon steps back to the doubler (the other player than ``turn``)
        # about to double; a resignation with it goes too.
        f["dice_owner"] = 1 - f["turn"]
        f["turn"], f["double"], f["resign"] = f["dice_owner"], 0, 0
    if state == GameState.PLAYING and f["die1"]:
        if f["resign"] and f["turn"] == f["dice_owner"]:
            f["resign"] = 0  # with the dice rolled only their roller may have resigned
        if not f["resign"]:
            f["turn"] = f["dice_owner"]  # the roller is to play
    elif state == GameState.PLAYING and not f["double"] and not f["resign"]:
        f["dice_owner"] = f["turn"]  # nothing pending: the player whose turn it is rolls
    return f


def gnubg_id(position: Position, info: MatchInfo) -> str:
    """The combined ``PositionID:MatchID`` that GNU Backgammon shows and accepts.

    GNU Backgammon writes the Position ID from the side of the dice owner, so
    ``position`` must be seen from ``info.player_on_roll``; a ``Position``
    always is seen from the player on roll, and this function only joins the
    two IDs.

    >>> gnubg_id(Position.initial(), decode_match_id("cIkSAAAAAAAA"))
    '4HPwATDgc/ABMA:cIkSAAAAAAAA'
    """
    return f"{position.id}:{encode_match_id(info)}"


def parse_gnubg_id(text: str) -> tuple[Position, MatchInfo]:
    """Read ``PositionID:MatchID``: the position, seen from ``info.player_on_roll``.

    A bad position half raises ``PositionIdError``, a bad match half ``MatchIdError``.

    >>> position, info = parse_gnubg_id("4HPwATDgc/ABMA:cIkSAAAAAAAA")
    >>> position == Position.initial(), info.player_on_roll
    (True, 1)
    """
    if not isinstance(text, str):
        raise MatchIdError(f"a GNU Backgammon ID is a string, got {type(text).__name__}")
    parts = text.strip().split(":")
    if len(parts) != 2:
        raise MatchIdError(
            f"{text.strip()!r} is not a GNU Backgammon ID: expected PositionID:MatchID "
            f"(one ':'), found {len(parts) - 1}"
        )
    position = Position.from_id(parts[0])
    return position, decode_match_id(parts[1])
