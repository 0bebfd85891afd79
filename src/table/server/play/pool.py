"""The process pool the computer thinks in, so a long think never holds up the event loop.

``BotPool.choose(task)`` runs ``think(task)`` (by default ``computer.think``)
in a worker process and awaits the result.  The pool starts on first use
(spawned workers: they import the engine and load the weights once, then
keep them) and ``shutdown()`` ends it; the app calls it when it stops.
A worker that dies is replaced by a fresh pool on the next call, and a worker
whose server died (``kill -9``, or a shutdown cut short while it was still
compiling) ends by itself rather than linger with the bot in its memory.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from typing import Any, Callable, TypeVar

from table.errors import TableError
from table.server.play.computer import BotTask, think, warm_up

JSON = dict[str, Any]
Think = Callable[[BotTask], JSON]
T = TypeVar("T")
log = logging.getLogger(__name__)


class BotPoolError(TableError):
    """The computer could not decide (its worker process died)."""


def default_workers() -> int:
    """Worker processes for this machine: one core is left to the event loop, at most 8."""
    return max(1, min(8, (os.cpu_count() or 2) - 1))


def leave_with_parent() -> None:
    """In a spawned worker: end the process as soon as the process that started it is gone.

    ``concurrent.futures`` workers block on their task queue, which a dead server never
    closes for them; the parent's sentinel becomes ready the moment it dies.
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not a child of this module's pool
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


class BotPool:
    """Worker processes running the computer's thinking, started lazily."""

    def __init__(self, workers: int | None = None, think: Think = think) -> None:
        self.workers = workers or default_workers()
        self.think = think
        self._executor: ProcessPoolExecutor | None = None
        self._warming: asyncio.Future[None] | None = None

    @property
    def running(self) -> bool:
        return self._executor is not None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # Spawned, not forked: the server runs threads (storage, uvicorn in tests)
            # whose locks a forked child could inherit held.
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=leave_with_parent)
        return self._executor

    async def choose(self, task: BotTask) -> JSON:
        """The wire action for ``task``, decided in a worker process."""
        warming = self._warming
        if warming is not None and not warming.done():
            # Another worker would compile the same search again, side by side with the warming
            # one; once that one has, every worker loads it from numba's cache in a moment.
            await asyncio.wait([warming])
        return await self.run(self.think, task)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process (``fn`` and ``args`` picklable), awaited."""
        pool = self._pool()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool as exc:
            if self._executor is pool:
                self._executor = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise BotPoolError("the computer's worker process stopped; it will be restarted") from exc

    def warm(self) -> asyncio.Future[None]:
        """Start a worker and ready the computer in it now, in the background (``warm_up``);
        a failure is only logged: the first game then readies it instead."""
        task = self._warming = asyncio.ensure_future(self.run(warm_up))

        def done(t: asyncio.Future[None]) -> None:
            if not t.cancelled() and t.exception() is not None:
                log.warning("the computer could not be readied at start: %s", t.exception())

        task.add_done_callback(done)
        return task

    def shutdown(self) -> None:
        """Stop the workers (waiting for them to exit); the next ``choose`` starts a new pool."""
        pool, self._executor = self._executor, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
