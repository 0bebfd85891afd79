"""Several server processes over PostgreSQL and Redis (docs/scaling.md).

Every game belongs to one of ``partitions`` partitions by a fixed hash of its
id (``table.server.partitions``), and each partition has one owner at a time:
the process holding its PostgreSQL advisory lock (``table.server.ownership``).
Only the owner loads a game and applies to it, exactly as a single process
does (``table.server.rooms``), so the rules, clocks, presence and chat of a
table live in one place. A process gives new games ids in its own partitions.

A request or WebSocket for a game that reaches another process is carried to
the owner through Redis: its ASGI messages go on the partition's command
stream (``table.server.bus``), the owner runs its own app on them as if the
client were connected to it, and what the app sends comes back on the asking
process's inbox stream. The other processes carry text and nothing else.
When the owner goes (killed, or handing partitions over as processes come and
go), its sockets close with ``MOVED_CODE``; the clients reconnect and are
carried to the new owner, which loads the game from the database.

Delivery is at most once: a command whose owner died before it was served is
dropped, like a message lost with a socket, and the client, which got no
answer, asks again. Whatever a client was told had been stored first, so
nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import math
import os
import re
import secrets
import socket
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from table.errors import TableError
from table.server.bus import Command, CommandBus
from table.server.limits import Limits, RateLimiter
from table.server.outbox import SLOW_CODE, SLOW_REASON
from table.server.ownership import Ownership
from table.server.partitions import partition_lock, partition_of, stable_hash
from table.server.rooms import MOVED, MOVED_CODE, RoomError, Rooms, new_game_id

if TYPE_CHECKING:
    from table.server.online import Online

JSON = dict[str, Any]
log = logging.getLogger(__name__)

PARTITIONS = 64
TUNNELLED = "table.tunnelled"  # in the scope of a request carried here from another process
FLOOD_CODE = 4429  # a socket closed for sending far more than the server answers

_GAME_PATH = re.compile(r"/(?:api|ws)/games/([A-Za-z0-9_-]{1,64})(?:/.*)?")
_IMPORT_PATH = re.compile(r"/api/review/import-([A-Za-z0-9_-]{1,64})")
_TABLE_PATH = re.compile(r"/api/tables/([^/]{1,64})/(?:leave|claim|rematch)")


@dataclass(frozen=True)
class ClusterSettings:
    """Where the shared state lives and how the processes keep in touch.

    ``workers`` is how many processes start together: each takes its share of
    the partitions at once rather than one taking them all (after a few beats
    the share follows the processes actually alive).
    """

    database: str
    redis: str
    workers: int = 1
    partitions: int = PARTITIONS
    prefix: str = "table"
    beat: float = 1.0  # seconds between heartbeats (and rebalancing)
    alive_for: float = 3.0  # a process silent this long is taken for dead
    answer_within: float = 30.0  # how long a carried request waits for its owner


@dataclass(eq=False)
class Link:
    """A client socket here whose game another process serves."""

    conn: str
    key: str
    queue: asyncio.Queue[JSON]
    opened: float
    owner: str | None = None  # the serving process, once it has answered
    closed: bool = False  # the owner closed it, or the link was ended here

    def deliver(self, item: JSON) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # the client reads too slowly
            self.end(SLOW_CODE, SLOW_REASON)

    def end(self, code: int, reason: str) -> None:
        """Close the client's socket with ``code`` as soon as possible."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait({"x": code, "why": reason})


@dataclass(eq=False)
class Tunnel:
    """A client socket of another process (``peer``) whose game this process serves."""

    conn: str
    peer: str
    key: str
    frames: asyncio.Queue[Message]
    closed: bool = False  # the app closed it and the peer was told
    task: asyncio.Future[None] | None = None

    def disconnect(self) -> None:
        """The client went (or its process did): the app hears a disconnect next."""
        while not self.frames.empty():
            self.frames.get_nowait()
        self.frames.put_nowait({"type": "websocket.disconnect", "code": 1001})
        self.closed = True  # nothing more goes back


def wire_scope(scope: Scope) -> JSON:
    """What the owner needs of a connection's ASGI scope, as JSON."""
    return {"type": scope["type"], "path": scope["path"], "method": scope.get("method"),
            "qs": scope.get("query_string", b"").decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", [])],
            "client": list(scope["client"]) if scope.get("client") else None,
            "server": list(scope["server"]) if scope.get("server") else None,
            "scheme": scope.get("scheme", "http"), "http_version": scope.get("http_version", "1.1")}


def local_scope(wire: JSON) -> Scope:
    """The ASGI scope of a connection carried here (see :func:`wire_scope`)."""
    scope: Scope = {
        "type": wire["type"], "asgi": {"version": "3.0"}, "http_version": wire["http_version"],
        "scheme": wire["scheme"], "path": wire["path"], "raw_path": wire["path"].encode(), "root_path": "",
        "query_string": wire["qs"].encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in wire["headers"]],
        "client": tuple(wire["client"]) if wire["client"] else None,
        "server": tuple(wire["server"]) if wire["server"] else None,
        "extensions": {}, "state": {}, TUNNELLED: True,
    }
    if wire["type"] == "http":
        scope["method"] = wire["method"]
    else:
        scope["subprotocols"] = []
    return scope


class Cluster:
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

    def _key(self, *parts: str) -> str:
        return ":".join((self.settings.prefix, *parts))

    def _lock(self, p: int) -> str:
        """The advisory lock of partition ``p`` (named after the prefix: servers of other prefixes
        may share the database)."""
        return f"{self.settings.prefix}:{partition_lock(p)}"

    def _inbox(self, name: str) -> str:
        return self._key("inbox", name)

    @property
    def redis(self) -> Any:  # untyped: redis-py's replies are unions of every RESP shape
        assert self._redis is not None, "the cluster has not started"
        return self._redis

    @property
    def bus(self) -> CommandBus:
        assert self._bus is not None, "the cluster has not started"
        return self._bus

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

    async def route_key(self, scope: Scope) -> str | None:
        """The game whose owner must serve this request, or None when any process may."""
        path = scope["path"]
        m = _GAME_PATH.fullmatch(path) or _IMPORT_PATH.fullmatch(path)
        if m:
            return m.group(1)
        m = _TABLE_PATH.fullmatch(path)
        if m and scope.get("method") == "POST" and self.online is not None:
            try:
                table = await self.online.find_table(m.group(1), routing=True)
            except TableError:
                return None  # refused here as anywhere
            return table.game_id
        return None

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

    # Serving what other processes carry here -----------------------------------------

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

    def _serve(self, command: Command) -> None:
        body, key = command.body, command.table_id
        kind, peer = body.get("k"), body.get("from", "")
        if kind == "frame":
            t = self._tunnels.get(body["c"])
            if t is not None and not t.closed:
                try:
                    t.frames.put_nowait({"type": "websocket.receive", "text": body.get("t"),
                                         "bytes": base64.b64decode(body["b"]) if "b" in body else None})
                except asyncio.QueueFull:
                    t.disconnect()  # it sends far faster than it is answered
            return
        if kind == "close":
            t = self._tunnels.get(body["c"])
            if t is not None:
                t.disconnect()
            return
        if body.get("exp", 0) < time.time():
            return  # its sender has given up on it
        if kind == "http":
            if not self.owns(key):
                self._spawn(self._send_to(peer, {"r": body["id"], "moved": True}))
            else:
                self._spawn(self._serve_http(peer, body))
        elif kind == "open":
            if not self.owns(key):
                self._spawn(self._send_to(peer, {"c": body["c"], "x": MOVED_CODE, "why": "moved"}))
            elif body["c"] not in self._tunnels:
                t = Tunnel(body["c"], peer, key, asyncio.Queue(maxsize=4 * self.limits.ws_messages_burst))
                self._tunnels[t.conn] = t
                t.task = self._spawn(self._serve_socket(t, local_scope(body["scope"])))

    async def _serve_http(self, peer: str, body: JSON) -> None:
        assert self.app is not None
        request = base64.b64decode(body["body"])
        answer: JSON = {"r": body["id"], "s": 500, "h": [], "b": ""}
        chunks: list[bytes] = []
        given = False

        async def receive() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": request, "more_body": False}
            await asyncio.Event().wait()  # the client stays: the answer goes back whatever it is
            raise AssertionError("unreachable")  # pragma: no cover

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["s"] = message["status"]
                answer["h"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(local_scope(body["scope"]), receive, send)
        except Exception:
            log.exception("cluster: a carried request failed")
        answer["b"] = base64.b64encode(b"".join(chunks)).decode()
        await self._send_to(peer, answer)

    async def _serve_socket(self, t: Tunnel, scope: Scope) -> None:
        assert self.app is not None
        connected = False

        async def receive() -> Message:
            nonlocal connected
            if not connected:
                connected = True
                return {"type": "websocket.connect"}
            return await t.frames.get()

        async def send(message: Message) -> None:
            if t.closed:
                return
            if message["type"] == "websocket.send":
                await self._send_to(t.peer, {"c": t.conn, "t": message.get("text")})
            elif message["type"] == "websocket.close":
                t.closed = True
                await self._send_to(t.peer, {"c": t.conn, "x": message.get("code", 1000),
                                             "why": message.get("reason") or ""})

        try:
            await self._send_to(t.peer, {"c": t.conn, "o": self.name})
            await self.app(scope, receive, send)
        except Exception:
            log.exception("cluster: a carried socket failed")
        finally:
            self._tunnels.pop(t.conn, None)
            if not t.closed:
                t.closed = True
                with contextlib.suppress(RedisError, OSError):
                    await self._send_to(t.peer, {"c": t.conn, "x": 1011, "why": "the server failed"})

    async def _send_to(self, peer: str, item: JSON) -> None:
        await self._write(self._inbox(peer), {"b": json.dumps(item, separators=(",", ":"))})

    async def _write(self, key: str, fields: dict[str, str]) -> None:
        """Add an entry to a stream, with the writes of other tasks meanwhile, in order."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outgoing.append((key, fields, done))
        self._wake.set()
        await done

    async def _keep_sending(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outgoing:
                batch, self._outgoing = self._outgoing[:1000], self._outgoing[1000:]
                try:
                    pipe = self.redis.pipeline(transaction=False)
                    for key, fields, _ in batch:
                        pipe.xadd(key, fields, maxlen=100_000, approximate=True)
                    await pipe.execute()
                except (RedisError, OSError) as exc:
                    for *_, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                    continue
                for *_, done in batch:
                    if not done.done():
                        done.set_result(None)

    # Carrying requests to their owner ---------------------------------------------

    async def _read_inbox(self, after: bytes | str) -> None:
        key = self._inbox(self.name)
        while True:
            try:
                reply = await self.redis.xread({key: after}, block=1000, count=1000)
            except (RedisError, OSError) as exc:
                log.warning("cluster: reading the inbox failed: %s", exc)
                await asyncio.sleep(self.settings.beat)
                continue
            for _, entries in reply or []:
                for entry_id, fields in entries:
                    after = entry_id
                    item = json.loads(fields[b"b"] if b"b" in fields else fields["b"])
                    if "r" in item:
                        waiting = self._waiting.get(item["r"])
                        if waiting is not None and not waiting.done():
                            waiting.set_result(item)
                    elif (link := self._links.get(item["c"])) is not None:
                        if "o" in item:
                            link.owner = item["o"]
                        else:
                            link.deliver(item)

    async def _command(self, key: str, body: JSON) -> None:
        await self._write(*self.bus.entry(key, {**body, "from": self.name,
                                                "exp": time.time() + self.settings.answer_within}))

    async def forward_http(self, key: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Carry an HTTP request to the owner of ``key`` and its answer back."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body") or len(body) > self.limits.body_bytes:
                break  # one byte over is enough for the owner to refuse it as too large
        rid = secrets.token_hex(8)
        answer: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = answer
        reply: JSON | None = None
        try:
            await self._command(key, {"k": "http", "id": rid, "scope": wire_scope(scope),
                                      "body": base64.b64encode(bytes(body)).decode()})
            reply = await asyncio.wait_for(answer, self.settings.answer_within)
        except (TimeoutError, RedisError, OSError):
            reply = None
        finally:
            self._waiting.pop(rid, None)
        if reply is None or reply.get("moved"):
            text = json.dumps({"type": "error", "code": "moved", "message": MOVED}).encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")]})
            await send({"type": "http.response.body", "body": text})
            return
        await send({"type": "http.response.start", "status": reply["s"],
                    "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply["h"]]})
        await send({"type": "http.response.body", "body": base64.b64decode(reply["b"])})

    async def forward_socket(self, key: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Carry a WebSocket's messages to the owner of ``key`` and the owner's back."""
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        link = Link(secrets.token_hex(8), key, asyncio.Queue(maxsize=self.limits.outbox_messages), time.monotonic())
        self._links[link.conn] = link
        # The owner limits the rate of what it answers; this only stops a flood of what it would refuse.
        flood = RateLimiter(4 * self.limits.ws_messages_per_second, 4 * self.limits.ws_messages_burst)

        async def up() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                if flood.check("") > 0:
                    link.end(FLOOD_CODE, "too many messages")
                    await asyncio.Event().wait()  # down() closes it
                frame: JSON = {"k": "frame", "c": link.conn}
                if message.get("text") is not None:
                    frame["t"] = message["text"]
                else:
                    frame["b"] = base64.b64encode(message.get("bytes") or b"").decode()
                await self._command(key, frame)

        async def down() -> None:
            while True:
                item = await link.queue.get()
                if "x" in item:
                    link.closed = True
                    await send({"type": "websocket.close", "code": item["x"], "reason": item.get("why", "")})
                    return
                await send({"type": "websocket.send", "text": item["t"]})

        tasks: list[asyncio.Future[None]] = []
        try:
            # The open goes first: a frame sent meanwhile on another connection could overtake it.
            await self._command(key, {"k": "open", "c": link.conn, "scope": wire_scope(scope)})
            tasks = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except (RedisError, OSError):  # Redis is down: the client comes back later
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": MOVED_CODE, "reason": "moved"})
        finally:
            for task in tasks:
                task.cancel()
            self._links.pop(link.conn, None)
            with contextlib.suppress(RedisError, OSError):
                await self._command(key, {"k": "close", "c": link.conn})

    # Tasks ---------------------------------------------------------------------

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Future[Any]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster: a task failed: %r", task.exception())

    def _tell_lobby(self) -> None:
        async def publish() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self.redis.publish(self._key("lobby"), self.name)

        self._spawn(publish())


class Routed:
    """ASGI middleware: a request for a game another process serves is carried to it."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not scope.get(TUNNELLED):
            key = await self.cluster.route_key(scope)
            if key is not None and not self.cluster.owns(key):
                forward = self.cluster.forward_http if scope["type"] == "http" else self.cluster.forward_socket
                await forward(key, scope, receive, send)
                return
        await self.app(scope, receive, send)
