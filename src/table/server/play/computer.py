"""The computer player: the bot's next action, written as a wire action for its seat.

Every decision (plays, cube, resignations) comes from ``table.bot.player.next_action``;
this module only turns a chosen play into the steps the wire carries.

The thinking runs in another process (``table.server.play.pool``), so what it
needs travels as a ``BotTask``: the level and the match state as GNU
Backgammon's Position ID and Match ID, a few dozen bytes however long the
match has been.

>>> from table.server.play.game import Game, GameConfig
>>> from table.rules.dice import SeededDice
>>> game = Game(GameConfig("computer", length=3), SeededDice(1))
>>> _ = game.apply_automatic(game.automatic())
>>> seat = game.to_act
>>> task = task_for(game, seat)
>>> think(task) == choose_action(game, seat)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from table.bot.bot import Bot
from table.bot.net import shipped
from table.bot.player import next_action
from table.match import Match, Move, Phase
from table.match.state import acey_deucey_stage, plays_by_text
from table.rules.position import Position
from table.rules.variant import find_variant
from table.server.play.game import Game, to_abs
from table.server.play.greekview import is_round

JSON = dict[str, Any]


@lru_cache(maxsize=16)
def bot_for(level: str, variant: str = "standard") -> Bot:
    """One bot per level and variant for the whole process (the weights load once), playing with
    the networks that ship for the variant (``shipped``: the Greek games' own, Hypergammon's and
    Race's, the standard ones for Nackgammon and Portes)."""
    return Bot(level=level, seed=None, weights=shipped(find_variant(variant).weights))


def warm_up() -> None:
    """Load every level's network and compile the search (run in a worker process when a server
    starts), so that the first game's first move does not wait for it: on a machine that never
    ran Table the compiling takes the better part of a minute, and numba keeps it on disk after."""
    from table.rules.position import Position

    for level in ("easy", "medium", "hard"):
        bot = bot_for(level)
        bot.choose_play(Position.initial(), (3, 1))
        bot.cube_decision(Position.initial())


@dataclass(frozen=True)
class BotTask:
    """What the computer needs to decide, small and picklable: level, cube, the match state IDs
    and the variant (the IDs do not say which game is played)."""

    level: str
    seat: int
    position_id: str
    match_id: str
    cube: bool
    variant: str = "standard"
    stage: str | None = None  # Acey-Deucey: where the 1-2 turn is (the IDs cannot say a double is to be named)


def task_for(game: Game, seat: int) -> BotTask:
    """The task of deciding for ``seat`` at this moment of ``game``."""
    m = game.match
    assert m.turn == seat, "the computer is asked only when its seat must act"
    return BotTask(game.config.level, seat, m.position.id, m.match_id, game.config.cube, m.variant.name,
                   acey_deucey_stage(m.state))


def _wire(match: Match, seat: int, bot: Bot) -> JSON:
    action = next_action(bot, match)
    assert action is not None
    if isinstance(action, Move):
        assert match.dice is not None
        play = plays_by_text(match.position, match.dice).get(action.play) if action.play else None
        same_way = is_round(match.variant)  # Fevga: both sides count round the same way
        steps = [] if play is None else [[to_abs(seat, a, same_way), to_abs(seat, b, same_way)]
                                         for a, b in play.steps]
        return {"type": "move", "steps": steps}
    return {"type": action.kind}


def _named_double(bot: Bot, position: Position) -> JSON:
    """Acey-Deucey, after a 1-2: the double the bot names (``position`` seen by the same player)."""
    number, _ = bot.choose_double(position)
    return {"type": "name_double", "number": number}


def think(task: BotTask) -> JSON:
    """The wire action the computer takes in ``task`` (runs in a worker process)."""
    if task.stage == "name_double":
        return _named_double(bot_for(task.level, task.variant), Position.from_id(task.position_id, task.variant))
    match = Match.from_ids(task.position_id, task.match_id, cube=task.cube, jacoby=False, variant=task.variant)
    assert match.turn == task.seat, "the task's IDs put another seat on turn"
    return _wire(match, task.seat, bot_for(task.level, task.variant))


def choose_action(game: Game, seat: int) -> JSON:
    """The action the computer takes for ``seat`` at this moment of ``game``, in this process."""
    assert game.match.turn == seat, "the computer is asked only when its seat must act"
    bot = bot_for(game.config.level, game.match.variant.name)
    if game.match.phase == Phase.NAME_DOUBLE:
        return _named_double(bot, game.match.position)
    return _wire(game.match, seat, bot)
