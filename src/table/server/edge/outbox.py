"""What the server sends one WebSocket, in order, from the socket's own task.

Rooms never await a client: they ``put`` encoded messages here, which never
blocks, and the socket's ``run`` task sends them one by one.  A reader that
lets ``limit`` messages pile up, or does not take one within ``timeout``
seconds, is dropped: its socket is closed with code 4408 and a reason, and it
may reconnect and say hello with ``since`` to get what it missed.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Union

SendText = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]

SLOW_CODE = 4408
SLOW_REASON = "too slow to read: reconnect and say hello with since"

_Item = Union[str, tuple[int, str]]  # a message, or the close code and reason that end the queue


class Outbox:
    """The outgoing queue of one WebSocket."""

    def __init__(self, send: SendText, close: Close, limit: int = 64, timeout: float = 10.0) -> None:
        self._send = send
        self._close = close
        self.limit = limit
        self.timeout = timeout
        self._queue: asyncio.Queue[_Item] = asyncio.Queue()
        self._roomy = asyncio.Event()  # at most half full (or closed): the reader may take more work
        self._roomy.set()
        self.open = True

    def put(self, text: str) -> bool:
        """Queue ``text``; False if this outbox is closed (or has just been, for being too full)."""
        if not self.open:
            return False
        if self._queue.qsize() >= self.limit:
            self._end(SLOW_CODE, SLOW_REASON, drop_queued=True)
            return False
        self._queue.put_nowait(text)
        if self._queue.qsize() > self.limit // 2:
            self._roomy.clear()
        return True

    async def roomy(self) -> None:
        """Wait until the queue is at most half full (or closed).

        The socket's own requests wait on this before the next is read, so a
        client that sends faster than it reads is slowed down, not dropped.
        """
        await self._roomy.wait()

    def finish(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close with ``code``."""
        self._end(code, reason, drop_queued=False)

    def _end(self, code: int, reason: str, drop_queued: bool) -> None:
        if not self.open:
            return
        self.open = False
        while drop_queued and not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait((code, reason))
        self._roomy.set()

    async def run(self) -> None:
        """Send until finished or dropped, then close the socket (never waiting more than ``timeout``)."""
        code, reason = 1000, ""
        try:
            while True:
                item = await self._queue.get()
                if self._queue.qsize() <= self.limit // 2:
                    self._roomy.set()
                if isinstance(item, tuple):
                    code, reason = item
                    break
                try:
                    async with asyncio.timeout(self.timeout):  # no task of its own per message, as wait_for makes
                        await self._send(item)
                except TimeoutError:
                    code, reason = SLOW_CODE, SLOW_REASON
                    break
                except Exception:  # the client has gone: nothing more to send or close
                    return
        finally:
            self.open = False
            self._roomy.set()
        try:
            await asyncio.wait_for(self._close(code, reason), self.timeout)
        except Exception:  # already closed, or its buffer will never drain: the task ends anyway
            pass
