"""A stand-in for ``table.match`` until it lands: single games, no cube.

Temporary: it only sequences turns (opening roll, roll, play, game end) and
asks the engine for everything else.  The server talks to it through
``table.server.game``; when the real match state machine lands this module is
deleted and ``game`` is switched over.
"""

from __future__ import annotations

from dataclasses import dataclass

from table.errors import TableError
from table.rules.dice import Dice
from table.rules.position import Play, Position


class ActionError(TableError):
    """An action that is not allowed at this moment of the match."""


@dataclass(frozen=True)
class InterimMatch:
    """State after some actions; ``apply`` returns a new one."""

    length: int
    score: tuple[int, int] = (0, 0)
    turn: int | None = None          # seat on roll, None before the opening roll
    position: Position = Position.initial()
    dice: Dice | None = None
    game_result: int = 0             # points the last game was worth to its winner
    game_winner: int | None = None

    @property
    def is_over(self) -> bool:
        return any(s >= self.length for s in self.score)

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.score[0] >= self.length else 1

    def legal_actions(self) -> list[str]:
        if self.is_over:
            return []
        if self.dice is None:
            return ["roll"]
        return ["move"]

    def opening(self, starter: int, dice: Dice) -> InterimMatch:
        if self.turn is not None and self.game_winner is None:
            raise ActionError("the game has already started")
        return InterimMatch(self.length, self.score, starter, Position.initial(), dice)

    def roll(self, dice: Dice) -> InterimMatch:
        if "roll" not in self.legal_actions() or self.turn is None:
            raise ActionError("it is not the moment to roll")
        return InterimMatch(self.length, self.score, self.turn, self.position, dice)

    def move(self, play: Play | None) -> InterimMatch:
        if self.dice is None or self.turn is None:
            raise ActionError("roll the dice before moving")
        after = play.position if play is not None else self.position.swapped()
        result = after.result()
        if result:
            # ``after`` is seen from the opponent, so the mover won (result < 0).
            points = -result
            score = list(self.score)
            score[self.turn] += points
            return InterimMatch(self.length, (score[0], score[1]), None, Position.initial(),
                                None, points, self.turn)
        return InterimMatch(self.length, self.score, 1 - self.turn, after, None)
