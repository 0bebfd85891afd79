"""Several server processes over PostgreSQL and Redis (docs/scaling.md).

Every game belongs to one of ``partitions`` partitions by a fixed hash of its
id (``table.server.cluster.partitions``), and each partition has one owner at
a time: the process holding its PostgreSQL advisory lock
(``table.server.cluster.ownership``).
Only the owner loads a game and applies to it, exactly as a single process
does (``table.server.play.rooms``), so the rules, clocks, presence and chat of a
table live in one place. A process gives new games ids in its own partitions.

A request or WebSocket for a game that reaches another process is carried to
the owner through Redis: its ASGI messages go on the partition's command
stream (``table.server.cluster.bus``), the owner runs its own app on them as if the
client were connected to it, and what the app sends comes back on the asking
process's inbox stream. The other processes carry text and nothing else.
When the owner goes (killed, or handing partitions over as processes come and
go), its sockets close with ``MOVED_CODE``; the clients reconnect and are
carried to the new owner, which loads the game from the database.
(The carrying is :class:`table.server.cluster.routed.Carrier`, which the
:class:`Cluster` of this module is; this module keeps the membership: the
heartbeat, the share of partitions, taking and handing them over.)

Delivery is at most once: a command whose owner died before it was served is
dropped, like a message lost with a socket, and the client, which got no
answer, asks again. Whatever a client was told had been stored first, so
nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError
from starlette.types import ASGIApp

from table.errors import TableError
from table.server.cluster.bus import CommandBus
from table.server.cluster.ownership import Ownership
from table.server.cluster.partitions import partition_lock, partition_of, stable_hash
from table.server.cluster.routed import Carrier, Link, Tunnel
from table.server.cluster.settings import ClusterSettings
from table.server.edge.limits import Limits
from table.server.play.rooms import MOVED, MOVED_CODE, RoomError, Rooms, new_game_id

if TYPE_CHECKING:
    from table.server.online.service import Online

JSON = dict[str, Any]
log = logging.getLogger(__name__)


class Cluster(Carrier):
    """This process's part in a server of several: its partitions, and the carrying of requests."""

    def __init__(self, settings: ClusterSettings, limits: Limits = Limits()) -> None:
        self.settings = settings
        self.limits = limits
        self.name = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.owned: set[int] = set()
        self.leaving: set[int] = set()  # being handed over: served no more
        self.app: ASGIApp | None = None
        self.rooms: Rooms | None = None
        self.online: Online | None = None
        self._redis: Redis | None = None
        self._bus: CommandBus | None = None
        self._ownership: Ownership | None = None
        self._waiting: dict[str, asyncio.Future[JSON]] = {}  # carried requests, by id
        self._links: dict[str, Link] = {}
        self._tunnels: dict[str, Tunnel] = {}
        self._tasks: set[asyncio.Future[Any]] = set()
        self._loops: list[asyncio.Future[None]] = []
        # Stream writes waiting to go, sent together by one task in one round trip (a pipeline).
        self._outgoing: list[tuple[str, dict[str, str], asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._started = 0.0
        self._beats = 0

    # Set-up ------------------------------------------------------------------

    def attach(self, app: ASGIApp, rooms: Rooms, online: Online | None) -> None:
        """Serve ``app``'s games: ``rooms`` load only owned games, new ids fall in owned partitions."""
        self.app, self.rooms, self.online = app, rooms, online
        rooms.owns = self.owns
        rooms.new_id = self.new_id
        if online is not None:
            online.tell_others = self._tell_lobby
            online.notes_served = False  # kept per partition here, in Redis (``_note_served``)


    def _lock(self, p: int) -> str:
        """The advisory lock of partition ``p`` (named after the prefix: servers of other prefixes
        may share the database)."""
        return f"{self.settings.prefix}:{partition_lock(p)}"


    async def start(self) -> None:
        """Join: heartbeat, take a share of the partitions, serve their commands, read the inbox."""
        # A bounded pool that waits for a free connection: a few are held by blocking reads, the
        # writes share one pipeline (below), so a burst of sockets never needs a connection each.
        self._redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            self.settings.redis, max_connections=32, timeout=self.settings.answer_within))
        self._bus = CommandBus(self._redis, prefix=self.settings.prefix, partitions=self.settings.partitions)
        self._ownership = await asyncio.to_thread(Ownership, self.settings.database)
        self._started = time.monotonic()
        last = await self.redis.xrevrange(self._inbox(self.name), count=1)
        inbox_from = last[0][0] if last else b"0-0"
        await self._beat()
        self._loops = [asyncio.ensure_future(loop) for loop in (
            self._keep_beating(), self._serve_commands(), self._read_inbox(inbox_from), self._hear_lobby(),
            self._keep_sending())]

    async def stop(self) -> None:
        """Leave: stop serving, let go of every partition (closing their sockets), forget this process."""
        for loop in self._loops:
            loop.cancel()
        for t in list(self._tunnels.values()):
            t.disconnect()
        for link in list(self._links.values()):
            link.end(MOVED_CODE, "moved")
        with contextlib.suppress(RedisError, OSError):
            await self._note_served(self.owned - self.leaving)
        if self.rooms is not None:
            self.rooms.retire(lambda game_id: True)
        self.owned.clear()
        if self._ownership is not None:
            await asyncio.to_thread(self._ownership.close)
        if self._redis is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._redis.delete(self._key("worker", self.name))
            await self._redis.aclose()

    # Which games are this process's ---------------------------------------------

    def partition(self, key: str) -> int:
        return partition_of(key, self.settings.partitions)

    def owns(self, key: str) -> bool:
        """Whether this process serves the game (or review) ``key`` now."""
        p = self.partition(key)
        return p in self.owned and p not in self.leaving

    def new_id(self) -> str:
        """A fresh game id in one of this process's partitions."""
        mine = self.owned - self.leaving
        if not mine:
            raise RoomError(MOVED, "moved")
        while True:
            game_id = new_game_id()
            if self.partition(game_id) in mine:
                return game_id


    # Keeping in touch -----------------------------------------------------------

    async def _keep_beating(self) -> None:
        while True:
            await asyncio.sleep(self.settings.beat)
            try:
                await self._beat()
            except (RedisError, OSError) as exc:
                log.warning("cluster: heartbeat failed: %s", exc)

    def _now(self) -> float:
        return self.online.now() if self.online is not None else time.time()

    async def _note_served(self, partitions: set[int]) -> None:
        """Note that the games of ``partitions`` are served now: when their owner stops (killed, or
        handing them over), their running decisions go on from the last note under the next owner."""
        if partitions and self.online is not None:
            now = self._now()
            await self.redis.hset(self._key("served"), mapping={str(p): repr(now) for p in partitions})

    async def _last_served(self, partitions: set[int]) -> dict[int, float | None]:
        """When the games of ``partitions`` were last served (None: not known)."""
        order = sorted(partitions)
        try:
            got = await self.redis.hmget(self._key("served"), [str(p) for p in order])
        except (RedisError, OSError) as exc:
            log.warning("cluster: when partitions %s were last served is not known: %s", order, exc)
            got = [None] * len(order)
        return {p: None if v is None else float(v) for p, v in zip(order, got)}

    async def alive(self) -> set[str]:
        """The processes whose heartbeat is fresh."""
        prefix = self._key("worker", "")
        return {(k.decode() if isinstance(k, bytes) else k)[len(prefix):]
                async for k in self.redis.scan_iter(match=prefix + "*", count=1000)}

    async def _beat(self) -> None:
        """Say this process lives; take or hand over partitions to keep a fair share; end what died."""
        self._beats += 1
        await self.redis.set(self._key("worker", self.name), "1", px=int(self.settings.alive_for * 1000))
        await self.redis.expire(self._inbox(self.name), 300)
        await self._note_served(self.owned - self.leaving)
        alive = await self.alive()
        starting = time.monotonic() - self._started < 3 * self.settings.alive_for
        share = math.ceil(self.settings.partitions / max(len(alive), self.settings.workers if starting else 1, 1))
        if self._beats % 5 == 0:
            await self._check_locks()
        if len(self.owned) < share:
            await self._take(share - len(self.owned))
        elif len(self.owned) > share:
            await self._hand_over(len(self.owned) - share)
        for link in list(self._links.values()):
            late = link.owner is None and time.monotonic() - link.opened > self.settings.answer_within / 3
            if late or (link.owner is not None and link.owner not in alive):
                link.end(MOVED_CODE, "moved")  # its owner died or never answered: reconnect
        for t in list(self._tunnels.values()):
            if t.peer not in alive:
                t.disconnect()

    async def _take(self, n: int) -> None:
        assert self._ownership is not None
        ownership = self._ownership
        start = stable_hash(self.name) % self.settings.partitions

        def take() -> list[int]:
            got: list[int] = []
            for i in range(self.settings.partitions):
                p = (start + i) % self.settings.partitions
                if p not in self.owned and ownership.try_acquire(self._lock(p)):
                    got.append(p)
                    if len(got) == n:
                        break
            return got

        got = await asyncio.to_thread(take)
        for p in got:
            await self.bus.ensure_group(p)
            # Commands a dead owner read and never acknowledged: their senders have given up.
            while stale := await self.bus.claim(p, self.name, idle_ms=0, count=1000):
                await self.bus.ack(p, *(c.entry_id for c in stale))
        if got:
            games: list[str] = []
            if self.online is not None:  # before serving them: their running decisions go on from the last note
                served = await self._last_served(set(got))
                try:
                    games = await self.online.stopped(lambda game_id: self.partition(game_id) in served,
                                                      lambda game_id: served[self.partition(game_id)])
                except TableError as exc:  # taken on a later beat, when the database answers
                    log.warning("cluster %s: partitions %s not taken: %s", self.name, sorted(got), exc)
                    await asyncio.to_thread(lambda: [ownership.release(self._lock(p)) for p in got])
                    return
            self.owned |= set(got)
            log.info("cluster %s: took partitions %s", self.name, sorted(got))
            if self.online is not None:  # their running clocks go on here
                self._spawn(self.online.load(games))

    async def _hand_over(self, n: int) -> None:
        """Let go of ``n`` partitions with no change in flight (another process takes them)."""
        assert self.rooms is not None and self._ownership is not None
        busy = {self.partition(r.id) for r in self.rooms.loaded() if r.busy}
        for p in sorted(self.owned - busy, reverse=True)[:n]:
            self._leave(p)
            with contextlib.suppress(RedisError, OSError):  # else the next owner goes on from the last beat's note
                await self._note_served({p})
            await asyncio.to_thread(self._ownership.release, self._lock(p))
            self.owned.discard(p)
            self.leaving.discard(p)

    def _leave(self, p: int) -> None:
        """Serve partition ``p`` no more: its rooms retire and its sockets are told to reconnect."""
        assert self.rooms is not None
        self.leaving.add(p)
        self.rooms.retire(lambda game_id: self.partition(game_id) == p)
        for t in list(self._tunnels.values()):
            if self.partition(t.key) == p:
                self._spawn(self._send_to(t.peer, {"c": t.conn, "x": MOVED_CODE, "why": "moved"}))
                t.disconnect()

    async def _check_locks(self) -> None:
        """Ask the database whether the locks are still held (a lost connection lost them all)."""
        assert self._ownership is not None
        ownership = self._ownership
        mine = sorted(self.owned)
        held = await asyncio.to_thread(lambda: [p for p in mine if ownership.holds(self._lock(p))])
        for p in set(mine) - set(held):
            log.error("cluster %s: lost partition %d", self.name, p)
            self._leave(p)
            self.owned.discard(p)
            self.leaving.discard(p)

    async def _hear_lobby(self) -> None:
        """Another process changed the lobby: push it to this one's lobby watchers too."""
        while True:
            try:
                pubsub = self.redis.pubsub()
                await pubsub.subscribe(self._key("lobby"))
                async for message in pubsub.listen():
                    data = message.get("data")
                    sender = data.decode() if isinstance(data, bytes) else data
                    if message.get("type") == "message" and sender != self.name and self.online is not None:
                        self.online.lobby_changed_here()
            except (RedisError, OSError) as exc:
                log.warning("cluster: lost the lobby channel: %s", exc)
                await asyncio.sleep(self.settings.beat)

    # Serving the commands of this process's partitions ---------------------------

    async def _serve_commands(self) -> None:
        while True:
            mine = sorted(self.owned - self.leaving)
            if not mine:
                await asyncio.sleep(0.1)
                continue
            try:
                got = await self.bus.receive_many(mine, self.name, block_ms=250)
                done: dict[int, list[str]] = {}
                for p, command in got:
                    self._serve(command)
                    done.setdefault(p, []).append(command.entry_id)
                for p, ids in done.items():
                    await self.bus.ack(p, *ids)
            except (RedisError, OSError) as exc:
                log.warning("cluster: reading commands failed: %s", exc)
                if "NOGROUP" in str(exc):  # Redis restarted empty: without its groups nothing is read again
                    with contextlib.suppress(RedisError, OSError):
                        for p in mine:
                            await self.bus.ensure_group(p)
                await asyncio.sleep(self.settings.beat)

    # Lobby news ------------------------------------------------------------------

    def _tell_lobby(self) -> None:
        async def publish() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self.redis.publish(self._key("lobby"), self.name)

        self._spawn(publish())
