"""How a server process keeps its memory: no full collection stalls the tables by itself; full
collections (and memory given back) come from the sweep, when the load falls and at least every
``FULL_COLLECTION_SECONDS``; a forgotten room leaves nothing behind."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import weakref

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.edge.memory import FULL_COLLECTION_SECONDS
from table.server.store import open_storage

from tests.server.server_helpers import TestClient
from tests.server.test_room_lifecycle import clock, finish  # noqa: F401 - fixture

LIMITS = Limits(games_burst=100, room_idle_seconds=4 * FULL_COLLECTION_SECONDS)


@pytest.fixture
def client(tmp_path, clock):
    storage = open_storage(tmp_path / "g.sqlite3")
    with TestClient(create_app(storage, SeededDice(4), limits=LIMITS, clock=clock)) as c:
        yield c
    storage.close()


def test_a_settled_server_runs_no_full_collection_by_itself():
    # In a process of its own: settling changes the collector for the whole process.
    script = textwrap.dedent("""
        import gc
        from table.server.edge.memory import settle_memory
        settle_memory()
        passes = [0, 0, 0]
        gc.callbacks.append(lambda phase, info: phase == "stop" and passes.__setitem__(
            info["generation"], passes[info["generation"]] + 1))
        kept = []
        for i in range(1_500_000):  # objects that stay (the rooms' under load) and their garbage
            kept.append([])
            [i]
        print(passes)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    young, middle, full = eval(out.stdout)
    assert young > 100 and middle > 10  # the young generations are still collected ...
    assert full == 0  # ... the oldest only when asked


def test_the_sweep_collects_fully_at_least_every_few_minutes_even_under_load(client, clock, monkeypatch):
    given: list[int] = []
    rooms = client.app.state.rooms
    monkeypatch.setattr("table.server.play.rooms.give_back_memory", lambda: given.append(len(rooms)))
    games = [client.post("/api/games", json={"mode": "local", "length": 1}).json() for _ in range(3)]
    clock.now += FULL_COLLECTION_SECONDS - 1
    assert rooms.sweep() == [] and given == []  # the rooms stay in use: no collection yet
    clock.now += 1
    assert rooms.sweep() == [] and given == [3]  # ... but the collector is never left off for long
    clock.now += FULL_COLLECTION_SECONDS / 2
    assert rooms.sweep() == [] and given == [3]
    assert len(games) == 3


def test_a_forgotten_room_leaves_memory(client, clock):
    rooms = client.app.state.rooms
    g = client.post("/api/games", json={"mode": "local", "length": 1}).json()
    finish(client, g)
    room = weakref.ref(rooms._rooms[g["game"]])
    game = weakref.ref(rooms._rooms[g["game"]].game)
    clock.now += LIMITS.room_idle_seconds
    assert rooms.sweep() == [g["game"]]
    gc.collect()
    assert room() is None and game() is None
