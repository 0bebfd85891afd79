"""Carrying a request or WebSocket to the process that owns its game, and serving what others carry.

A request for a game another process owns is not served here: :class:`Routed`
(ASGI middleware) hands it to :meth:`Carrier.forward_http` or
:meth:`Carrier.forward_socket`, which put its ASGI messages on the partition's
command stream (:mod:`table.server.cluster.bus`) and relay what comes back on
this process's inbox stream.  The owner's :meth:`Carrier._serve` runs its own
app on them as if the client were connected to it (a :class:`Tunnel` per
carried socket; a :class:`Link` per socket here whose game is served
elsewhere).  :class:`~table.server.cluster.member.Cluster` is a
:class:`Carrier`; the rest of it (membership, partitions) is in ``member``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from table.errors import TableError
from table.server.cluster.bus import Command, CommandBus
from table.server.cluster.settings import ClusterSettings
from table.server.edge.limits import Limits, RateLimiter
from table.server.edge.outbox import SLOW_CODE, SLOW_REASON
from table.server.play.rooms import MOVED, MOVED_CODE

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from table.server.online.service import Online

JSON = dict[str, Any]
log = logging.getLogger(__name__)

TUNNELLED = "table.tunnelled"  # in the scope of a request carried here from another process
FLOOD_CODE = 4429  # a socket closed for sending far more than the server answers

_GAME_PATH = re.compile(r"/(?:api|ws)/games/([A-Za-z0-9_-]{1,64})(?:/.*)?")
_IMPORT_PATH = re.compile(r"/api/review/import-([A-Za-z0-9_-]{1,64})")
_TABLE_PATH = re.compile(r"/api/tables/([^/]{1,64})/(?:leave|claim|rematch)")


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


class Carrier:
    """The carrying half of a cluster member (:class:`~table.server.cluster.member.Cluster`, which
    sets these attributes and says which games it owns)."""

    settings: ClusterSettings
    limits: Limits
    name: str
    app: ASGIApp | None
    online: Online | None
    _redis: Redis | None
    _bus: CommandBus | None
    _waiting: dict[str, asyncio.Future[JSON]]  # carried requests, by id
    _links: dict[str, Link]
    _tunnels: dict[str, Tunnel]
    _tasks: set[asyncio.Future[Any]]
    # Stream writes waiting to go, sent together by one task in one round trip (a pipeline).
    _outgoing: list[tuple[str, dict[str, str], asyncio.Future[None]]]
    _wake: asyncio.Event

    def owns(self, key: str) -> bool:
        """Whether this process serves the game (or review) ``key`` now."""
        raise NotImplementedError  # the member knows its partitions

    def _key(self, *parts: str) -> str:
        return ":".join((self.settings.prefix, *parts))

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

    # Serving what other processes carry here -----------------------------------------

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


class Routed:
    """ASGI middleware: a request for a game another process serves is carried to it."""

    def __init__(self, app: ASGIApp, cluster: Carrier) -> None:
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
