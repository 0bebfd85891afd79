"""The computer player: turns a bot's decision into a wire action for its seat."""

from __future__ import annotations

from typing import Any

from table.server.game import Game, to_abs

JSON = dict[str, Any]


def choose_action(game: Game, seat: int, level: str) -> JSON:
    """The action the computer takes for ``seat`` at this moment of ``game``."""
    graph = game.graph
    # Interim until table.bot lands: the play that leaves the fewest own pips
    # exposed is not attempted; take the first legal play the engine lists.
    play = graph.plays[0]
    return {"type": "move", "steps": [[to_abs(seat, a), to_abs(seat, b)] for a, b in play.steps]}
