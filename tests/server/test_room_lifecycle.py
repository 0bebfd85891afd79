"""Rooms leave memory when nobody needs them and come back from storage just as they were."""

from __future__ import annotations

import time

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.store import open_storage

from tests.server.server_helpers import FakeClock, TestClient, auth
from tests.server.test_api import act, to_move


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def client(tmp_path, clock):
    storage = open_storage(tmp_path / "g.sqlite3")
    limits = Limits(games_burst=100, room_idle_seconds=600, room_finished_seconds=30)
    with TestClient(create_app(storage, SeededDice(4), limits=limits, clock=clock)) as c:
        yield c
    storage.close()


def finish(client, g):
    """End a single game at once: its player resigns and (holding both seats) accepts."""
    s = to_move(client, g["game"], g["token"])
    s = act(client, g["game"], g["token"], s["version"], {"type": "resign", "level": 1}).json()
    s = act(client, g["game"], g["token"], s["version"], {"type": "accept_resignation"}).json()
    assert s["view"]["over"]
    return s


def left(rooms, game_id):
    """Wait until the server has seen every watcher of ``game_id`` go."""
    deadline = time.monotonic() + 5
    while rooms._rooms[game_id].watchers:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_finished_and_idle_rooms_leave_memory(client, clock):
    rooms = client.app.state.rooms
    start = len(rooms)
    games = [client.post("/api/games", json={"mode": "local", "length": 1}).json() for _ in range(3)]
    assert len(rooms) == start + 3
    for g in games[:2]:
        finish(client, g)
    with client.websocket_connect(f"/ws/games/{games[1]['game']}") as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        clock.now += 30
        assert rooms.sweep() == [games[0]["game"]]  # finished, nobody watching
    left(rooms, games[1]["game"])
    clock.now += 30
    assert rooms.sweep() == [games[1]["game"]]  # its last watcher has gone
    assert len(rooms) == start + 1
    clock.now = 599  # the third room was last used at 0
    assert rooms.sweep() == []  # not over, and not idle long enough yet
    clock.now += 1
    assert rooms.sweep() == [games[2]["game"]]
    assert len(rooms) == start


def test_an_evicted_game_comes_back_exactly(client, clock):
    rooms = client.app.state.rooms
    g = client.post("/api/games", json={"mode": "local", "length": 3}).json()
    s = to_move(client, g["game"], g["token"])
    before = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    spectator = client.get(f"/api/games/{g['game']}").json()
    clock.now += 600
    assert rooms.sweep() == [g["game"]] and len(rooms) == 0
    after = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    assert after == before and after["version"] == s["version"]
    assert client.get(f"/api/games/{g['game']}").json() == spectator
    assert len(rooms) == 1
    # And play goes on from there.
    r = act(client, g["game"], g["token"], s["version"], {"type": "resign", "level": 1})
    assert r.status_code == 200 and r.json()["version"] == s["version"] + 1


def test_a_room_in_use_is_kept(client, clock):
    rooms = client.app.state.rooms
    g = client.post("/api/games", json={"mode": "local", "length": 3}).json()
    clock.now += 500
    client.get(f"/api/games/{g['game']}")  # a visit counts as activity
    clock.now += 500
    assert rooms.sweep() == []
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_json({"type": "ping"})  # connected, not (yet) watching
        ws.receive_json()
        clock.now += 10_000
        assert rooms.sweep() == []
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        clock.now += 10_000
        assert rooms.sweep() == []
    left(rooms, g["game"])
    clock.now += 600
    assert rooms.sweep() == [g["game"]]
