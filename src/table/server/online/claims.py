"""Claims: ending a match against an opponent who went away, or ran out of time on an untimed table."""

from __future__ import annotations

from table.server.online.base import JSON, OnlineError
from table.server.online.state import AWAY_CLAIM, TableState, decider
from table.server.online.tables import Tables


class Claims(Tables):
    """A seated player's claim against the other seat."""

    async def claim(self, token: str | None, key: str) -> JSON:
        """End the match against an opponent away for 90 s (or out of time on an untimed table)."""
        _, table, seat = await self._seated(token, key)
        if table.status != "playing":
            raise OnlineError(f"this table is {table.status}, not playing", "not_playing", 409)
        room = await self._room(table)
        state = room.online
        assert isinstance(state, TableState)
        other, now = 1 - seat, self.now()
        if state.clock.turn_based:
            raise OnlineError("on a turn-based table nobody is claimed against: the days clock ends the match",
                              "cannot_claim", 409)
        since = state.away_since[other] if state.sockets[other] == 0 else None
        if since is not None and now - since >= AWAY_CLAIM:
            why = "away"
        elif state.clock.claim_only and state.clock.running == other and state.clock.flagged(now):
            why = "timeout"
        elif since is not None:
            # On the claimer's own turn their clock runs, away opponent or not: waiting only spends it.
            advice = ("; it is your turn and your clock is running: play on, their clock runs on their turn"
                      if decider(room.game) == seat else "")
            raise OnlineError(f"your opponent has been away for {now - since:.0f} s: you may claim after "
                              f"{AWAY_CLAIM:.0f} s ({AWAY_CLAIM - (now - since):.0f} s more){advice}",
                              "cannot_claim", 409)
        else:
            raise OnlineError("your opponent is here and within their time", "cannot_claim", 409)
        await self._forfeit(room, other, why)
        return {"table": (await self._tables_json([await self._reload(table.id)]))[0]}
