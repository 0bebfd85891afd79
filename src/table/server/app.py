"""The HTTP and WebSocket application.

HTTP::

    POST /api/games                  {"mode": "computer", ...}  -> {"game", "token", ...state}
    GET  /api/games/{id}             Authorization: Bearer TOKEN (none: spectator)
    POST /api/games/{id}/actions     {"version": n, "action": {...}}
    GET  /api/health

WebSocket ``/ws/games/{id}``: the client sends ``{"type": "hello", "token": ...}``
(with ``"since": v`` to get the log entries after version v first, as
``{"type": "events", ...}``) then ``{"type": "action", "version": n, "action": {...}}``;
the server sends
``{"type": "state", "version": n, ...}`` after every change and
``{"type": "error", "code": ..., "message": ...}`` for a refused message.

Online tables between people (guests, the lobby, clocks, chat, points) are
described in docs/protocol.md; ``table.server.online.service`` implements them.

A socket that does not read what it is sent is closed with code 4408 (it may
reconnect and say hello with ``since``); one address may hold only so many
connections (HTTP 429 / close code 4429), create only so many games a minute
(429) and send only so much at once (413 / ``too_large``).  Every response
carries a Content-Security-Policy and the other security headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from table.errors import TableError
from table.rules.dice import DiceSource
from table.rules.position import Position
from table.server.learn import botapi
from table.server.learn import routes as learn
from table.server.play.computer import BotTask, think
from table.server.play.game import GameConfig
from table.server.edge.limits import ConnectionLimiter, LimitError, Limits, RateLimiter, read_body
from table.server.edge.middleware import ConnectionCap, SecurityHeaders, client_key
from table.server.edge.outbox import Outbox
from table.server.play.pool import BotPool, BotPoolError, Think
from table.server.play.rooms import MOVED_CODE, Clock, Room, RoomError, Rooms, Watcher, encode
from table.server.online.base import OnlineError
from table.server.online.service import Online
from table.server.online.standings import Standings, page_number
from table.server.store import SqlStorage, Storage
from table.server.edge.text import check_strings

if TYPE_CHECKING:
    from table.server.cluster.member import Cluster

JSON = dict[str, Any]

STATUS = {"not_found": 404, "bad_token": 403, "not_your_turn": 409, "stale": 409, "illegal": 422,
          "storage_failed": 503, "computer_failed": 503, "moved": 503}

NO_GAME_CODE = 4404

log = logging.getLogger(__name__)


def web_root() -> Path:
    """The folder of the static client shipped in the package."""
    return Path(str(resources.files("table") / "web"))


def web_version(root: Path) -> str:
    """A short hash of every file of the web client: it changes with any edit to any of them.

    >>> v = web_version(web_root())
    >>> len(v), v == web_version(web_root())
    (16, True)
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _refusal(exc: TableError) -> JSON:
    """The error message for a refused request or WebSocket message."""
    code = exc.code if isinstance(exc, (RoomError, LimitError)) else "bad_request"
    return {"type": "error", "code": code, "message": str(exc)}


def _error(exc: TableError) -> JSONResponse:
    body = _refusal(exc)
    if isinstance(exc, LimitError):
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
        return JSONResponse(body, status_code=exc.status, headers=headers)
    if isinstance(exc, OnlineError):
        return JSONResponse(body, status_code=exc.status)
    return JSONResponse(body, status_code=STATUS.get(body["code"], 400))


def _parse(raw: bytes | str, what: str) -> object:
    """Decoded JSON whose every string can be stored (else a ``RoomError`` / ``TextError``)."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, absurd nesting
        raise RoomError(f"{what} is not valid JSON: {exc}") from exc
    check_strings(value, what)
    return value


async def _body(request: Request, limit: int) -> object:
    return _parse(await read_body(request, limit), "the request body")


async def _answer(work: Awaitable[JSON]) -> Response:
    """The JSON ``work`` answers, or the error it was refused with."""
    try:
        return JSONResponse(await work)
    except TableError as exc:
        return _error(exc)


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None


def create_app(storage: Storage, dice: DiceSource | None = None, bot_delay: float = 0.0, *,
               limits: Limits = Limits(), clock: Clock = time.monotonic,
               bot_workers: int | None = None, bot_think: Think = think,
               now: Callable[[], float] = time.time, cluster: Cluster | None = None,
               warm_bot: bool = False) -> Starlette:
    """The application, storing games in ``storage`` and rolling with ``dice`` (default: secrets).

    ``limits`` bounds what one client may do (``clock`` times the rate limits
    and idle rooms); the computer decides with ``bot_think`` in a pool of
    ``bot_workers`` processes (default: sized for the machine), shut down
    when the app stops.  With SQL storage the app also has online tables,
    whose clocks read ``now`` (seconds since the epoch).  With a ``cluster``
    this process is one of several serving the same database
    (``table.server.cluster``).  ``warm_bot``: ready the computer in a worker as
    the app starts (``table serve``), not when the first game needs it.
    """
    pool = BotPool(bot_workers, bot_think)

    async def choose(task: BotTask) -> JSON:
        try:
            return await pool.choose(task)
        except BotPoolError as exc:
            raise RoomError(str(exc), "computer_failed") from exc
        except Exception as exc:  # a bug in the worker: the game waits, a later request retries
            log.exception("the computer failed on %s", task)
            raise RoomError("the computer could not decide; it will try again", "computer_failed") from exc

    rooms = Rooms(storage, dice, bot_delay, choose, clock, limits.room_idle_seconds, limits.room_finished_seconds,
                  limits.room_away_seconds)
    new_games = RateLimiter(limits.games_per_minute / 60, limits.games_burst, clock)
    online = Online(storage, rooms, now, limits=limits) if isinstance(storage, SqlStorage) else None

    async def create_game(request: Request) -> Response:
        try:
            body = await _body(request, limits.body_bytes)
            GameConfig.from_json(body)  # a bad request is refused before it counts against the rate
            new_games.take(client_key(request.scope), "too many new games from your address")
            room, token = await rooms.create(body)
            state = await room.state(room.seats_for(token))
        except TableError as exc:
            return _error(exc)
        return JSONResponse({**state, "token": token}, status_code=201)

    async def get_game(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
            state = await room.state(room.seats_for(_token(request)))
        except TableError as exc:
            return _error(exc)
        return JSONResponse(state)

    async def post_action(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
            seats = room.seats_for(_token(request))
            body = await _body(request, limits.body_bytes)
            if not isinstance(body, dict) or set(body) - {"version", "action"} or "action" not in body:
                raise RoomError('the body must be {"version": n, "action": {...}}')
            await room.act(seats, body["action"], body.get("version"))
            await rooms.settle(room)
            state = await room.state(seats)
        except TableError as exc:
            return _error(exc)
        return JSONResponse(state)

    async def health(request: Request) -> Response:
        if cluster is None:
            return JSONResponse({"ok": True})
        return JSONResponse({"ok": True, "worker": cluster.name, "partitions": sorted(cluster.owned)})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        outbox = Outbox(ws.send_text, ws.close, limits.outbox_messages, limits.send_timeout)
        sender = asyncio.ensure_future(outbox.run())
        try:
            room = await rooms.get(ws.path_params["game_id"])
        except TableError as exc:
            outbox.put(encode(_refusal(exc)))
            moved = isinstance(exc, RoomError) and exc.code == "moved"
            outbox.finish(MOVED_CODE if moved else NO_GAME_CODE, "moved" if moved else "no such game")
            await sender
            return
        watching: list[Watcher] = []  # this socket's registration in the room (none before hello)
        receiver = asyncio.ensure_future(_receive(ws, room, outbox, watching))
        room.sockets += 1
        try:
            # Until the client leaves (receiver) or is dropped for not reading (sender).
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            receiver.cancel()
            room.sockets -= 1
            for w in watching:
                room.unwatch(w)
            outbox.finish()
            await sender

    async def _receive(ws: WebSocket, room: Room, outbox: Outbox, watching: list[Watcher]) -> None:
        """Answer one socket's messages until it disconnects."""
        messages = RateLimiter(limits.ws_messages_per_second, limits.ws_messages_burst, clock)
        while True:
            await outbox.roomy()  # answers not yet read hold back the next request
            if not outbox.open:
                return  # dropped for not reading
            event = await ws.receive()
            if event["type"] == "websocket.disconnect":
                return
            raw = event.get("text")
            try:
                messages.take("", "too many messages on this connection")  # refused ones count too
                if raw is None:
                    raise RoomError("send messages as JSON text, not binary")
                if len(raw) > limits.ws_message_chars:
                    raise LimitError(f"the message is longer than {limits.ws_message_chars} characters",
                                     "too_large", 413)
                msg = _parse(raw, "the message")
                if not isinstance(msg, dict):
                    raise RoomError("a message is a JSON object with a \"type\"")
                kind = msg.get("type")
                if kind == "hello":
                    token = msg.get("token")
                    seats = room.seats_for(token)
                    who = await online.maybe_player(token) if online and room.online and token else None
                    watcher = Watcher(outbox, seats, who.id if who else None)
                    await room.watch(watcher, msg.get("since"), watching[0] if watching else None)
                    watching[:] = [watcher]
                    history = await online.chat_history(room, seats) if online else None
                    if history is not None:
                        outbox.put(encode(history))
                    if online is not None:
                        await online.opened(room, seats)  # turn-based: opening your turn rolls your dice
                elif kind == "chat":
                    if not watching:
                        raise RoomError("say hello before chatting", "bad_token")
                    if online is None:
                        raise OnlineError("chat is for online tables", "not_online")
                    chats.take(str(watching[0].player), "too many chat messages")
                    await online.chat(room, watching[0].seats, watching[0].player, msg)
                elif kind == "action":
                    if not watching:
                        raise RoomError("say hello with your token before acting", "bad_token")
                    await room.act(watching[0].seats, msg.get("action"), msg.get("version"))
                    await rooms.settle(room)
                elif kind == "ping":
                    outbox.put(encode({"type": "pong", "version": room.version}))
                else:
                    raise RoomError(f"unknown message type {kind!r}: use hello, action, chat or ping")
            except TableError as exc:
                if room.retired:  # another worker serves this game now: reconnect there
                    outbox.finish(MOVED_CODE, "moved")
                    return
                outbox.put(encode({**_refusal(exc), "version": room.version}))

    chats = RateLimiter(limits.chat_per_second, limits.chat_burst, clock)
    root = web_root()

    async def index(request: Request) -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    # Read and hashed once: the shipped files do not change while the server runs.  The worker's
    # cache is named after the files' hash, so a new release never answers from the old files.
    worker = (root / "sw.js").read_text(encoding="utf-8").replace("WEB_VERSION", web_version(root))

    async def service_worker(request: Request) -> Response:
        # Served from the root so that it may control the whole app.
        return Response(worker, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index),
        Route("/sw.js", service_worker),
        Route("/api/health", health),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/actions", post_action, methods=["POST"]),
        WebSocketRoute("/ws/games/{game_id}", socket),
        *botapi.routes(pool, RateLimiter(limits.bot_api_per_minute / 60, limits.bot_api_burst, clock)),
        *learn.routes(rooms, pool),
        Mount("/static", StaticFiles(directory=str(root)), name="static"),
    ]
    if online is not None:
        routes[3:3] = _online_routes(online, limits, clock)
    connections = ConnectionLimiter(limits.connections_per_client)
    routed = []
    if cluster is not None:
        from table.server.cluster.routed import Routed  # Redis is an optional extra ("scale")
        routed.append(Middleware(Routed, cluster=cluster))
    app = Starlette(routes=routes, lifespan=_lifespan(rooms, pool, online, cluster, warm_bot), middleware=[
        *routed,
        Middleware(SecurityHeaders),
        Middleware(ConnectionCap, limiter=connections),
    ])
    app.state.connections = connections
    app.state.rooms = rooms
    app.state.pool = pool
    app.state.limits = limits
    app.state.online = online
    app.state.cluster = cluster
    if cluster is not None:
        cluster.attach(app, rooms, online)
    return app


def _online_routes(online: Online, limits: Limits, clock: Clock) -> list[Route | WebSocketRoute]:
    """The routes of online play: guests, players, tables and the lobby (docs/protocol.md)."""
    new_guests = RateLimiter(limits.guests_per_minute / 60, limits.guests_burst, clock)
    new_tables = RateLimiter(limits.tables_per_minute / 60, limits.tables_burst, clock)

    async def guests(request: Request) -> Response:
        try:
            body = await _body(request, limits.body_bytes)
            new_guests.take(client_key(request.scope), "too many new guests from your address")
            player, token = await online.guest(body)
        except TableError as exc:
            return _error(exc)
        return JSONResponse({"player": online.player_json(player, 0), "token": token}, status_code=201)

    async def me(request: Request) -> Response:
        return await _answer(online.me(_token(request)))

    standings = Standings(online.storage, online, online.now)

    async def player_page(request: Request) -> Response:
        return await _answer(standings.player_page(request.path_params["name"]))

    async def player_games(request: Request) -> Response:
        try:
            page = page_number(request.query_params.get("page"))
        except TableError as exc:
            return _error(exc)
        return await _answer(standings.games(request.path_params["name"], page))

    async def leaderboard(request: Request) -> Response:
        q = request.query_params
        try:
            page = page_number(q.get("page"))
        except TableError as exc:
            return _error(exc)
        return await _answer(standings.leaderboard(q.get("by"), q.get("period"), page))

    async def stats(request: Request) -> Response:
        return await _answer(standings.stats())

    async def record(request: Request) -> Response:
        if request.path_params["kind"] == "json":
            return await _answer(standings.log(request.path_params["game_id"]))
        try:
            text, filename = await standings.record(request.path_params["game_id"], request.path_params["kind"])
        except TableError as exc:
            return _error(exc)
        media = "application/x-sgf" if filename.endswith(".sgf") else "text/plain"
        return Response(text, media_type=f"{media}; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def tables(request: Request) -> Response:
        try:
            if request.method == "GET":
                return JSONResponse(await online.lobby())
            body = await _body(request, limits.body_bytes)
            await online.player(_token(request))  # an unknown token is refused before it counts against the rate
            new_tables.take(client_key(request.scope), "too many new tables from your address")
            return JSONResponse(await online.create_table(_token(request), body, client_key(request.scope)),
                                status_code=201)
        except TableError as exc:
            return _error(exc)

    async def one_table(request: Request) -> Response:
        return await _answer(online.one_table(request.path_params["table_id"], _token(request)))

    async def push_key(request: Request) -> Response:
        return await _answer(online.push.key())

    async def push_subscription(request: Request) -> Response:
        try:
            action = {"subscribe": online.push.subscribe, "unsubscribe": online.push.unsubscribe}.get(
                request.path_params["action"])
            if action is None:
                raise OnlineError("push's actions are subscribe and unsubscribe", "not_found", 404)
            body = await _body(request, limits.body_bytes)
            player = await online.player(_token(request))
            return JSONResponse(await action(player.id, body))
        except TableError as exc:
            return _error(exc)

    actions = {"join": online.join, "leave": online.leave, "claim": online.claim, "rematch": online.rematch}

    async def table_action(request: Request) -> Response:
        action = actions.get(request.path_params["action"])
        try:
            if action is None:
                raise OnlineError(f"a table's actions are {', '.join(actions)}", "not_found", 404)
            await read_body(request, limits.body_bytes)  # no body is needed; a huge one is refused
            return JSONResponse(await action(_token(request), request.path_params["table_id"]))
        except TableError as exc:
            return _error(exc)

    async def lobby_socket(ws: WebSocket) -> None:
        await ws.accept()
        outbox = Outbox(ws.send_text, ws.close, limits.outbox_messages, limits.send_timeout)
        sender = asyncio.ensure_future(outbox.run())
        messages = RateLimiter(limits.ws_messages_per_second, limits.ws_messages_burst, clock)

        async def receive() -> None:
            while True:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    return
                text = event.get("text") or ""
                if messages.check("") == 0.0 and len(text) < 64 and text.replace(" ", "") == '{"type":"ping"}':
                    outbox.put(encode({"type": "pong"}))

        receiver = asyncio.ensure_future(receive())
        try:
            outbox.put(encode({"type": "lobby", **await online.lobby()}))
            online.lobby_watchers.add(outbox)
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        except TableError as exc:
            outbox.put(encode(_refusal(exc)))
        finally:
            receiver.cancel()
            online.lobby_watchers.discard(outbox)
            outbox.finish()
            await sender

    return [
        Route("/api/guests", guests, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/players/{name}", player_page),
        Route("/api/players/{name}/games", player_games),
        Route("/api/leaderboard", leaderboard),
        Route("/api/stats", stats),
        Route("/api/games/{game_id}/record.{kind}", record),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/push/key", push_key),
        Route("/api/push/{action:str}", push_subscription, methods=["POST"]),
        Route("/api/tables/{table_id}", one_table),
        Route("/api/tables/{table_id}/{action:str}", table_action, methods=["POST"]),
        WebSocketRoute("/ws/lobby", lobby_socket),
    ]


def _lifespan(rooms: Rooms, pool: BotPool, online: Online | None, cluster: Cluster | None,
              warm_bot: bool) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    """Start tidying rooms (and, online, bring back the games being played and check their clocks)
    when the app starts; stop it and the computer's processes when it stops."""
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # The move generator's compiled kernel loads on its first use (about a second and 60 MiB):
        # load it now rather than on the event loop in the middle of the first player's game.
        await asyncio.to_thread(Position.initial().legal_plays, (3, 1))
        if warm_bot:
            pool.warm()
        tidy = asyncio.ensure_future(rooms.keep_tidy())
        checking = None
        if cluster is not None:
            await cluster.start()  # it brings back the games of each partition as it takes them
        elif online is not None:
            await online.recover()
        if online is not None:
            checking = asyncio.ensure_future(online.keep_checking())
        try:
            yield
        finally:
            tidy.cancel()
            if checking is not None:
                checking.cancel()
            if cluster is not None:
                await cluster.stop()
            await asyncio.to_thread(pool.shutdown)

    return lifespan
