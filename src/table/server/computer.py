"""The computer player: turns the bot's decisions into wire actions for its seat.

Plays, cube decisions and answers to resignations all come from
``table.bot.Bot``; this module only says whose side each question is seen from.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from table.bot.bot import Bot
from table.bot.cube import Owner
from table.match import Phase
from table.server.game import Game, to_abs

JSON = dict[str, Any]

@lru_cache(maxsize=3)
def bot_for(level: str) -> Bot:
    """One bot per level for the whole process (the weights load once)."""
    return Bot(level=level, seed=None)


def _owner(game: Game, player: int) -> Owner:
    owner = game.match.cube_owner
    return "centre" if owner is None else "player" if owner == player else "opponent"


def _score(game: Game, player: int) -> tuple[int, int]:
    a, b = game.match.score
    return (a, b) if player == 0 else (b, a)


def choose_action(game: Game, seat: int) -> JSON:
    """The action the computer takes for ``seat`` at this moment of ``game``."""
    m = game.match
    bot = bot_for(game.config.level)
    phase = m.phase
    length = 0 if game.single else m.length  # a single game is money play
    if phase == Phase.MOVE:
        assert m.dice is not None
        play = bot.choose_play(m.position_for(seat), m.dice)
        steps = [] if play is None else [[to_abs(seat, a), to_abs(seat, b)] for a, b in play.steps]
        return {"type": "move", "steps": steps}
    kinds = {a.kind for a in m.legal_actions()}
    if phase == Phase.ROLL:
        if "double" in kinds:
            d = bot.cube_decision(m.position_for(seat), m.cube_value, _owner(game, seat), length,
                                  _score(game, seat), m.crawford, m.jacoby)
            if d.double:
                return {"type": "double"}
        return {"type": "roll"}
    if phase == Phase.TAKE:
        # The doubler is on roll: judge the double from the doubler's side.
        doubler = m.state.on_roll
        d = bot.cube_decision(m.position, m.cube_value, _owner(game, doubler), length,
                              _score(game, doubler), m.crawford, m.jacoby)
        return {"type": "take" if d.take else "drop"}
    if phase == Phase.RESIGN:
        accept = bot.accepts_resignation(m.position, m.resignation, m.cube_value, _owner(game, seat),
                                         length, _score(game, seat), m.crawford,
                                         bot_on_roll=m.state.on_roll == seat)
        return {"type": "accept_resignation" if accept else "reject_resignation"}
    raise AssertionError(f"the computer has nothing to decide in phase {phase.value}")  # pragma: no cover
