"""Rematches: when both players of a finished match ask, a new table starts with the seats swapped."""

from __future__ import annotations

from table.errors import TableError
from table.server.online.base import JSON, OnlineError
from table.server.online.state import TableState
from table.server.online.tables import Tables
from table.server.protocol import Rematch as RematchMsg
from table.server.store import OnlineTable


class Rematch(Tables):
    """Rematch requests, kept while the finished game's room is in memory."""

    async def rematch(self, token: str | None, key: str) -> JSON:
        """Ask for a rematch; when both have, a new table starts with the seats swapped."""
        _, table, seat = await self._seated(token, key)
        if table.status != "finished":
            raise OnlineError("a rematch is asked for once the match is finished", "not_playing", 409)
        room = await self._room(table)
        state = room.online
        assert isinstance(state, TableState)
        state.rematch.add(seat)
        if state.rematch != {0, 1}:
            room.broadcast(RematchMsg(sorted(state.rematch)))
            return {"rematch": "asked", "table": None}
        if state.timer is not None:
            state.timer.cancel()
        swapped = (state.players[1], state.players[0])
        state.rematch = {0, 1, 2}  # asked and being done: a third request starts nothing
        new: OnlineTable | None = None
        try:
            new = await self._call(self.storage.create_table, swapped[0].id, {**table.settings}, now=self.now())
            started = await self._start(new, swapped,
                                        [await self._call(self.storage.token_hash, p.id) for p in swapped])
        except TableError:
            # Not started: asking again starts it; the table made for it (a second transaction, so it
            # may exist) is withdrawn where the database allows, so nobody else can sit at it.
            state.rematch = {0, 1}
            if new is not None:
                try:
                    await self._call(self.storage.abandon_open, [new.id], now=self.now())
                except TableError:
                    pass  # the database still fails: the table stays open, and its creator may withdraw it
            raise
        room.broadcast(RematchMsg([0, 1], new.id, started["table"]["game"]))
        return {"rematch": "started", **started}
