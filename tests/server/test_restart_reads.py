"""A restarted server as every client comes back at once (issue 52, 8): a room loads with two
reads, a visit noted lately is not written again, and sockets open a few at a time while the
games already open go on."""

from __future__ import annotations

import asyncio
import contextlib
import traceback
from contextlib import ExitStack

from table.server.online.guests import SEEN_EVERY
from table.server.play import rooms as rooms_module

from tests.server.server_helpers import TestClient, auth
from tests.server.test_online_tables import Site, act, hello, make_site, receive


def counting(storage, monkeypatch):
    """The storage's transactions from now on, each as the name of the storage method that made it."""
    calls = []
    real = storage._tx

    @contextlib.contextmanager
    def tx(*args, **kwargs):
        calls.append(next(f.name for f in traceback.extract_stack()
                          if "table/server/store/" in f.filename.replace("\\", "/")))
        with real(*args, **kwargs) as conn:
            yield conn

    monkeypatch.setattr(storage, "_tx", tx)
    return calls


def test_after_a_restart_a_visit_noted_lately_is_not_written_again(tmp_path, monkeypatch):
    storage, now, _, app = make_site(tmp_path / "x.sqlite3")
    with TestClient(app()) as c:
        ana = c.post("/api/guests", json={"name": "Ana"}).json()["token"]
    now.now += SEEN_EVERY / 2
    written = []
    real = storage.touch_player
    monkeypatch.setattr(storage, "touch_player", lambda *a, **k: (written.append(a), real(*a, **k)))
    with TestClient(app()) as c:  # the same database, a new server
        assert c.get("/api/me", headers=auth(ana)).status_code == 200
        assert written == []  # made SEEN_EVERY / 2 ago: still fresh
        now.now += SEEN_EVERY
        assert c.get("/api/me", headers=auth(ana)).status_code == 200
        assert len(written) == 1
        seen = storage.player_by_token_hash(storage.token_hash(written[0][0])).last_seen  # noted now
        assert seen == now.now
    storage.close()


def test_after_a_restart_a_room_loads_with_two_reads_and_a_hello_with_two_more(tmp_path, monkeypatch):
    storage, now, _, app = make_site(tmp_path / "x.sqlite3")
    with TestClient(app()) as c:
        ana, ion = (c.post("/api/guests", json={"name": n}).json()["token"] for n in ("Ana", "Ion"))
        table = c.post("/api/tables", json={"length": 3, "clock": "untimed"}, headers=auth(ana)).json()["table"]
        game = c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]["game"]
    calls = counting(storage, monkeypatch)
    with TestClient(app()) as c, c.websocket_connect(f"/ws/games/{game}") as ws:
        state = hello(ws, ana)
        history = receive(ws, "chat_history")
    # The room (loaded as the server starts, its match being under way): the game and its log; the
    # table, players, points, clock and ledger.  The hello: the token's player and the chat (no
    # write: Ana was seen a moment ago).  (The server's own rounds read the tables and clocks.)
    assert sorted(c for c in calls if c not in ("site_value", "set_site_value", "list_tables", "expired_clocks")) \
        == ["chat_messages", "load", "player_by_token_hash", "table_room"]
    assert [p["name"] for p in state["view"]["table"]["players"]] == ["Ana", "Ion"] and history["messages"] == []
    storage.close()


def test_sockets_open_a_few_at_a_time_and_the_open_games_move_meanwhile(tmp_path, monkeypatch):
    monkeypatch.setattr(rooms_module, "GREETING", 3)
    storage, now, clock, app = make_site(tmp_path / "x.sqlite3")
    with TestClient(app()) as c, ExitStack() as stack:
        ana, ion, table = Site(c, storage, now, clock).match()
        game = table["game"]
        a, i = (stack.enter_context(c.websocket_connect(f"/ws/games/{game}")) for _ in range(2))
        states = {a: hello(a, ana), i: hello(i, ion)}
        online = c.app.state.online
        real, entered, gate = online.maybe_player, [], asyncio.Event()

        async def held(token):
            entered.append(token)
            await gate.wait()  # a slow read of the token's player
            return await real(token)

        monkeypatch.setattr(online, "maybe_player", held)
        coming = [stack.enter_context(c.websocket_connect(f"/ws/games/{game}")) for _ in range(6)]
        for n, ws in enumerate(coming):
            ws.send_json({"type": "hello", "token": f"not-a-guest-{n}"})
        mover = next(ws for ws, s in states.items() if s["view"]["actions"])
        act(mover, states[mover])
        assert receive(a, "state")["version"] == receive(i, "state")["version"] > states[a]["version"]
        assert len(entered) == 3  # the other three wait their turn
        c.portal.call(gate.set)
        assert all(receive(ws, "state")["version"] >= states[a]["version"] for ws in coming)
        assert len(entered) == 6
    storage.close()
