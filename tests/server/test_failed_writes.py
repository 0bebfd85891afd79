"""A change that cannot be stored does not happen; storage never holds up the other rooms."""

from __future__ import annotations

import threading
import time

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.store import open_storage

from tests.server.server_helpers import FlakyStorage, TestClient, auth, first_path
from tests.server.test_api import act, to_move


@pytest.fixture
def flaky(db):
    storage = FlakyStorage(open_storage(db))
    yield storage
    storage.close()


@pytest.fixture
def client(flaky):
    with TestClient(create_app(flaky, SeededDice(11), limits=Limits(games_burst=1000))) as c:
        yield c


def stored_log(flaky, game):
    return flaky.inner.load(game)[2]


def test_a_move_that_cannot_be_stored_is_refused_and_nobody_hears_of_it(client, flaky):
    g = client.post("/api/games", json={"mode": "local", "length": 3}).json()
    game, token = g["game"], g["token"]
    s = to_move(client, game, token)
    with client.websocket_connect(f"/ws/games/{game}") as watcher:
        watcher.send_json({"type": "hello"})
        assert watcher.receive_json()["version"] == s["version"]
        flaky.fail_seqs = {s["version"]}
        move = {"type": "move", "steps": first_path(s["view"]["moves"])}
        r = act(client, game, token, s["version"], move)
        assert r.status_code == 503
        assert r.json()["code"] == "storage_failed" and "did not happen" in r.json()["message"]
        after = client.get(f"/api/games/{game}", headers=auth(token)).json()
        assert after == s
        assert len(stored_log(flaky, game)) == s["version"]
        # The same move again is stored, and it is the first thing the watcher hears.
        r = act(client, game, token, s["version"], move)
        assert r.status_code == 200 and r.json()["version"] == s["version"] + 1
        seen = watcher.receive_json()
        assert seen["version"] == s["version"] + 1 and seen["view"]["last"] == r.json()["view"]["last"]
    assert len(stored_log(flaky, game)) == s["version"] + 1


def test_a_roll_that_cannot_be_stored_leaves_the_dice_unrolled(client, flaky):
    g = client.post("/api/games", json={"mode": "local", "length": 3}).json()
    game, token = g["game"], g["token"]
    s = to_move(client, game, token)
    s = act(client, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])}).json()
    assert s["view"]["phase"] == "roll"
    flaky.fail_seqs = {s["version"]}
    r = act(client, game, token, s["version"], {"type": "roll"})
    assert r.status_code == 503
    assert client.get(f"/api/games/{game}", headers=auth(token)).json() == s


def test_when_the_computers_move_cannot_be_stored_the_game_waits_then_goes_on(client, flaky):
    g = client.post("/api/games", json={"mode": "computer", "level": "easy", "cube": False}).json()
    game, token = g["game"], g["token"]
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    if s["view"]["phase"] == "roll":
        s = act(client, game, token, s["version"], {"type": "roll"}).json()
    assert s["view"]["to_act"] == 0
    flaky.fail_seqs = {s["version"] + 1}  # the person's move is stored, the server's next step is not
    r = act(client, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])})
    assert r.status_code == 200
    waiting = r.json()
    assert waiting["version"] == s["version"] + 1 == len(stored_log(flaky, game))
    assert waiting["view"]["to_act"] == 1
    # The next request finds the server's step undone and takes it.
    later = client.get(f"/api/games/{game}", headers=auth(token)).json()
    assert later["version"] > waiting["version"] and later["version"] == len(stored_log(flaky, game))
    assert later["view"]["last"]["seat"] == 1 or later["view"]["over"]


def test_a_new_game_that_cannot_be_stored_is_refused(client, flaky, monkeypatch):
    def fail(*args):
        raise OSError("the disk is gone")

    monkeypatch.setattr(flaky.inner, "create", fail)
    r = client.post("/api/games", json={"mode": "local"})
    assert r.status_code == 503 and r.json()["code"] == "storage_failed"
    assert len(client.app.state.rooms) == 0


def test_a_slow_write_holds_up_only_its_own_room(client, flaky):
    games = [client.post("/api/games", json={"mode": "local", "length": 3}).json() for _ in range(2)]
    slow, fast = games
    s = to_move(client, slow["game"], slow["token"])
    flaky.delay = 0.8
    done = []

    def move_slowly():
        done.append(act(client, slow["game"], slow["token"], s["version"],
                        {"type": "move", "steps": first_path(s["view"]["moves"])}).status_code)

    mover = threading.Thread(target=move_slowly)
    mover.start()
    assert flaky.appending.wait(5)
    start = time.perf_counter()
    r = client.get(f"/api/games/{fast['game']}", headers=auth(fast["token"]))
    elapsed = time.perf_counter() - start
    mover.join()
    assert r.status_code == 200 and done == [200]
    assert elapsed < 0.4, f"a read of another room waited {elapsed:.2f} s for a write"


def test_a_write_that_failed_after_it_was_made_counts(client, flaky):
    """The game follows what storage holds: the move was stored, so it happened and everyone hears of it."""
    g = client.post("/api/games", json={"mode": "local", "length": 3}).json()
    game, token = g["game"], g["token"]
    s = to_move(client, game, token)
    flaky.fail_seqs, flaky.fail_after = {s["version"]}, True
    with client.websocket_connect(f"/ws/games/{game}") as watcher:
        watcher.send_json({"type": "hello"})
        watcher.receive_json()
        r = act(client, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])})
        assert r.status_code == 200 and r.json()["version"] == s["version"] + 1
        assert watcher.receive_json()["version"] == s["version"] + 1
    assert len(stored_log(flaky, game)) == s["version"] + 1
