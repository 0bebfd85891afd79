"""Limits that keep one client from exhausting the server: rates, connections, sizes.

Everything here is independent of the game: the online tables, guests and
chat reuse the same pieces.

* ``RateLimiter``: a token bucket per key (a client address, a connection),
  with an injectable clock so tests need not sleep.
* ``ConnectionLimiter``: how many connections (HTTP requests in flight and
  open WebSockets) one key may hold at once.
* ``read_body``: a request body read chunk by chunk and refused as soon as it
  passes the limit, not after it has all been buffered.
* ``Limits``: the numbers, in one place, with the defaults ``table serve`` uses.

>>> clock = [0.0]
>>> bucket = RateLimiter(rate=1.0, burst=2, clock=lambda: clock[0])
>>> bucket.check("1.2.3.4"), bucket.check("1.2.3.4"), bucket.check("1.2.3.4")
(0.0, 0.0, 1.0)
>>> clock[0] = 1.0
>>> bucket.check("1.2.3.4")
0.0
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

from starlette.requests import Request

from table.errors import TableError

Clock = Callable[[], float]


class LimitError(TableError):
    """A request refused by a limit; ``code`` and ``status`` say which, ``retry_after`` when to retry."""

    def __init__(self, message: str, code: str, status: int, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limits:
    """The server's limits (defaults are what ``table serve`` runs with)."""

    body_bytes: int = 16_384              # an HTTP request body
    ws_message_chars: int = 16_384        # one WebSocket text message
    ws_frame_bytes: int = 65_536          # what uvicorn accepts in one frame/message (ws_max_size)
    connections_per_client: int = 64      # HTTP requests in flight + open WebSockets, per address (NAT: a class)
    sockets_per_client: int = 128         # TCP connections per address, counted from the accept (not proxies)
    games_per_minute: float = 20.0        # new games per address (a school may share one), sustained ...
    games_burst: int = 40                 # ... after a burst of this many
    ws_messages_per_second: float = 20.0  # messages one WebSocket may send, sustained ...
    ws_messages_burst: int = 60           # ... after a burst of this many
    guests_per_minute: float = 10.0       # new guests per address, sustained ...
    guests_burst: int = 20                # ... after a burst of this many
    tables_per_minute: float = 20.0       # new tables per address, sustained ...
    tables_burst: int = 40                # ... after a burst of this many
    open_tables_per_player: int = 5       # open tables one player may hold at once
    open_tables_per_address: int = 10     # open tables made from one address (per server process)
    # The public bot API, per address: a person setting up positions by hand never meets this,
    # but one question every 30 s is too slow to play a match at a live pace through it (a rapid
    # or normal clock asks for a decision every 8-12 s; even the relaxed one's reserve runs out).
    bot_api_per_minute: float = 2.0       # questions to /api/move and /api/eval, sustained ...
    bot_api_burst: int = 20               # ... after a burst of this many
    chat_per_second: float = 1.0          # chat messages per player, sustained ...
    chat_burst: int = 5                   # ... after a burst of this many
    outbox_messages: int = 64             # messages waiting for one slow reader before it is dropped
    send_timeout: float = 10.0            # seconds one send may take before the reader is dropped
    room_idle_seconds: float = 15 * 60    # a room nobody watches leaves memory after this long idle ...
    room_finished_seconds: float = 60.0   # ... or this long once its match is over
    room_away_seconds: float = 120.0      # ... or this long after both players of an online match left it


class RateLimiter:
    """A token bucket per key: ``burst`` actions at once, then ``rate`` per second.

    Keys not seen for a while are forgotten (at most ``max_keys`` are kept,
    the least recently used go first), so memory stays bounded whatever
    addresses come.
    """

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic, max_keys: int = 100_000) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a rate limiter needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    def check(self, key: str) -> float:
        """Take one token for ``key``: 0.0 if allowed, else the seconds until one is free (nothing taken)."""
        now = self.clock()
        tokens, at = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        if tokens >= 1.0 - 1e-9:  # waiting the time it was told is always enough, rounding aside
            self._buckets[key] = (max(0.0, tokens - 1.0), now)
            wait = 0.0
        else:
            self._buckets[key] = (tokens, now)
            wait = (1.0 - tokens) / self.rate
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait

    def take(self, key: str, what: str) -> None:
        """Take one token for ``key`` or raise a 429 ``LimitError``: ``what`` and when to retry.

        >>> bucket = RateLimiter(0.1, 1, clock=lambda: 0.0)
        >>> bucket.take("k", "too many tries")
        >>> bucket.take("k", "too many tries")
        Traceback (most recent call last):
        ...
        table.server.edge.limits.LimitError: too many tries: try again in 10 s
        """
        wait = self.check(key)
        if wait:
            raise LimitError(f"{what}: try again in {wait:.0f} s" if wait >= 1 else f"{what}: slow down",
                             "rate_limited", 429, wait)


class ConnectionLimiter:
    """At most ``limit`` connections held at once per key.

    >>> cap = ConnectionLimiter(1)
    >>> cap.acquire("a"), cap.acquire("a"), cap.acquire("b")
    (True, False, True)
    >>> cap.release("a"); cap.acquire("a")
    True
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        """Count one more connection for ``key``; False (and nothing counted) when at the limit."""
        held = self._held.get(key, 0)
        if held >= self.limit:
            return False
        self._held[key] = held + 1
        return True

    def release(self, key: str) -> None:
        held = self._held.get(key, 0) - 1
        if held > 0:
            self._held[key] = held
        else:
            self._held.pop(key, None)

    def held(self, key: str) -> int:
        return self._held.get(key, 0)


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with a 413 ``LimitError`` as soon as it passes ``limit`` bytes."""
    too_large = LimitError(f"the request body is larger than {limit} bytes", "too_large", 413)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)
