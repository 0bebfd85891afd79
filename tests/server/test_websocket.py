"""WebSocket play: hello, actions, events with versions to every watcher, clear errors."""

from __future__ import annotations

from tests.server.server_helpers import first_path


def new_local(client, **settings):
    r = client.post("/api/games", json={"mode": "local", "length": 3, **settings})
    assert r.status_code == 201
    return r.json()


def test_hello_then_play_and_every_watcher_hears_it(client):
    g = new_local(client)
    with client.websocket_connect(f"/ws/games/{g['game']}") as player, \
            client.websocket_connect(f"/ws/games/{g['game']}") as watcher:
        player.send_json({"type": "hello", "token": g["token"]})
        s = player.receive_json()
        assert s["type"] == "state" and s["seats"] == [0, 1] and s["version"] == g["version"]
        watcher.send_json({"type": "hello"})
        w = watcher.receive_json()
        assert w["seats"] == [] and w["view"]["moves"] is None
        if s["view"]["phase"] == "roll":
            player.send_json({"type": "action", "version": s["version"], "action": {"type": "roll"}})
            s = player.receive_json()
            assert watcher.receive_json()["version"] == s["version"]
        player.send_json({"type": "action", "version": s["version"],
                          "action": {"type": "move", "steps": first_path(s["view"]["moves"])}})
        after = player.receive_json()
        seen = watcher.receive_json()
        assert after["version"] == s["version"] + 1 == seen["version"]
        assert seen["view"]["last"] == after["view"]["last"] and seen["view"]["actions"] == []


def test_bad_messages_get_errors_and_change_nothing(client):
    g = new_local(client)
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_text("{not json")
        e = ws.receive_json()
        assert e["type"] == "error" and "not valid JSON" in e["message"]
        ws.send_json({"type": "action", "version": 0, "action": {"type": "roll"}})
        e = ws.receive_json()
        assert e["code"] == "bad_token" and "hello" in e["message"]
        ws.send_json({"type": "hello", "token": "wrong"})
        assert ws.receive_json()["code"] == "bad_token"
        ws.send_json({"type": "hello", "token": g["token"]})
        s = ws.receive_json()
        ws.send_json({"type": "dance"})
        assert "unknown message type" in ws.receive_json()["message"]
        ws.send_json({"type": "action", "version": s["version"] + 5, "action": {"type": "roll"}})
        e = ws.receive_json()
        assert e["code"] == "stale" and e["version"] == s["version"]
        ws.send_json({"type": "action", "version": s["version"], "action": {"type": "take"}})
        e = ws.receive_json()
        assert e["code"] == "illegal" and e["version"] == s["version"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong", "version": s["version"]}


def test_unknown_game_closes_with_an_error(client):
    with client.websocket_connect("/ws/games/nope") as ws:
        e = ws.receive_json()
        assert e["code"] == "not_found"


def test_a_returning_watcher_gets_what_it_missed(client):
    g = new_local(client)
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        s = ws.receive_json()
        if s["view"]["phase"] == "roll":
            ws.send_json({"type": "action", "version": s["version"], "action": {"type": "roll"}})
            s = ws.receive_json()
        ws.send_json({"type": "action", "version": s["version"],
                      "action": {"type": "move", "steps": first_path(s["view"]["moves"])}})
        s = ws.receive_json()
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_json({"type": "hello", "since": 1})
        events = ws.receive_json()
        assert events["type"] == "events" and events["from"] == 1 and events["version"] == s["version"]
        assert len(events["entries"]) == s["version"] - 1
        assert events["entries"][-1]["type"] == "move"
        assert events["entries"][-1]["play"] == s["view"]["last"]["play"]
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "hello", "since": s["version"] + 1})
        assert "since must be" in ws.receive_json()["message"]
