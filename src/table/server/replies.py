"""How every HTTP route answers: JSON, or a refusal with its code and status (docs/protocol.md).

>>> refusal(LimitError("slow down", "rate_limited", 429))
{'type': 'error', 'code': 'rate_limited', 'message': 'slow down'}
"""

from __future__ import annotations

from typing import Any, Awaitable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from table.errors import TableError
from table.server.edge.limits import LimitError, read_body
from table.server.online.base import OnlineError
from table.server.play.game import GameConfigError
from table.server.play.rooms import RoomError
from table.server.protocol import ProtocolError, read_json

JSON = dict[str, Any]

STATUS = {"not_found": 404, "bad_token": 403, "not_your_turn": 409, "stale": 409, "illegal": 422,
          "storage_failed": 503, "computer_failed": 503, "moved": 503}


def refusal(exc: TableError) -> JSON:
    """The error message for a refused request or WebSocket message."""
    code = exc.code if isinstance(exc, (RoomError, LimitError, ProtocolError, GameConfigError)) else "bad_request"
    return {"type": "error", "code": code, "message": str(exc)}


def error(exc: TableError) -> JSONResponse:
    body = refusal(exc)
    if isinstance(exc, LimitError):
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
        return JSONResponse(body, status_code=exc.status, headers=headers)
    if isinstance(exc, OnlineError):
        return JSONResponse(body, status_code=exc.status)
    return JSONResponse(body, status_code=STATUS.get(body["code"], 400))


async def read_request(request: Request, limit: int) -> object:
    """The request's JSON body, at most ``limit`` bytes, every string one that can be stored."""
    return read_json(await read_body(request, limit), "the request body")


async def answer(work: Awaitable[JSON]) -> Response:
    """The JSON ``work`` answers, or the error it was refused with."""
    try:
        return JSONResponse(await work)
    except TableError as exc:
        return error(exc)


def bearer(request: Request) -> str | None:
    """The token of ``Authorization: Bearer TOKEN`` (None without one)."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None
