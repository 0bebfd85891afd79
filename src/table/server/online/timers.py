"""Each online room's timer: a match ended at its deadline, the next game started after the pause;
a room given its table state as it loads, a turn-based player's dice rolled as they open the game."""

from __future__ import annotations

import asyncio

from table.errors import TableError
from table.match import NextGame
from table.match.state import Phase
from table.server.online.base import JSON, log
from table.server.online.lobby import Lobby
from table.server.online.state import TableState, stored_deadline
from table.server.play.clock import Clock, new_clock
from table.server.play.game import Game
from table.server.play.rooms import Room, RoomError
from table.server.play.turns import roll_on_open
from table.server.store import TableRoom

NEXT_GAME_PAUSE = 10.0
"""Seconds between the games of a match before the server starts the next one itself."""


class Timers(Lobby):
    """The timers of the online rooms in memory, and the table state each room carries."""

    async def _attach(self, room: Room) -> None:
        """Give a room loaded from storage its table state; after its server stopped, a running
        decision goes on from where it stood when a server last served it."""
        loaded: TableRoom | None = await self._call(self.storage.table_room, room.game.config.table, room.id)
        first, second = loaded.table.seats if loaded is not None else (None, None)
        if loaded is None or first is None or second is None:
            raise RoomError(f"game {room.id!r} has no table", "not_found")
        table, points, saved = loaded.table, loaded.points, loaded.clock
        ids = (first, second)
        for player in loaded.players.values():
            self._remember(player)
        players = await self._players(set(ids))
        clock = new_clock(table.settings["clock"], table.settings["length"])
        if saved is not None:
            clock = Clock.from_json(saved[0])
        now = self.now()
        stopped = room.id in self._stopped
        served = self._stopped.pop(room.id, None)
        if (stopped and clock.running is not None and not (clock.claim_only or clock.turn_based)
                and not room.game.is_over):
            # No server served this decision for a while: nobody loses that time, and nobody gains more.
            # (An untimed decision keeps its start: it has no reserve to lose, only a claim to allow; a
            # turn-based move keeps its stored deadline: days are counted on the calendar, server up or not.
            # A room that merely left memory was served all along: its clock stands as stored.)
            clock = clock.resume(now, served)
            await self._call(self.storage.save_clock, room.id, clock.to_json(), stored_deadline(clock))
        ledger = []
        for line in reversed(loaded.ledger):
            ledger.append({"seat": ids.index(line.player_id), "amount": line.amount, "reason": line.reason})
        state = TableState(self, table, room.id, (players[ids[0]], players[ids[1]]),
                           [points[ids[0]], points[ids[1]]], clock, ledger, [now, now])
        room.online = state
        if room.game.match.phase == Phase.GAME_OVER and not room.game.is_over:
            state.between_since = now
        self.arm(room, state)

    async def opened(self, room: Room, seats: frozenset[int]) -> None:
        """A player opened the game (said hello): on a turn-based table their dice are rolled now (seed 001)."""
        state = room.online
        if not seats or not isinstance(state, TableState) or not state.clock.turn_based:
            return
        if await room.server_step(lambda game: roll_on_open(game, seats)):
            await self.rooms.settle(room)  # a forced move after the roll is the server's

    def arm(self, room: Room, state: TableState) -> None:
        """Set the room's timer to its next deadline: the running clock's, or the end of the pause between games."""
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        game = room.game
        if game.is_over:
            return
        if game.match.phase == Phase.GAME_OVER:
            if state.between_since is None:
                state.between_since = self.now()
            at: float | None = state.between_since + NEXT_GAME_PAUSE
        else:
            state.between_since = None
            # Turn-based deadlines are days away: the periodic sweep of stored deadlines enforces them.
            at = None if state.clock.claim_only or state.clock.turn_based else state.clock.deadline()
        if at is None:
            return
        state.timer = asyncio.get_running_loop().call_later(max(0.0, at - self.now()) + 0.01,
                                                            self._spawn, self._fire, room)

    async def _fire(self, room: Room) -> None:
        try:
            await self.check(room)
        except TableError as exc:
            if room.retired:
                return  # another worker serves it now, and keeps its time
            log.warning("room %s: the timer's step is postponed: %s", room.id, exc)
            state = room.online
            if isinstance(state, TableState):
                state.timer = asyncio.get_running_loop().call_later(1.0, self._spawn, self._fire, room)

    async def check(self, room: Room) -> None:
        """Do what is due at ``now``: end a match whose clock ran out, start the next game after the pause."""
        state = room.online
        if not isinstance(state, TableState):
            return
        now = self.now()

        def step(game: Game) -> JSON | None:
            if game.is_over:
                return None
            if game.match.phase == Phase.GAME_OVER:
                since = state.between_since
                if since is not None and now >= since + NEXT_GAME_PAUSE:
                    return game.apply_automatic(NextGame())
                return None
            if not state.clock.claim_only and state.clock.running is not None and state.clock.flagged(now):
                return game.forfeit_match(state.clock.running, "timeout")
            return None

        if await room.server_step(step):
            await self.rooms.settle(room)
        else:
            self.arm(room, state)
