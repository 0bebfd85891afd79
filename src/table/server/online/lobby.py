"""The lobby: the tables open and being played, as JSON, and its pushes to watchers."""

from __future__ import annotations

import asyncio

from table.errors import TableError
from table.rules.variant import STANDARD
from table.server.online.base import JSON, log
from table.server.online.guests import Guests
from table.server.online.state import TableState
from table.server.play.clock import PRESETS
from table.server.play.rooms import Room
from table.server.protocol import Lobby as LobbyMsg
from table.server.protocol import encode
from table.server.store import OnlineTable, Player

LOBBY_DEBOUNCE = 0.5
"""Seconds the lobby waits after a change before pushing, so a burst of changes is one push."""

LOBBY_LIST = 100
"""Tables of each kind the lobby lists."""
LOBBY_PLAYING_READ = 300
"""Matches being played read for the lobby, of which those both players left are not listed."""
LOBBY_OPEN_READ = 300
"""Open tables read for the lobby, of which it lists those whose creators are waiting first."""
WAITING = 120.0
"""A table's creator seen this recently is waiting at it: the lobby lists such tables first."""


class Lobby(Guests):
    """Tables as the lobby and the table pages show them; the lobby pushed to its watchers."""

    def table_json(self, table: OnlineTable, players: tuple[Player | None, Player | None] | tuple[Player, Player],
                   points: list[int] | dict[int, int]) -> JSON:
        seats: list[JSON | None] = []
        for i, p in enumerate(players):
            if p is None:
                seats.append(None)
            else:
                pts = points[i] if isinstance(points, list) else points.get(p.id, 0)
                seats.append(self.player_json(p, pts))
        s = table.settings
        return {"id": table.id, "status": table.status, "length": s.get("length"), "cube": s.get("cube"),
                "clock": s.get("clock"), "private": bool(s.get("private")), "rated": s.get("rated", True),
                "turn_based": PRESETS[s["clock"]].turn_based if s.get("clock") in PRESETS else False,
                "variant": s.get("variant", STANDARD.name), "players": seats,
                "game": table.game_id, "created": table.created}

    async def _tables_json(self, tables: list[OnlineTable]) -> list[JSON]:
        ids = {i for tb in tables for i in tb.seats if i is not None}
        players = await self._players(ids)
        points: dict[int, int] = await self._call(self.storage.points_of, ids) if ids else {}
        return [self.table_json(tb, (players.get(tb.seats[0]) if tb.seats[0] is not None else None,
                                     players.get(tb.seats[1]) if tb.seats[1] is not None else None), points)
                for tb in tables]

    async def lobby(self) -> JSON:
        open_ = await self._call(self.storage.list_tables, ("open",), limit=LOBBY_OPEN_READ)
        # Under a flood of tables their makers left, the tables whose creators wait come first.
        seen = await self._last_seen({tb.creator for tb in open_})
        now_ = self.now()
        open_.sort(key=lambda tb: now_ - seen.get(tb.creator, tb.created) > WAITING)  # stable: newest first
        open_ = open_[:LOBBY_LIST]
        playing = await self._call(self.storage.list_tables, ("playing",), limit=LOBBY_PLAYING_READ)
        now = self.now()
        loaded = {room.id: room for room in self.rooms.loaded()}
        playing = [tb for tb in playing if not self._left_by_both(tb, loaded, now)][:LOBBY_LIST]
        return {"open": await self._tables_json(open_), "playing": await self._tables_json(playing),
                "now": now}

    def _left_by_both(self, table: OnlineTable, loaded: dict[str, Room], now: float) -> bool:
        """Whether the match at ``table`` is one both players left (``TableState.left_by_both``).

        A game this process serves that is not in memory has had nobody watching it for a while
        (rooms leave memory only then): left, unless turn-based.  Another process's game is listed
        (its players' presence is known there only)."""
        clock = table.settings.get("clock")
        if table.game_id is None or (clock in PRESETS and PRESETS[clock].turn_based):
            return False
        room = loaded.get(table.game_id)
        if room is None:
            return self.rooms.owns(table.game_id)
        state = room.online
        return isinstance(state, TableState) and state.left_by_both(now)

    def lobby_changed(self) -> None:
        """Push the lobby to its watchers soon (one push for a burst of changes), here and on the
        server's other processes."""
        if self.tell_others is not None:
            self.tell_others()
        self.lobby_changed_here()

    def lobby_changed_in(self, seconds: float) -> None:
        """``lobby_changed`` in ``seconds`` (when a match both players left leaves the lobby)."""
        asyncio.get_running_loop().call_later(seconds + 0.01, self.lobby_changed)

    def lobby_changed_here(self) -> None:
        """Push the lobby to this process's watchers soon."""
        if self._lobby_push is None and self.lobby_watchers:
            self._lobby_push = asyncio.get_running_loop().call_later(LOBBY_DEBOUNCE, self._spawn, self._push_lobby)

    async def _push_lobby(self) -> None:
        self._lobby_push = None
        try:
            text = encode(LobbyMsg(await self.lobby()))
        except TableError as exc:
            log.warning("the lobby could not be read: %s", exc)
            return
        for outbox in list(self.lobby_watchers):
            if not outbox.put(text):
                self.lobby_watchers.discard(outbox)
