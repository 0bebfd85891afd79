"""Table: backgammon as Romania knows it.

>>> from table import Match, OpeningRoll, Position
>>> Position.initial().id
'4HPwATDgc/ABMA'
>>> m = Match(length=3, seed=1)
>>> m.apply(OpeningRoll())
OpeningRoll(dice=(2, 5))
"""

from table import jitcache  # noqa: F401  # first: it chooses where compiled code is cached
from table.errors import (
    DiceError,
    IllegalActionError,
    IllegalPlayError,
    MatchIdError,
    MatchSettingsError,
    NotationError,
    PositionError,
    PositionIdError,
    RecordError,
    TableError,
    XgidError,
)
from table.match import (
    AcceptResignation,
    Action,
    Double,
    Drop,
    GameResult,
    Match,
    Move,
    NextGame,
    OpeningRoll,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from table.rules.dice import parse_dice
from table.rules.position import Play, Position

__version__ = "0.1.0"

__all__ = [
    "AcceptResignation",
    "Action",
    "DiceError",
    "Double",
    "Drop",
    "GameResult",
    "IllegalActionError",
    "IllegalPlayError",
    "Match",
    "MatchIdError",
    "MatchSettingsError",
    "Move",
    "NextGame",
    "NotationError",
    "OpeningRoll",
    "Phase",
    "Play",
    "Position",
    "PositionError",
    "PositionIdError",
    "RecordError",
    "RejectResignation",
    "Resign",
    "Roll",
    "TableError",
    "Take",
    "XgidError",
    "parse_dice",
]
