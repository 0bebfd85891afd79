"""A real `table serve` killed with SIGKILL and started again on the same SQLite database: the
decision that was timing goes on from where it stood at the server's last note (it notes every
second that it serves), and nobody's reserve grows."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table.client import OnlineClient
from table.server.online.sweep import last_served
from table.server.store import open_storage

from tests.server.cluster.test_cluster import eventually, free_port, health


class Server:
    """`table serve` on one SQLite file, in a process group of its own (its computer's pool with it)."""

    def __init__(self, db: Path, home: Path) -> None:
        self.db, self.home = db, home
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        port = free_port()
        log = open(self.home / f"serve-{port}.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "table", "serve", "--db", str(self.db), "--port", str(port), "--bot-delay", "0"],
            env={**os.environ, "HOME": str(self.home), "PYTHONUNBUFFERED": "1"}, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        eventually(lambda: health(url), 60, "the server did not start")
        # It serves on the C library's allocator, which gives memory back (table.server.edge.memory).
        assert b"PYTHONMALLOC=malloc" in Path(f"/proc/{self.proc.pid}/environ").read_bytes().split(b"\0")
        return url

    def kill(self) -> None:
        """SIGKILL the server and whatever it started."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.sqlite3", tmp_path)
    try:
        yield s
    finally:
        if s.proc is not None and s.proc.poll() is None:
            s.kill()


def clock_of(url: str, game: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/games/{game}", timeout=10) as r:
        clock: dict[str, Any] = json.loads(r.read())["view"]["clock"]
        return clock


def test_a_killed_server_gives_back_the_time_it_was_down_and_nothing_more(server: Server) -> None:
    url = server.start()
    a, b = OnlineClient(url, "easy"), OnlineClient(url, "easy")
    a.register("ana")
    b.register("bob")
    game = b.join(a.create(3, clock="rapid")["id"])  # 8 s a decision, 3 x 20 s of reserve
    before = clock_of(url, game)
    seat, delay = before["running"], before["delay"]
    assert seat is not None and before["reserve"] == [60.0, 60.0]
    started = before["deadline"] - delay - 60.0  # when the decision began (server time)
    storage = open_storage(server.db)
    try:
        # Nobody plays; 3 s into the decision the server notes again that it serves, then dies.
        eventually(lambda: (last_served(storage) or 0.0) >= started + 3, 20, "the server noted nothing")
        server.kill()
        noted = last_served(storage)
        killed = time.time()
        assert noted is not None
        url = server.start()  # the same database: it loads the game at start-up
        after = clock_of(url, game)
        stored = storage.load_clock(game)
    finally:
        storage.close()
    assert stored is not None
    assert after["running"] == seat
    assert after["reserve"] == [60.0, 60.0] and stored[0]["reserve"] == [60.0, 60.0]  # no grace for anyone
    # The decision goes on from where it stood at the last note: the server loaded it at
    # ``resumed``, between the kill and the state, having used ``noted - started`` by then.
    resumed = stored[0]["started"] + (noted - started)
    assert killed <= resumed <= after["now"]
    assert after["delay_left"][seat] == pytest.approx(delay - (noted - started) - (after["now"] - resumed))
