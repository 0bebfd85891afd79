"""Table: backgammon as Romania knows it.

>>> from table import Position
>>> Position.initial().id
'4HPwATDgc/ABMA'
"""

from table.errors import (
    DiceError,
    IllegalPlayError,
    MatchIdError,
    NotationError,
    PositionError,
    PositionIdError,
    TableError,
    XgidError,
)
from table.rules.dice import parse_dice
from table.rules.position import Play, Position

__version__ = "0.1.0"

__all__ = [
    "DiceError",
    "IllegalPlayError",
    "MatchIdError",
    "NotationError",
    "Play",
    "Position",
    "PositionError",
    "PositionIdError",
    "TableError",
    "XgidError",
    "parse_dice",
]
