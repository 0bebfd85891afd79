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
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from table.errors import TableError
from table.rules.dice import DiceSource
from table.server.rooms import RoomError, Rooms, Watcher
from table.server.storage import Storage

JSON = dict[str, Any]

STATUS = {"not_found": 404, "bad_token": 403, "not_your_turn": 409, "stale": 409, "illegal": 422}


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


def _error(code: str, message: str) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=STATUS.get(code, 400))


async def _body(request: Request) -> object:
    raw = await request.body()
    if len(raw) > 16_384:
        raise RoomError("the request body is too large")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RoomError(f"the request body is not valid JSON: {exc}") from exc


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None


def create_app(storage: Storage, dice: DiceSource | None = None, bot_delay: float = 0.0) -> Starlette:
    """The application, storing games in ``storage`` and rolling with ``dice`` (default: secrets)."""
    rooms = Rooms(storage, dice, bot_delay)

    async def create_game(request: Request) -> Response:
        try:
            room, token = await rooms.create(await _body(request))
        except RoomError as exc:
            return _error(exc.code, str(exc))
        except TableError as exc:
            return _error("bad_request", str(exc))
        seats = room.seats_for(token)
        return JSONResponse({**room.message(seats), "token": token}, status_code=201)

    async def get_game(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
            seats = room.seats_for(_token(request))
        except RoomError as exc:
            return _error(exc.code, str(exc))
        return JSONResponse(room.message(seats))

    async def post_action(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
            seats = room.seats_for(_token(request))
            body = await _body(request)
            if not isinstance(body, dict) or set(body) - {"version", "action"} or "action" not in body:
                raise RoomError('the body must be {"version": n, "action": {...}}')
            await room.act(seats, body["action"], body.get("version"))
            await room.advance()
        except RoomError as exc:
            return _error(exc.code, str(exc))
        return JSONResponse(room.message(seats))

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        watcher: Watcher | None = None
        try:
            room = await rooms.get(ws.path_params["game_id"])
        except RoomError as exc:
            await ws.send_json({"type": "error", "code": exc.code, "message": str(exc)})
            await ws.close(code=4404)
            return
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    msg = json.loads(raw)
                    if not isinstance(msg, dict):
                        raise RoomError("a message is a JSON object with a \"type\"")
                    kind = msg.get("type")
                    if kind == "hello":
                        seats = room.seats_for(msg.get("token"))
                        since = msg.get("since")
                        if since is not None and (not isinstance(since, int) or isinstance(since, bool)
                                                  or not 0 <= since <= room.version):
                            raise RoomError(f"since must be a version from 0 to {room.version}")
                        if watcher is not None:
                            room.watchers.discard(watcher)
                        watcher = Watcher(ws.send_json, seats)
                        room.watchers.add(watcher)
                        if since is not None:
                            # What a returning watcher missed, as logged (past rolls included).
                            await ws.send_json({"type": "events", "from": since, "version": room.version,
                                                "entries": room.game.log[since:]})
                        await ws.send_json(room.message(seats))
                    elif kind == "action":
                        if watcher is None:
                            raise RoomError("say hello with your token before acting", "bad_token")
                        await room.act(watcher.seats, msg.get("action"), msg.get("version"))
                        await room.advance()
                    elif kind == "ping":
                        await ws.send_json({"type": "pong", "version": room.version})
                    else:
                        raise RoomError(f"unknown message type {kind!r}: use hello, action or ping")
                except json.JSONDecodeError as exc:
                    await ws.send_json({"type": "error", "code": "bad_request",
                                        "message": f"the message is not valid JSON: {exc}"})
                except RoomError as exc:
                    await ws.send_json({"type": "error", "code": exc.code, "message": str(exc),
                                        "version": room.version})
        except WebSocketDisconnect:
            pass
        finally:
            if watcher is not None:
                room.watchers.discard(watcher)

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
        Mount("/static", StaticFiles(directory=str(root)), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.rooms = rooms
    return app
