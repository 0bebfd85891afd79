"""Turn-based (correspondence) tables: days per move, dice rolled when the turn is first opened.

A turn-based table's clock is a ``daysN`` preset (``table.server.play.clock``): N
days for each move and a bank of N more days for the whole match.  What
differs from a live table is decided here, as pure functions of the game and
its clock:

- a move is the roll and the play together: rolling does not restart the
  move's days (``keeps_running``);
- seed 001's dice rule: the dice are rolled the first time the player to move
  opens the game, and kept with the log, so a reload or another device shows
  the same dice (``roll_on_open``).  When the player may double first, the
  choice stays theirs: the dice are rolled when they choose to roll (a player
  must never see the dice before deciding to double);
- a table waits for a player when its clock runs for their seat (``waiting_for``).

Presence (away claims) does not apply to these tables: ``Online.claim`` refuses it.
"""

from __future__ import annotations

from typing import Any

from table.match.state import Phase
from table.server.play.clock import Clock
from table.server.play.game import Game

JSON = dict[str, Any]


def roll_on_open(game: Game, seats: frozenset[int]) -> JSON | None:
    """Roll for the holder of ``seats`` if they are to roll and have no other choice; the log entry, or None.

    >>> from table.rules.dice import SeededDice
    >>> from table.server.play.game import GameConfig
    >>> g = Game(GameConfig("online", 3, False, table="t", clock="days3"), SeededDice(1))
    >>> _ = g.apply_automatic(g.automatic())        # the opening roll
    >>> g.match.phase.value
    'move'
    >>> roll_on_open(g, frozenset({0, 1})) is None   # nobody is to roll yet
    True
    """
    m = game.match
    seat = game.to_act
    if game.is_over or m.phase != Phase.ROLL or seat not in seats:
        return None
    kinds = {a.kind for a in m.legal_actions()}
    if "roll" not in kinds or "double" in kinds:
        return None  # they may double first: the choice, and the roll, are theirs
    return game.act(frozenset({seat}), {"type": "roll"})


def keeps_running(clock: Clock, entry: JSON, after: int | None) -> bool:
    """Whether the running decision goes on after ``entry``: on a turn-based clock a roll is part of the move."""
    return clock.turn_based and entry.get("type") == "roll" and after is not None and after == clock.running


def waiting_for(clock: JSON | None) -> int | None:
    """The seat a stored clock waits for (None: nobody's move is timing)."""
    if clock is None:
        return None
    running = clock.get("running")
    return running if running in (0, 1) else None
