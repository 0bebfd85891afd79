"""The sweep under the timers: stored deadlines enforced every few seconds, open tables that waited
too long withdrawn, and the games a stopped server served taken up again where their clocks stood."""

from __future__ import annotations

import asyncio
from typing import Callable

from table.errors import TableError
from table.server.online.base import log
from table.server.online.tables import Tables
from table.server.store import SqlStorage

EXPIRE_EVERY = 30.0
"""Seconds between looks for open tables that waited too long."""

SERVED_BEAT = 1.0
"""Seconds between the notes a server keeps of when it last served its games: after a crash, a
running decision goes on from where it stood at the last note (so it gains at most this much)."""
SERVED_NOTE = "served-at"
"""A single server keeps that note as a site-wide value in storage (``site_keys``); several
processes keep one per partition in Redis (``table.server.cluster``)."""


def last_served(storage: SqlStorage) -> float | None:
    """When a single server last noted that it served its games (None: never)."""
    saved = storage.site_value(SERVED_NOTE)
    try:
        return None if saved is None else float(saved)
    except ValueError:  # not a note of ours: as if none were kept
        return None


def note_served(storage: SqlStorage, now: float) -> None:
    """Note that a single server serves its games at ``now``."""
    storage.set_site_value(SERVED_NOTE, repr(now), now=now)


class Sweep(Tables):
    """The periodic check of every online game's clock, and recovery after a stop."""

    async def check_all(self) -> None:
        """``check`` every online room in memory, and load games whose stored clock ran out; every
        ``EXPIRE_EVERY`` s, withdraw the open tables that waited too long."""
        if self.now() - self._expired_at >= EXPIRE_EVERY:
            self._expired_at = self.now()
            await self.expire_tables()
        for room in self.rooms.loaded():
            if room.online is not None and not room.game.is_over:
                try:
                    await self.check(room)
                except TableError as exc:  # e.g. its forfeit could not be stored: the next sweep tries again
                    log.warning("room %s: its clock could not be checked: %s", room.id, exc)
        for game_id in await self._call(self.storage.expired_clocks, self.now()):
            if not self.rooms.owns(game_id):
                continue  # another worker's: it checks its own
            try:
                await self.check(await self.rooms.get(game_id))
            except TableError as exc:
                log.warning("game %s: its clock ran out but it could not be checked: %s", game_id, exc)

    async def recover(self) -> None:
        """At start-up of a single server: load every game being played, so that their clocks go on
        and their timers run, and end those whose stored deadline passed meanwhile (turn-based ones
        mostly). A running decision goes on from where it stood at the previous server's last note."""
        served = await self._call(last_served, self.storage)
        try:
            await self._call(note_served, self.storage, self.now())
        except TableError as exc:  # noted again every second (``keep_checking``)
            log.warning("could not note that this server serves its games: %s", exc)
        await self.load(await self.stopped(lambda game_id: True, lambda game_id: served))

    async def stopped(self, which: Callable[[str], bool], served: Callable[[str], float | None]) -> list[str]:
        """The games being played that ``which`` selects, noted as last served at ``served(game_id)``
        (None: not known) by a server that stopped: their running decisions go on from there as they load.
        A worker calls it for the partitions it takes before it serves them (then ``load``)."""
        games = [table.game_id for table in await self._call(self.storage.list_tables, ("playing",), private=True,
                                                              limit=100_000)
                 if table.game_id is not None and which(table.game_id)]
        for game_id in games:
            self._stopped[game_id] = served(game_id)
        return games

    async def load(self, games: list[str]) -> None:
        """Load ``games`` (those this process serves), then end any whose stored deadline has passed."""
        for game_id in games:
            if self.rooms.owns(game_id):
                try:
                    await self.rooms.get(game_id)
                except TableError as exc:
                    log.warning("game %s could not be loaded: %s", game_id, exc)
        await self.check_all()

    async def keep_checking(self, period: float = 5.0, beat: float = SERVED_BEAT) -> None:
        """Note every ``beat`` seconds that this server serves its games (a single server: see
        ``recover``) and ``check_all`` every ``period`` seconds (a safety net under the timers; runs
        until cancelled)."""
        loop = asyncio.get_running_loop()
        due = loop.time() + period
        while True:
            await asyncio.sleep(min(beat, period) if self.notes_served else period)
            try:
                if self.notes_served:
                    await self._call(note_served, self.storage, self.now())
                if loop.time() >= due:
                    due = loop.time() + period
                    await self.check_all()
            except TableError as exc:
                log.warning("checking clocks failed: %s", exc)
