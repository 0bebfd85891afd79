"""The HTTP and WebSocket application: each area's routes, wired to one set of rooms.

``create_app`` builds the game routes (``play/routes.py``: ``/api/games``,
``/ws/games/{id}``, whose messages are ``protocol.py``'s), online play's
(``online/routes.py``: guests, tables, players, the lobby; docs/protocol.md),
the bot API and learning routes (``learn/``), the web client's files, the
health check, and the middleware every request passes (``edge/``).

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
import logging
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from table.rules.dice import DiceSource
from table.rules.position import Position
from table.server.edge.limits import ConnectionLimiter, Limits, RateLimiter
from table.server.edge.memory import MemoryKeeper, keep_memory, settled
from table.server.edge.middleware import ConnectionCap, SecurityHeaders
from table.server.learn import botapi
from table.server.learn import routes as learn
from table.server.online.routes import routes as online_routes
from table.server.online.service import Online
from table.server.play.computer import BotTask, think
from table.server.play.pool import BotPool, BotPoolError, Think
from table.server.play.rooms import Clock, RoomError, Rooms
from table.server.play.routes import routes as game_routes
from table.server.store import SqlStorage, Storage

if TYPE_CHECKING:
    from table.server.cluster.member import Cluster

JSON = dict[str, Any]

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
    online = Online(storage, rooms, now, limits=limits) if isinstance(storage, SqlStorage) else None

    async def health(request: Request) -> Response:
        if cluster is None:
            return JSONResponse({"ok": True})
        return JSONResponse({"ok": True, "worker": cluster.name, "partitions": sorted(cluster.owned)})

    routes = [
        *web_routes(web_root()),
        Route("/api/health", health),
        *(online_routes(online, limits, clock) if online is not None else []),
        *game_routes(rooms, online, limits, clock),
        *botapi.routes(pool, RateLimiter(limits.bot_api_per_minute / 60, limits.bot_api_burst, clock)),
        *learn.routes(rooms, pool),
        Mount("/static", StaticFiles(directory=str(web_root())), name="static"),
    ]
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


def web_routes(root: Path) -> list[Route]:
    """The web client's page and its service worker (the rest is under ``/static``)."""
    async def index(request: Request) -> Response:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    # Read and hashed once: the shipped files do not change while the server runs.  The worker's
    # cache is named after the files' hash, so a new release never answers from the old files.
    worker = (root / "sw.js").read_text(encoding="utf-8").replace("WEB_VERSION", web_version(root))

    async def service_worker(request: Request) -> Response:
        # Served from the root so that it may control the whole app.
        return Response(worker, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return [Route("/", index), Route("/sw.js", service_worker)]


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
        memory = (asyncio.ensure_future(keep_memory(rooms.__len__, MemoryKeeper(rooms.clock)))
                  if settled() else None)
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
            if memory is not None:
                memory.cancel()
            if checking is not None:
                checking.cancel()
            if cluster is not None:
                await cluster.stop()
            await asyncio.to_thread(pool.shutdown)

    return lifespan
