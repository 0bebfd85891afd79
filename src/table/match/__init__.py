"""Games and matches: the doubling cube, the Crawford rule, resignations and scoring.

A pure state machine with no I/O: a ``Match`` is a log of actions and its
state is derived by applying them.

>>> m = Match(length=5, cube=True, seed=1)
>>> m.apply(OpeningRoll())
OpeningRoll(dice=(2, 5))
>>> m.turn, m.dice
(1, (5, 2))
"""

from table.match.actions import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    AcceptResignation,
    Action,
    Double,
    Drop,
    Move,
    NameDouble,
    NextGame,
    OpeningRoll,
    RecordedResult,
    RejectResignation,
    Resign,
    Roll,
    Take,
    action_from_json,
    action_to_json,
)
from table.match.match import Match
from table.match.state import GameResult, Phase, State

__all__ = [
    "BACKGAMMON",
    "GAMMON",
    "SINGLE",
    "AcceptResignation",
    "Action",
    "Double",
    "Drop",
    "GameResult",
    "Match",
    "Move",
    "NameDouble",
    "NextGame",
    "OpeningRoll",
    "Phase",
    "RecordedResult",
    "RejectResignation",
    "Resign",
    "Roll",
    "State",
    "Take",
    "action_from_json",
    "action_to_json",
]
