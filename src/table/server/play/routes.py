"""The routes of one game: made and read over HTTP, played over HTTP or its WebSocket.

HTTP::

    POST /api/games                  {"mode": "computer", ...}  -> {"game", "token", ...state}
    GET  /api/games/{id}             Authorization: Bearer TOKEN (none: spectator)
    POST /api/games/{id}/actions     {"version": n, "action": {...}}

WebSocket ``/ws/games/{id}``: the client's messages are read by
``table.server.protocol.parse_client`` (``hello``, ``action``, ``chat``,
``ping``); the server sends a ``state`` after every change and an ``error``
for a refused message (docs/protocol.md).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from table.errors import TableError
from table.server.edge.limits import Limits, RateLimiter
from table.server.edge.middleware import client_key
from table.server.edge.outbox import Outbox
from table.server.online.base import OnlineError
from table.server.online.service import Online
from table.server.play.game import GameConfig
from table.server.play.rooms import MOVED_CODE, Clock, Room, RoomError, Rooms, Watcher
from table.server.protocol import (Act, Chat, Hello, Ping, Pong, Refusal, encode, encode_json, parse_act,
                                   parse_client)
from table.server.replies import bearer, error, read_request, refusal

NO_GAME_CODE = 4404


def routes(rooms: Rooms, online: Online | None, limits: Limits, clock: Clock) -> list[Route | WebSocketRoute]:
    """The game routes, the rooms ``rooms`` holds behind them (``online``: its tables' chat and clocks)."""
    new_games = RateLimiter(limits.games_per_minute / 60, limits.games_burst, clock)
    chats = RateLimiter(limits.chat_per_second, limits.chat_burst, clock)

    async def create_game(request: Request) -> Response:
        try:
            config = await read_request(request, limits.body_bytes)
            GameConfig.from_json(config)  # a bad request is refused before it counts against the rate
            new_games.take(client_key(request.scope), "too many new games from your address")
            room, token = await rooms.create(config)
            state = await room.state(room.seats_for(token))
        except TableError as exc:
            return error(exc)
        return JSONResponse({**state, "token": token}, status_code=201)

    async def get_game(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
            state = await room.state(room.seats_for(bearer(request)))
        except TableError as exc:
            return error(exc)
        return JSONResponse(state)

    async def post_action(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
            seats = room.seats_for(bearer(request))
            act = parse_act(await read_request(request, limits.body_bytes))
            await room.act(seats, act)
            await rooms.settle(room)
            state = await room.state(seats)
        except TableError as exc:
            return error(exc)
        return JSONResponse(state)

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        outbox = Outbox(ws.send_text, ws.close, limits.outbox_messages, limits.send_timeout)
        sender = asyncio.ensure_future(outbox.run())
        try:
            async with rooms.greeting:
                room = await rooms.get(ws.path_params["game_id"])
        except TableError as exc:
            outbox.put(encode_json(refusal(exc)))
            moved = isinstance(exc, RoomError) and exc.code == "moved"
            outbox.finish(MOVED_CODE if moved else NO_GAME_CODE, "moved" if moved else "no such game")
            await sender
            return
        watching: list[Watcher] = []  # this socket's registration in the room (none before hello)
        receiver = asyncio.ensure_future(receive(ws, room, outbox, watching))
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

    async def greet(room: Room, outbox: Outbox, watching: list[Watcher], msg: Hello) -> None:
        """Answer a hello: the state the token's seats see, the chat history, a turn-based roll."""
        seats = room.seats_for(msg.token)
        who = await online.maybe_player(msg.token) if online and room.online and msg.token else None
        watcher = Watcher(outbox, seats, who.id if who else None)
        await room.watch(watcher, msg.since, watching[0] if watching else None)
        watching[:] = [watcher]
        history = await online.chat_history(room, seats) if online else None
        if history is not None:
            outbox.put(encode(history))
        if online is not None:
            await online.opened(room, seats)  # turn-based: opening your turn rolls your dice

    async def receive(ws: WebSocket, room: Room, outbox: Outbox, watching: list[Watcher]) -> None:
        """Answer one socket's messages until it disconnects."""
        messages = RateLimiter(limits.ws_messages_per_second, limits.ws_messages_burst, clock)
        while True:
            await outbox.roomy()  # answers not yet read hold back the next request
            if not outbox.open:
                return  # dropped for not reading
            event = await ws.receive()
            if event["type"] == "websocket.disconnect":
                return
            try:
                messages.take("", "too many messages on this connection")  # refused ones count too
                msg = parse_client(event.get("text"), limits.ws_message_chars)
                if isinstance(msg, Hello):
                    async with rooms.greeting:
                        await greet(room, outbox, watching, msg)
                elif isinstance(msg, Chat):
                    if not watching:
                        raise RoomError("say hello before chatting", "bad_token")
                    if online is None:
                        raise OnlineError("chat is for online tables", "not_online")
                    chats.take(str(watching[0].player), "too many chat messages")
                    await online.chat(room, watching[0].seats, watching[0].player, msg)
                elif isinstance(msg, Act):
                    if not watching:
                        raise RoomError("say hello with your token before acting", "bad_token")
                    await room.act(watching[0].seats, msg)
                    await rooms.settle(room)
                else:
                    assert isinstance(msg, Ping)
                    outbox.put(encode(Pong(room.version)))
            except TableError as exc:
                if room.retired:  # another worker serves this game now: reconnect there
                    outbox.finish(MOVED_CODE, "moved")
                    return
                refused = refusal(exc)
                outbox.put(encode(Refusal(refused["code"], refused["message"], room.version)))

    return [
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/actions", post_action, methods=["POST"]),
        WebSocketRoute("/ws/games/{game_id}", socket),
    ]
