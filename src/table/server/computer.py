"""The computer player: the bot's next action, written as a wire action for its seat.

Every decision (plays, cube, resignations) comes from ``table.bot.player.next_action``;
this module only turns a chosen play into the steps the wire carries.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from table.bot.bot import Bot
from table.bot.player import next_action
from table.match import Move
from table.match.state import plays_by_text
from table.server.game import Game, to_abs

JSON = dict[str, Any]


@lru_cache(maxsize=3)
def bot_for(level: str) -> Bot:
    """One bot per level for the whole process (the weights load once)."""
    return Bot(level=level, seed=None)


def choose_action(game: Game, seat: int) -> JSON:
    """The action the computer takes for ``seat`` at this moment of ``game``."""
    m = game.match
    assert m.turn == seat, "the computer is asked only when its seat must act"
    action = next_action(bot_for(game.config.level), m)
    assert action is not None
    if isinstance(action, Move):
        assert m.dice is not None
        play = plays_by_text(m.position, m.dice).get(action.play) if action.play else None
        steps = [] if play is None else [[to_abs(seat, a), to_abs(seat, b)] for a, b in play.steps]
        return {"type": "move", "steps": steps}
    return {"type": action.kind}
