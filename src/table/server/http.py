"""How uvicorn runs the app: bounded frames, headers, connections and a header-read timeout.

uvicorn bounds an idle keep-alive connection (``timeout_keep_alive``), the
size of a request's headers (``h11_max_incomplete_event_size``, h11 only),
WebSocket messages (``ws_max_size``), silent WebSocket peers
(``ws_ping_interval`` / ``ws_ping_timeout``) and all connections together
(``limit_concurrency``, answered 503).  It has no timeout for a client that
connects and sends its request headers slowly, or not at all, so
``HeaderTimeoutProtocol`` adds one: a connection whose request headers are
not complete within ``header_timeout`` seconds of the connection (or of the
request's first byte, on a kept-alive connection) is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from table.server.limits import Limits

HEADER_TIMEOUT = 10.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose request headers are too slow."""

    header_timeout = HEADER_TIMEOUT
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderTimeoutProtocol]:
    """``HeaderTimeoutProtocol`` with another timeout (for tests and configuration).

    The default is the class itself: uvicorn's worker processes get their settings by pickling,
    which needs a class importable by its name."""
    if seconds == HeaderTimeoutProtocol.header_timeout:
        return HeaderTimeoutProtocol
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})


def uvicorn_options(limits: Limits = Limits(), header_timeout: float = HEADER_TIMEOUT,
                    max_connections: int = 2000) -> dict[str, Any]:
    """The ``uvicorn.Config`` keyword arguments that bound what clients may hold."""
    return {
        "http": with_header_timeout(header_timeout),
        "ws_max_size": limits.ws_frame_bytes,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "timeout_keep_alive": 5,
        "limit_concurrency": max_connections,
        "h11_max_incomplete_event_size": 16 * 1024,
    }

