"""ASGI middleware every route goes through: security headers and a per-address connection cap.

Written as plain ASGI (not Starlette's ``BaseHTTPMiddleware``) so that
WebSockets and streamed bodies pass through untouched.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable, MutableMapping

from table.server.edge.limits import ConnectionLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The client is plain ES modules and a stylesheet from /static, with the board
# drawn as SVG by script: nothing inline is needed, so nothing inline is allowed.
# 'wasm-unsafe-eval' lets the bot compile its WebAssembly evaluator (engine/simd.js); it allows
# no JavaScript eval.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


def client_key(scope: Scope) -> str:
    """The address a request comes from (as uvicorn reports it, after trusted proxy headers)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class SecurityHeaders:
    """Add the security headers to every HTTP response (those a route sets itself win)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ConnectionCap:
    """Refuse a client address more than ``limiter.limit`` HTTP requests in flight plus open WebSockets.

    An HTTP refusal is a 429 JSON error; a WebSocket refusal is accepted only
    to say why, as an error message and then close code 4429 with a reason.
    A WebSocket counts until its client has gone, even after the app has
    dropped it, so one address cannot pile up connections that never drain.
    """

    CLOSE_CODE = 4429

    def __init__(self, app: ASGIApp, limiter: ConnectionLimiter) -> None:
        self.app = app
        self.limiter = limiter
        self._lingering: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            try:
                await self.app(scope, receive, send)
            finally:  # the server is stopping: stop waiting for lingering sockets
                for task in list(self._lingering):
                    task.cancel()
            return
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        key = client_key(scope)
        if not self.limiter.acquire(key):
            message = (f"too many connections from your address (at most {self.limiter.limit}): "
                       "close some and try again")
            await self._refuse(scope, receive, send, message)
            return
        gone = scope["type"] == "http"  # an HTTP request ends with its response

        async def receive_and_note() -> Message:
            nonlocal gone
            message = await receive()
            gone = gone or message["type"] == "websocket.disconnect"
            return message

        try:
            await self.app(scope, receive_and_note, send)
        finally:
            if gone:
                self.limiter.release(key)
            else:
                # The app is done with a socket whose client has not gone, e.g. one dropped
                # for not reading: its connection lingers until the client leaves, and counts.
                task = asyncio.ensure_future(self._release_when_gone(key, receive))
                self._lingering.add(task)
                task.add_done_callback(self._lingering.discard)

    async def _release_when_gone(self, key: str, receive: Receive) -> None:
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass
        finally:
            self.limiter.release(key)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, message: str) -> None:
        body = json.dumps({"type": "error", "code": "too_many_connections", "message": message}).encode()
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 429,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": body.decode()})
        await send({"type": "websocket.close", "code": self.CLOSE_CODE, "reason": "too many connections"})
