"""The computer player: turns the bot's decisions into wire actions for its seat.

Plays come from ``table.bot.Bot``.  The bot has no cube or resignation policy
of its own yet, so those answers are simple thresholds on its evaluation of
the position (cubeless chances), kept here until the bot grows them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol, Sequence

from table.errors import TableError
from table.match import Phase
from table.rules.position import Play, Position
from table.server.game import Game, to_abs

JSON = dict[str, Any]

# Cubeless winning chances at which the computer doubles, and below which it drops.
DOUBLE_AT = 0.72
TAKE_FROM = 0.24


class _Chances(Protocol):
    @property
    def win(self) -> float: ...
    @property
    def win_gammon(self) -> float: ...
    @property
    def win_backgammon(self) -> float: ...


class Player(Protocol):
    def choose_play(self, position: Position, dice: Sequence[int]) -> Play | None: ...
    def evaluate(self, position: Position) -> _Chances: ...


class _Even:
    win, win_gammon, win_backgammon = 0.5, 0.0, 0.0


class FirstPlay:
    """Stand-in used only when the bot cannot load (no weights yet): the engine's first play."""

    def choose_play(self, position: Position, dice: Sequence[int]) -> Play | None:
        plays = position.legal_plays(dice)
        return plays[0] if plays else None

    def evaluate(self, position: Position) -> _Chances:
        return _Even()


@lru_cache(maxsize=3)
def bot_for(level: str) -> Player:
    """One bot per level for the whole process (the weights load once)."""
    try:
        from table.bot.bot import Bot

        bot: Player = Bot(level=level, seed=None)
        return bot
    except (ImportError, TableError):
        return FirstPlay()


def choose_action(game: Game, seat: int) -> JSON:
    """The action the computer takes for ``seat`` at this moment of ``game``."""
    m = game.match
    bot = bot_for(game.config.level)
    phase = m.phase
    mine = m.position_for(seat)
    if phase == Phase.MOVE:
        assert m.dice is not None
        play = bot.choose_play(mine, m.dice)
        steps = [] if play is None else [[to_abs(seat, a), to_abs(seat, b)] for a, b in play.steps]
        return {"type": "move", "steps": steps}
    kinds = {a.kind for a in m.legal_actions()}
    if phase == Phase.ROLL:
        if "double" in kinds and bot.evaluate(mine).win >= DOUBLE_AT:
            return {"type": "double"}
        return {"type": "roll"}
    if phase == Phase.TAKE:
        # The doubler is on roll; judge the position as the doubler sees it.
        doubler = bot.evaluate(m.position)
        return {"type": "take" if 1.0 - doubler.win >= TAKE_FROM else "drop"}
    if phase == Phase.RESIGN:
        # Accept when the offer is at least what the game is likely to give.
        ev = bot.evaluate(mine)
        expected = 1 + (ev.win_gammon > 0.5) + (ev.win_backgammon > 0.5)
        level = m.resignation
        return {"type": "accept_resignation" if level >= expected else "reject_resignation"}
    raise AssertionError(f"the computer has nothing to decide in phase {phase.value}")  # pragma: no cover
