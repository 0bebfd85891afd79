"""Helpers shared by the server tests."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
import time
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from table.tools.bench.server import first_path
from table.server.store import StorageError

__all__ = ["FakeClock", "FlakyStorage", "TestClient", "auth", "first_path", "run_async"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class FlakyStorage:
    """A storage that fails (or is slow) when told to, to test what the server does then."""

    def __init__(self, inner):
        self.inner = inner
        self.fail_seqs: set[int] = set()   # log places whose next append fails, once each
        self.fail_after = False            # ... having been made nonetheless (a lost reply)
        self.delay = 0.0                   # seconds every append sleeps first (blocking, as a slow disk)
        self.appending = threading.Event()  # set while an append sleeps

    def create(self, game_id, config, seats):
        self.inner.create(game_id, config, seats)

    def append(self, game_id, seq, entry):
        if self.delay:
            self.appending.set()
            time.sleep(self.delay)
            self.appending.clear()
        if seq in self.fail_seqs:
            self.fail_seqs.discard(seq)
            if self.fail_after:
                self.inner.append(game_id, seq, entry)
            raise StorageError("the disk is full")
        self.inner.append(game_id, seq, entry)

    def load(self, game_id):
        return self.inner.load(game_id)

    def close(self):
        self.inner.close()


class FakeClock:
    """A clock the test moves by hand (``clock.now += 10``)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def run_async(coro):
    """``asyncio.run(coro)`` in a thread of its own: the browser tests may leave a loop running in this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coro).result()
