"""How uvicorn runs the app: bounded frames, headers, connections and a header-read timeout.

uvicorn bounds an idle keep-alive connection (``timeout_keep_alive``), the
size of a request's headers (``h11_max_incomplete_event_size``, h11 only),
WebSocket messages (``ws_max_size``), silent WebSocket peers
(``ws_ping_interval`` / ``ws_ping_timeout``) and all connections together
(``limit_concurrency``, answered 503).  Two things it lacks are added by
``GuardedHttpProtocol``:

* a timeout for a client that sends its request headers slowly, or not at
  all: a connection whose request headers are not complete within
  ``header_timeout`` seconds of the connection (or of the request's first
  byte, on a kept-alive connection) is closed;
* a cap on the sockets one address holds, counted when the connection is
  accepted, before any header: uvicorn counts every socket towards
  ``limit_concurrency`` from the moment it is accepted, so without it one
  address holding half-sent requests (slow-loris) fills that limit and every
  other client is answered 503.  A socket over the cap is answered 429 and
  closed at once.  The addresses uvicorn trusts as proxies
  (``FORWARDED_ALLOW_IPS``) carry many clients' connections and are not
  capped here; behind such a proxy the per-client limits come from the
  proxy (deploy/nginx) and from ``ConnectionCap``, which sees the forwarded
  address.

A WebSocket keeps counting as its address's socket until it closes.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any
from weakref import WeakKeyDictionary

from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from table.server.edge.limits import ConnectionLimiter, Limits

HEADER_TIMEOUT = 10.0
MAX_CONNECTIONS = 2000
FILES_KEPT = 128  # descriptors left for the database, the bot's pool, logs and static files

# The sockets each address holds, per running server (uvicorn's ServerState is shared by its connections).
_SOCKETS: WeakKeyDictionary[ServerState, ConnectionLimiter] = WeakKeyDictionary()


@functools.lru_cache(maxsize=8)
def _trusted(forwarded_allow_ips: str) -> _TrustedHosts:
    return _TrustedHosts(forwarded_allow_ips)


def _refusal(limit: int) -> bytes:
    body = json.dumps({"type": "error", "code": "too_many_connections",
                       "message": f"too many connections from your address (at most {limit}): "
                                  "close some and try again"}).encode()
    return (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with a header timeout and a cap on each address's sockets."""

    header_timeout = HEADER_TIMEOUT
    sockets_per_address = Limits().sockets_per_client
    _header_timer: asyncio.TimerHandle | None = None
    _counted: str | None = None  # the address this socket is counted against, until it closes

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and not self._is_proxy(host):
            sockets = self._sockets()
            if not sockets.acquire(host):
                # Refused before reading a byte: the socket costs nothing more than this answer.
                transport.write(_refusal(sockets.limit))
                transport.close()
                return
            self._counted = host
        self._start_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        host, self._counted = self._counted, None
        if host is None:
            return
        # The socket now belongs to the WebSocket protocol, whose connection_lost ends it.
        websocket = self.transport.get_protocol()
        lost = websocket.connection_lost
        sockets = self._sockets()

        def release_when_lost(exc: Exception | None) -> None:
            try:
                lost(exc)
            finally:
                sockets.release(host)

        websocket.connection_lost = release_when_lost  # type: ignore[method-assign]

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        host, self._counted = self._counted, None
        if host is not None:
            self._sockets().release(host)
        super().connection_lost(exc)

    def _is_proxy(self, host: str) -> bool:
        if not self.config.proxy_headers:
            return False
        allowed = self.config.forwarded_allow_ips
        return host in _trusted(allowed if isinstance(allowed, str) else ",".join(allowed))

    def _sockets(self) -> ConnectionLimiter:
        sockets = _SOCKETS.get(self.server_state)
        if sockets is None:
            sockets = _SOCKETS[self.server_state] = ConnectionLimiter(self.sockets_per_address)
        return sockets

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


def http_protocol(header_timeout: float = HEADER_TIMEOUT,
                  sockets_per_address: int = GuardedHttpProtocol.sockets_per_address) -> type[GuardedHttpProtocol]:
    """``GuardedHttpProtocol`` with other bounds (for tests and configuration).

    The defaults give the class itself: uvicorn's worker processes get their settings by pickling,
    which needs a class importable by its name."""
    if (header_timeout, sockets_per_address) == (GuardedHttpProtocol.header_timeout,
                                                  GuardedHttpProtocol.sockets_per_address):
        return GuardedHttpProtocol
    return type("GuardedHttpProtocol", (GuardedHttpProtocol,),
                {"header_timeout": header_timeout, "sockets_per_address": sockets_per_address})


def with_header_timeout(seconds: float) -> type[GuardedHttpProtocol]:
    """``GuardedHttpProtocol`` with another header timeout."""
    return http_protocol(header_timeout=seconds)


def raise_open_file_limit() -> int | None:
    """Raise this process's soft limit on open files up to its hard limit, where the system allows.

    Every connection is a file: with the common soft limit of 1,024 a server stops accepting
    long before ``MAX_CONNECTIONS``.  Returns the soft limit now in force (None where unknown).
    """
    try:
        import resource
    except ImportError:  # not a Unix system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # e.g. macOS caps it below the hard limit: keep what we have
            pass
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


def connection_budget(open_files: int | None, wanted: int = MAX_CONNECTIONS) -> int:
    """How many connections to allow at once with ``open_files`` descriptors (None: unknown).

    Past the open-file limit uvicorn cannot even accept a connection to answer it 503, so the
    limit it enforces must stay below it.

    >>> connection_budget(None), connection_budget(65536), connection_budget(1024), connection_budget(100)
    (2000, 2000, 896, 32)
    """
    if open_files is None:
        return wanted
    return max(32, min(wanted, open_files - FILES_KEPT))


def uvicorn_options(limits: Limits = Limits(), header_timeout: float = HEADER_TIMEOUT,
                    max_connections: int = MAX_CONNECTIONS) -> dict[str, Any]:
    """The ``uvicorn.Config`` keyword arguments that bound what clients may hold."""
    return {
        "http": http_protocol(header_timeout, limits.sockets_per_client),
        "ws_max_size": limits.ws_frame_bytes,
        # No permessage-deflate: a state is about a kilobyte, and compressing each frame cost about
        # 5% of the server's CPU and each socket a compressor's memory (90 MiB at 2,000 sockets;
        # docs/performance.md, seventh round).
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "timeout_keep_alive": 5,
        "limit_concurrency": max_connections,
        "h11_max_incomplete_event_size": 16 * 1024,
    }
