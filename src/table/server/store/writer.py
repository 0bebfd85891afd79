"""Online moves stored by one thread, as many in one transaction as are waiting.

Each move must be stored before it is published.  Handing every move to a
thread pool of its own costs a commit and several thread switches per move,
and under load the moves queue behind one another for the interpreter lock:
the slowest hundredth waited a quarter of a second at 500 games.  One writer
thread takes whatever has queued up since its last commit and stores it all
at once (each move kept or refused on its own), then wakes the waiting moves.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from table.server.store import OnlineWrite, StorageError

# How long an idle writer thread waits for work before it ends (a new one starts when needed).
IDLE_SECONDS = 2.0


class GroupWriter:
    """Stores ``OnlineWrite``s through ``store_many`` (``SqlStorage.append_online_many``) from one thread."""

    def __init__(self, store_many: Callable[[list[OnlineWrite]], list[StorageError | None]]) -> None:
        self._store_many = store_many
        self._waiting: list[tuple[OnlineWrite, asyncio.Future[None]]] = []
        self._ready = threading.Condition()
        self._running = False

    async def write(self, w: OnlineWrite) -> None:
        """Store ``w``; raises the ``StorageError`` that kept it out."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._ready:
            self._waiting.append((w, done))
            if not self._running:
                self._running = True
                threading.Thread(target=self._run, name="table-writer", daemon=True).start()
            self._ready.notify()
        await done

    def _run(self) -> None:
        while True:
            with self._ready:
                if not self._waiting:
                    self._ready.wait(IDLE_SECONDS)
                if not self._waiting:
                    self._running = False
                    return
                batch, self._waiting = self._waiting, []
            try:
                results = self._store_many([w for w, _ in batch])
            except StorageError as exc:
                results = [exc] * len(batch)
            except Exception as exc:  # pragma: no cover - append_online_many reports its own errors
                results = [StorageError(f"the games database failed: {exc}")] * len(batch)
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], StorageError | None]]] = {}
            for (_, done), error in zip(batch, results):
                by_loop.setdefault(done.get_loop(), []).append((done, error))
            for loop, settled in by_loop.items():
                try:
                    loop.call_soon_threadsafe(_settle, settled)  # one wake-up for the whole batch
                except RuntimeError:  # pragma: no cover - that loop has closed: nobody waits
                    pass


def _settle(settled: list[tuple[asyncio.Future[None], StorageError | None]]) -> None:
    for done, error in settled:
        if done.cancelled():
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)
