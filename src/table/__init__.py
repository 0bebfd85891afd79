"""Table: backgammon as Romania knows it.

>>> from table import Position
>>> Position.initial().id
'4HPwATDgc/ABMA'
"""

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
from table.match import Match
from table.rules.dice import parse_dice
from table.rules.position import Play, Position

__version__ = "0.1.0"

__all__ = [
    "DiceError",
    "IllegalActionError",
    "IllegalPlayError",
    "Match",
    "MatchIdError",
    "MatchSettingsError",
    "NotationError",
    "Play",
    "Position",
    "PositionError",
    "PositionIdError",
    "RecordError",
    "TableError",
    "XgidError",
    "parse_dice",
]
