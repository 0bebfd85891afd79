"""The routes of online play: guests, players, tables, Web Push and the lobby (docs/protocol.md)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from table.errors import TableError
from table.server.edge.limits import Limits, RateLimiter, read_body
from table.server.edge.middleware import client_key
from table.server.edge.outbox import Outbox
from table.server.online.base import OnlineError
from table.server.online.service import Online
from table.server.online.standings import Standings, page_number
from table.server.play.rooms import Clock
from table.server.protocol import Lobby as LobbyMsg
from table.server.protocol import Pong, encode, encode_json
from table.server.replies import answer, bearer, error, read_request, refusal


def routes(online: Online, limits: Limits, clock: Clock) -> list[Route | WebSocketRoute]:
    """The routes of online play: guests, players, tables and the lobby (docs/protocol.md)."""
    new_guests = RateLimiter(limits.guests_per_minute / 60, limits.guests_burst, clock)
    new_tables = RateLimiter(limits.tables_per_minute / 60, limits.tables_burst, clock)

    async def guests(request: Request) -> Response:
        try:
            body = await read_request(request, limits.body_bytes)
            new_guests.take(client_key(request.scope), "too many new guests from your address")
            player, token = await online.guest(body)
        except TableError as exc:
            return error(exc)
        return JSONResponse({"player": online.player_json(player, 0), "token": token}, status_code=201)

    async def me(request: Request) -> Response:
        return await answer(online.me(bearer(request)))

    standings = Standings(online.storage, online, online.now)

    async def player_page(request: Request) -> Response:
        return await answer(standings.player_page(request.path_params["name"]))

    async def player_games(request: Request) -> Response:
        try:
            page = page_number(request.query_params.get("page"))
        except TableError as exc:
            return error(exc)
        return await answer(standings.games(request.path_params["name"], page))

    async def leaderboard(request: Request) -> Response:
        q = request.query_params
        try:
            page = page_number(q.get("page"))
        except TableError as exc:
            return error(exc)
        return await answer(standings.leaderboard(q.get("by"), q.get("period"), page, q.get("variant")))

    async def stats(request: Request) -> Response:
        return await answer(standings.stats())

    async def record(request: Request) -> Response:
        if request.path_params["kind"] == "json":
            return await answer(standings.log(request.path_params["game_id"]))
        try:
            text, filename = await standings.record(request.path_params["game_id"], request.path_params["kind"])
        except TableError as exc:
            return error(exc)
        media = "application/x-sgf" if filename.endswith(".sgf") else "text/plain"
        return Response(text, media_type=f"{media}; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def tables(request: Request) -> Response:
        try:
            if request.method == "GET":
                return JSONResponse(await online.lobby())
            body = await read_request(request, limits.body_bytes)
            await online.player(bearer(request))  # an unknown token is refused before it counts against the rate
            new_tables.take(client_key(request.scope), "too many new tables from your address")
            return JSONResponse(await online.create_table(bearer(request), body, client_key(request.scope)),
                                status_code=201)
        except TableError as exc:
            return error(exc)

    async def one_table(request: Request) -> Response:
        return await answer(online.one_table(request.path_params["table_id"], bearer(request)))

    async def push_key(request: Request) -> Response:
        return await answer(online.push.key())

    async def push_subscription(request: Request) -> Response:
        try:
            action = {"subscribe": online.push.subscribe, "unsubscribe": online.push.unsubscribe}.get(
                request.path_params["action"])
            if action is None:
                raise OnlineError("push's actions are subscribe and unsubscribe", "not_found", 404)
            body = await read_request(request, limits.body_bytes)
            player = await online.player(bearer(request))
            return JSONResponse(await action(player.id, body))
        except TableError as exc:
            return error(exc)

    actions = {"join": online.join, "leave": online.leave, "claim": online.claim, "rematch": online.rematch}

    async def table_action(request: Request) -> Response:
        action = actions.get(request.path_params["action"])
        try:
            if action is None:
                raise OnlineError(f"a table's actions are {', '.join(actions)}", "not_found", 404)
            await read_body(request, limits.body_bytes)  # no body is needed; a huge one is refused
            return JSONResponse(await action(bearer(request), request.path_params["table_id"]))
        except TableError as exc:
            return error(exc)

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
                    outbox.put(encode(Pong()))

        receiver = asyncio.ensure_future(receive())
        try:
            outbox.put(encode(LobbyMsg(await online.lobby())))
            online.lobby_watchers.add(outbox)
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        except TableError as exc:
            outbox.put(encode_json(refusal(exc)))
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
