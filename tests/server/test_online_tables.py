"""Online tables over HTTP and the game WebSocket: guests, tables, spectators, chat, presence, clocks, points."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack, contextmanager

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.client import choose
from table.server.edge.limits import Limits
from table.server.edge.outbox import Outbox
from table.server.play.rooms import Watcher
from table.server.protocol import Pong
from table.server.store import StorageError, open_storage

from tests.server.server_helpers import FakeClock, TestClient, auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture

START = 1_000_000.0


class Site:
    """A test client of an app with online tables, a fake wall clock (``now``) and a fake rate clock."""

    def __init__(self, client, storage, now, clock):
        self.c, self.storage, self.now, self.clock = client, storage, now, clock

    def guest(self, name, bot=False):
        r = self.c.post("/api/guests", json={"name": name, "bot": bot})
        assert r.status_code == 201, r.json()
        return r.json()["token"]

    def table(self, token, **settings):
        r = self.c.post("/api/tables", json=settings, headers=auth(token))
        assert r.status_code == 201, r.json()
        return r.json()["table"]

    def match(self, **settings):
        """Ana creates, Ion joins: their tokens, the table and the game id."""
        ana, ion = self.guest("Ana"), self.guest("Ion")
        table = self.table(ana, **settings)
        r = self.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))
        assert r.status_code == 200, r.json()
        return ana, ion, r.json()["table"]

    def check(self):
        self.c.portal.call(self.c.app.state.online.check_all)


def make_site(db, limits=Limits(games_burst=10**6), seed=7):
    storage = open_storage(db)
    now, clock = FakeClock(START), FakeClock(0.0)
    return storage, now, clock, lambda: create_app(storage, SeededDice(seed), limits=limits, clock=clock, now=now)


@pytest.fixture
def site(where):
    """The app on SQLite, and on PostgreSQL too when TABLE_TEST_POSTGRES_URL is set."""
    storage, now, clock, app = make_site(where)
    with TestClient(app()) as c:
        yield Site(c, storage, now, clock)
    storage.close()


@contextmanager
def four_watchers(site):
    """A match between Ana and Ion, and four sockets on it: Ana's, Ion's, guest Dan's and an anonymous one."""
    ana, ion, table = site.match()
    dan = site.guest("Dan")
    site.game = table["game"]
    with ExitStack() as stack:
        sockets = [stack.enter_context(site.c.websocket_connect(f"/ws/games/{site.game}")) for _ in range(4)]
        yield (ana, ion, dan, *sockets)


def receive(ws, kind):
    """The next message of type ``kind`` (skipping others)."""
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m


def hello(ws, token=None, since=None):
    msg = {"type": "hello"}
    if token:
        msg["token"] = token
    if since is not None:
        msg["since"] = since
    ws.send_json(msg)
    return receive(ws, "state")


def act(ws, state):
    """Make the bot's decision for the seat to act in ``state``; return the action sent."""
    view = state["view"]
    action = choose(view, view["to_act"], "easy", state["config"]["cube"])
    ws.send_json({"type": "action", "version": state["version"], "action": action})
    return action


# Guests and players ------------------------------------------------------------------------------


def test_a_guest_gets_a_token_and_names_follow_the_rules(site):
    r = site.c.post("/api/guests", json={"name": "Ștefan"})
    assert r.status_code == 201
    body = r.json()
    assert body["player"] == {"name": "Ștefan", "points": 0, "bot": False} and len(body["token"]) >= 40
    me = site.c.get("/api/me", headers=auth(body["token"])).json()
    assert me == {"player": {"name": "Ștefan", "points": 0, "bot": False}, "tables": [], "waiting": 0}
    for name, status, code in [("stefan", 409, "taken"), ("S", 400, "length"), ("Ana Maria", 400, "characters"),
                               ("Calculatorul", 400, "reserved"), ("C0mputer", 400, "reserved")]:
        r = site.c.post("/api/guests", json={"name": name})
        assert (r.status_code, r.json()["code"]) == (status, code), name
    for bad in [{"nume": "Ana"}, {"name": "Ana", "bot": "yes"}, ["Ana"]]:
        assert site.c.post("/api/guests", json=bad).json()["code"] == "bad_request"
    assert site.c.post("/api/guests", json={"name": "Robo", "bot": True}).json()["player"]["bot"] is True


def test_me_needs_a_guests_token(site):
    assert site.c.get("/api/me").json()["code"] == "no_token"
    r = site.c.get("/api/me", headers=auth("not-a-token"))
    assert (r.status_code, r.json()["code"]) == (403, "bad_token")
    assert site.c.get("/api/players/nobody").status_code == 404


def test_new_guests_are_rate_limited_per_address(tmp_path):
    storage, now, clock, app = make_site(tmp_path / "x.sqlite3", Limits(guests_burst=2, guests_per_minute=1))
    with TestClient(app()) as c:
        assert [c.post("/api/guests", json={"name": f"P{i}x"}).status_code for i in range(3)] == [201, 201, 429]
        r = c.post("/api/guests", json={"name": "P9x"})
        assert r.json()["code"] == "rate_limited" and int(r.headers["retry-after"]) > 0
        clock.now += 61
        assert c.post("/api/guests", json={"name": "P9x"}).status_code == 201
    storage.close()


# Tables ------------------------------------------------------------------------------------------


def test_a_table_is_listed_joined_and_played(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, length=5, cube=False, clock="rapid")
    assert table["status"] == "open" and table["players"] == [{"name": "Ana", "points": 0, "bot": False}, None]
    assert (table["length"], table["cube"], table["clock"], table["private"], table["invite"]) == (5, False, "rapid",
                                                                                                  False, None)
    lobby = site.c.get("/api/tables").json()
    assert [t["id"] for t in lobby["open"]] == [table["id"]] and lobby["playing"] == [] and lobby["now"] == START
    assert site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ana)).json()["code"] == "already_seated"
    assert site.c.post(f"/api/tables/{table['id']}/join").json()["code"] == "no_token"
    joined = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]
    assert joined["status"] == "playing" and joined["game"] and joined["players"][1]["name"] == "Ion"
    third = site.guest("Dan")
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(third))
    assert (r.status_code, r.json()["code"]) == (409, "not_open")
    lobby = site.c.get("/api/tables").json()
    assert lobby["open"] == [] and [t["id"] for t in lobby["playing"]] == [table["id"]]
    state = site.c.get(f"/api/games/{joined['game']}", headers=auth(ana)).json()
    assert state["seats"] == [0] and state["config"]["mode"] == "online" and state["config"]["names"] == ["Ana", "Ion"]
    assert state["view"]["table"]["id"] == table["id"] and state["view"]["clock"]["preset"] == "rapid"
    assert site.c.get("/api/me", headers=auth(ion)).json()["tables"][0]["game"] == joined["game"]


def test_bad_table_settings_are_refused(site):
    ana = site.guest("Ana")
    for bad in [{"length": 4}, {"clock": "blitz"}, {"cube": "yes"}, {"colour": "red"}]:
        r = site.c.post("/api/tables", json=bad, headers=auth(ana))
        assert (r.status_code, r.json()["code"]) == (400, "bad_request"), bad
    assert site.c.get("/api/tables").json()["open"] == []
    assert site.c.post("/api/tables/x/dance", headers=auth(ana)).status_code == 404
    assert site.c.post("/api/games", json={"mode": "online"}).status_code == 400  # only a table makes one


def test_the_creator_withdraws_an_open_table(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana)
    r = site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion))
    assert (r.status_code, r.json()["code"]) == (403, "not_seated")
    left = site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ana)).json()["table"]
    assert left["status"] == "abandoned" and site.c.get("/api/tables").json()["open"] == []
    assert site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["code"] == "not_open"


def test_a_private_table_is_joined_by_its_invite_code_only(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, private=True)
    invite = table["invite"]
    assert invite and site.c.get("/api/tables").json()["open"] == []
    assert site.c.get(f"/api/tables/{table['id']}").status_code == 404
    assert site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["code"] == "not_found"
    shown = site.c.get(f"/api/tables/{invite}").json()["table"]
    assert shown["players"][0]["name"] == "Ana" and "invite" not in shown
    assert site.c.get("/api/me", headers=auth(ana)).json()["tables"][0]["invite"] == invite
    joined = site.c.post(f"/api/tables/{invite}/join", headers=auth(ion)).json()["table"]
    assert joined["status"] == "playing" and joined["private"] and site.c.get("/api/tables").json()["playing"] == []


# Spectators ----------------------------------------------------------------------------------------


def test_a_spectator_sees_every_move_and_cannot_act(site):
    with four_watchers(site) as (ana, ion, dan, a, i, d, anon):
        sa, si = hello(a, ana), hello(i, ion)
        watch = hello(anon)
        guest_watch = hello(d, dan)  # a guest's token that holds no seat: a spectator, not an error
        assert watch["seats"] == guest_watch["seats"] == [] and watch["view"]["actions"] == []
        assert watch["view"]["moves"] is None and watch["version"] == sa["version"]
        mover, state = (a, sa) if sa["view"]["to_act"] == 0 else (i, si)
        assert state["view"]["actions"]
        anon.send_json({"type": "action", "version": watch["version"], "action": {"type": "roll"}})
        assert receive(anon, "error")["code"] == "not_your_turn"
        act(mover, state)
        seen = receive(anon, "state")
        assert seen["version"] > watch["version"] and seen["view"]["last"] is not None
        assert seen["view"]["actions"] == [] and receive(d, "state")["version"] == seen["version"]


# Chat ------------------------------------------------------------------------------------------------


def test_chat_reaches_its_channel_only(site):
    with four_watchers(site) as (ana, ion, dan, a, i, d, anon):
        for ws, token in [(a, ana), (i, ion), (d, dan), (anon, None)]:
            hello(ws, token)
            assert receive(ws, "chat_history")["messages"] == []
        a.send_json({"type": "chat", "channel": "players", "text": "Bună! <b>hi</b>"})
        got = receive(i, "chat")
        assert (got["from"], got["text"], got["channel"]) == ("Ana", "Bună! <b>hi</b>", "players")
        assert receive(a, "chat")["id"] == got["id"]
        d.send_json({"type": "chat", "channel": "spectators", "text": "Joc frumos!"})
        assert receive(anon, "chat")["text"] == "Joc frumos!"
        assert receive(d, "chat")["from"] == "Dan"
        # Nobody got the other channel's message: the next chat each one gets is of its own channel.
        i.send_json({"type": "chat", "channel": "players", "text": "Mulțumesc!"})
        d.send_json({"type": "chat", "channel": "spectators", "text": "again"})
        assert receive(a, "chat")["text"] == "Mulțumesc!" and receive(anon, "chat")["text"] == "again"
        for ws, msg, code in [
                (a, {"type": "chat", "channel": "spectators", "text": "psst"}, "bad_request"),
                (d, {"type": "chat", "channel": "players", "text": "psst"}, "bad_request"),
                (anon, {"type": "chat", "channel": "spectators", "text": "hi"}, "no_token"),
                (a, {"type": "chat", "channel": "players", "text": "x" * 201}, "bad_request"),
                (a, {"type": "chat", "channel": "players", "text": "   "}, "bad_request"),
                (a, {"type": "chat", "channel": "players", "text": "a\u0007b"}, "bad_request")]:
            ws.send_json(msg)
            assert receive(ws, "error")["code"] == code, msg
    with site.c.websocket_connect(f"/ws/games/{site.game}") as i:
        hello(i, ion)
        history = receive(i, "chat_history")
        assert [m["text"] for m in history["messages"]] == ["Bună! <b>hi</b>", "Mulțumesc!"]


def test_chat_is_rate_limited_per_player(tmp_path):
    storage, now, clock, app = make_site(tmp_path / "x.sqlite3", Limits(chat_burst=2, chat_per_second=0.5))
    with TestClient(app()) as c:
        site = Site(c, storage, now, clock)
        ana, _, table = site.match()
        with c.websocket_connect(f"/ws/games/{table['game']}") as a:
            hello(a, ana)
            for n in range(3):
                a.send_json({"type": "chat", "channel": "players", "text": f"m{n}"})
            assert receive(a, "chat")["text"] == "m0" and receive(a, "chat")["text"] == "m1"
            assert receive(a, "error")["code"] == "rate_limited"
            clock.now += 2
            a.send_json({"type": "chat", "channel": "players", "text": "later"})
            assert receive(a, "chat")["text"] == "later"
    storage.close()


def test_chat_is_for_online_games_only(site):
    g = site.c.post("/api/games", json={"mode": "local"}).json()
    with site.c.websocket_connect(f"/ws/games/{g['game']}") as ws:
        hello(ws, g["token"])
        ws.send_json({"type": "chat", "channel": "players", "text": "hi"})
        assert receive(ws, "error")["code"] == "not_online"


# Presence, leaving, claims ---------------------------------------------------------------------------


def test_the_opponent_sees_a_disconnect_and_may_claim_after_90_seconds(site):
    ana, ion, table = site.match()
    game = table["game"]
    with site.c.websocket_connect(f"/ws/games/{game}") as a:
        first = hello(a, ana)
        assert first["view"]["presence"][0] == {"connected": True, "away_since": None}
        # The chat history follows the state; read it now, or it may come after Ion's presence.
        receive(a, "chat_history")
        with site.c.websocket_connect(f"/ws/games/{game}") as i:
            hello(i, ion)
            assert receive(a, "presence")["presence"][1] == {"connected": True, "away_since": None}
            hello(i, ion)  # a second hello on the same socket is no disconnect
            a.send_json({"type": "ping"})
            assert a.receive_json()["type"] == "pong"  # (no presence message came before it)
        site.now.now += 0  # Ion's socket closes at START
        gone = receive(a, "presence")
        assert gone["presence"][1] == {"connected": False, "away_since": START}
        site.now.now += 89
        r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ana))
        assert (r.status_code, r.json()["code"]) == (409, "cannot_claim") and "1 s more" in r.json()["message"]
        site.now.now += 1
        done = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ana)).json()["table"]
        assert done["status"] == "finished"
        end = receive(a, "state")
        assert end["view"]["over"] and end["view"]["winner"] == 0
        assert end["view"]["forfeit"] == {"seat": 1, "why": "away"}
        assert end["view"]["ledger"][-2:] == [{"seat": 1, "amount": -100, "reason": "left"},
                                               {"seat": 0, "amount": 0, "reason": "opponent-left"}]
    assert site.c.get("/api/players/ion").json()["points"] == -100
    assert site.c.get("/api/players/ana").json()["record"] == {"games": 1, "wins": 1, "losses": 0, "draws": 0}
    assert site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ana)).json()["code"] == "not_playing"


def test_a_present_opponent_cannot_be_claimed_against(site):
    ana, ion, table = site.match(clock="rapid")
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as i:
        hello(i, ion)
        site.now.now += 1000
        assert site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ana)).json()["code"] == "cannot_claim"


def test_leaving_a_game_in_progress_forfeits_it(site):
    ana, ion, table = site.match()
    r = site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion))
    assert r.status_code == 200 and r.json()["table"]["status"] == "finished"
    state = site.c.get(f"/api/games/{table['game']}", headers=auth(ana)).json()
    assert state["view"]["forfeit"] == {"seat": 1, "why": "left"} and state["view"]["actions"] == []
    lines = site.storage.ledger(game_id=table["game"])
    assert sorted((ln.amount, ln.reason) for ln in lines) == [(-100, "left"), (0, "opponent-left")]
    assert site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion)).json()["code"] == "not_playing"


def test_both_ask_for_a_rematch_and_play_with_seats_swapped(site):
    ana, ion, table = site.match(length=5, clock="rapid")
    assert site.c.post(f"/api/tables/{table['id']}/rematch", headers=auth(ana)).json()["code"] == "not_playing"
    site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ana))
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as i:
        hello(i, ion)
        assert site.c.post(f"/api/tables/{table['id']}/rematch", headers=auth(ana)).json() == {"rematch": "asked",
                                                                                               "table": None}
        assert receive(i, "rematch") == {"type": "rematch", "asked": [0]}
        again = site.c.post(f"/api/tables/{table['id']}/rematch", headers=auth(ion)).json()
        told = receive(i, "rematch")
    new = again["table"]
    assert again["rematch"] == "started" and new["status"] == "playing" and new["id"] != table["id"]
    assert [p["name"] for p in new["players"]] == ["Ion", "Ana"] and (new["length"], new["clock"]) == (5, "rapid")
    assert told == {"type": "rematch", "asked": [0, 1], "table": new["id"], "game": new["game"]}
    assert site.c.get(f"/api/games/{new['game']}", headers=auth(ana)).json()["seats"] == [1]


# Clocks ------------------------------------------------------------------------------------------------


def test_a_decision_costs_only_the_time_beyond_its_delay(site):
    ana, ion, table = site.match(clock="rapid", length=3)  # 8 s a decision, 60 s reserve each
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as a, \
            site.c.websocket_connect(f"/ws/games/{table['game']}") as i:
        states = [hello(a, ana), hello(i, ion)]
        seat = states[0]["view"]["to_act"]
        clock = states[seat]["view"]["clock"]
        assert clock["running"] == seat and clock["deadline"] == START + 8 + 60 and clock["now"] == START
        site.now.now += 10
        act([a, i][seat], states[seat])
        after = receive([a, i][1 - seat], "state")
        assert after["view"]["clock"]["reserve"][seat] == pytest.approx(58.0)
        assert after["view"]["clock"]["reserve"][1 - seat] == 60.0


def test_running_out_of_time_loses_the_match_with_minus_100(site):
    ana, ion, table = site.match(clock="rapid", length=1)  # 8 s + 20 s
    game = table["game"]
    state = site.c.get(f"/api/games/{game}", headers=auth(ana)).json()
    seat, deadline = state["view"]["clock"]["running"], state["view"]["clock"]["deadline"]
    assert deadline == START + 28
    site.now.now = deadline - 0.5
    site.check()
    assert not site.c.get(f"/api/games/{game}").json()["view"]["over"]
    site.now.now = deadline
    site.check()
    end = site.c.get(f"/api/games/{game}").json()["view"]
    assert end["over"] and end["forfeit"] == {"seat": seat, "why": "timeout"} and end["winner"] == 1 - seat
    assert end["table"]["status"] == "finished"
    names = ["ana", "ion"]
    assert site.c.get(f"/api/players/{names[seat]}").json()["recent"][0]["reason"] == "timeout"
    assert site.c.get(f"/api/players/{names[seat]}").json()["points"] == -100
    assert site.c.get(f"/api/players/{names[1 - seat]}").json()["points"] == 0
    assert site.storage.expired_clocks(site.now.now + 10**6) == []  # the clock stopped with the match


def test_an_untimed_table_is_claimed_after_ten_minutes_on_one_decision(site):
    ana, ion, table = site.match(clock="untimed")
    tokens = [ana, ion]
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as a, \
            site.c.websocket_connect(f"/ws/games/{table['game']}") as i:
        state = hello(a, ana)
        hello(i, ion)
        slow = state["view"]["clock"]["running"]
        site.now.now += 600
        site.check()  # an untimed clock never flags by itself
        assert not site.c.get(f"/api/games/{table['game']}").json()["view"]["over"]
        assert site.storage.expired_clocks(site.now.now + 10**6) == []  # nothing for the server to end
        r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(tokens[slow]))
        assert r.json()["code"] == "cannot_claim"  # nobody claims against their own clock
        r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(tokens[1 - slow]))
        assert r.status_code == 200
    view = site.c.get(f"/api/games/{table['game']}").json()["view"]
    assert view["forfeit"] == {"seat": slow, "why": "timeout"}


def test_a_restart_keeps_the_clock(tmp_path):
    storage, now, clock, app = make_site(tmp_path / "x.sqlite3")
    with TestClient(app()) as c:
        site = Site(c, storage, now, clock)
        ana, ion, table = site.match(clock="rapid", length=3)
        with c.websocket_connect(f"/ws/games/{table['game']}") as a, \
                c.websocket_connect(f"/ws/games/{table['game']}") as i:
            states = [hello(a, ana), hello(i, ion)]
            seat = states[0]["view"]["to_act"]
            now.now += 20
            act([a, i][seat], states[seat])  # 12 s of reserve used
            receive([a, i][1 - seat], "state")
        before = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
    assert before["reserve"][seat] == pytest.approx(48.0)
    now.now += 3600  # the server is down for an hour
    with TestClient(app()) as c:  # a new app on the same database: it loads the game at start-up
        after = c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
        assert after["running"] == before["running"] is not None
        assert after["reserve"] == before["reserve"]  # no grace (tests/server/test_clock_fairness.py)
        assert after["deadline"] == pytest.approx(now.now + 8 + after["reserve"][after["running"]])
        c.portal.call(c.app.state.online.check_all)
        assert not c.get(f"/api/games/{table['game']}").json()["view"]["over"]
    storage.close()


# Lobby ------------------------------------------------------------------------------------------------


def test_the_lobby_socket_pushes_changes(site):
    with site.c.websocket_connect("/ws/lobby") as lobby:
        first = lobby.receive_json()
        assert first["type"] == "lobby" and first["open"] == [] and first["playing"] == []
        table = site.table(site.guest("Ana"))
        pushed = lobby.receive_json()
        assert [t["id"] for t in pushed["open"]] == [table["id"]]
        lobby.send_json({"type": "ping"})
        assert lobby.receive_json() == {"type": "pong"}


def play_http(site, game, tokens, until):
    """Both players make the bot's decisions over HTTP until ``until(state)``; return that state."""
    state = site.c.get(f"/api/games/{game}").json()
    while not until(state):
        seat = state["view"]["to_act"]
        seat = 0 if seat is None else seat  # between games either player may start the next one
        mine = site.c.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
        action = choose(mine["view"], seat, "medium", mine["config"]["cube"])
        r = site.c.post(f"/api/games/{game}/actions", headers=auth(tokens[seat]),
                        json={"version": mine["version"], "action": action})
        assert r.status_code == 200, r.json()
        state = site.c.get(f"/api/games/{game}").json()
    return state


def test_the_server_starts_the_next_game_when_nobody_does(site):
    ana, ion, table = site.match(length=21, clock="relaxed")
    game = table["game"]
    over = play_http(site, game, [ana, ion], lambda s: s["view"]["phase"] == "game_over")
    assert over["view"]["clock"]["running"] is None and over["view"]["ledger"]
    posted = len(site.storage.ledger(game_id=game))
    site.now.now += 9
    site.check()
    assert site.c.get(f"/api/games/{game}").json()["view"]["phase"] == "game_over"
    site.now.now += 1
    site.check()
    state = site.c.get(f"/api/games/{game}").json()
    assert state["view"]["game_number"] == 2 and state["view"]["phase"] != "game_over"
    assert state["view"]["clock"]["running"] == state["view"]["to_act"] is not None
    assert len(site.storage.ledger(game_id=game)) == posted == 2  # one game, posted once


def test_a_move_that_cannot_be_stored_changes_neither_the_game_nor_the_clock(site, monkeypatch):
    ana, ion, table = site.match(clock="rapid")
    game, tokens = table["game"], [ana, ion]
    before = site.c.get(f"/api/games/{game}").json()
    seat = before["view"]["to_act"]
    real = site.storage.append_online_many

    def broken(*args, **kwargs):
        raise StorageError("the disk is full")

    monkeypatch.setattr(site.storage, "append_online_many", broken)
    site.now.now += 30
    mine = site.c.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
    action = choose(mine["view"], seat, "medium", True)
    r = site.c.post(f"/api/games/{game}/actions", headers=auth(tokens[seat]),
                    json={"version": mine["version"], "action": action})
    assert (r.status_code, r.json()["code"]) == (503, "storage_failed")
    after = site.c.get(f"/api/games/{game}").json()
    assert after["version"] == before["version"]
    assert after["view"]["clock"]["deadline"] == before["view"]["clock"]["deadline"]
    assert site.storage.load_clock(game)[1] == before["view"]["clock"]["deadline"]
    monkeypatch.setattr(site.storage, "append_online_many", real)
    r = site.c.post(f"/api/games/{game}/actions", headers=auth(tokens[seat]),
                    json={"version": mine["version"], "action": action})
    assert r.status_code == 200 and r.json()["view"]["clock"]["reserve"][seat] == pytest.approx(60 - 22)


def test_a_player_dropped_for_not_reading_is_away(site):
    ana, ion, table = site.match()

    async def scenario():
        room = await site.c.app.state.rooms.get(table["game"])

        async def never(_text):  # a reader that never takes anything
            await asyncio.sleep(3600)

        async def close(_code, _reason):
            pass

        outbox = Outbox(never, close, limit=4, timeout=3600)
        await room.watch(Watcher(outbox, frozenset({1})))
        seen = [p["connected"] for p in room.online.presence_list()]
        site.now.now += 5
        for _ in range(5):  # more than the outbox holds: the reader is dropped
            room.broadcast(Pong())  # any message will do
        return seen, room.online.presence_list()

    seen, after = site.c.portal.call(scenario)
    assert seen == [False, True]
    assert after[1] == {"connected": False, "away_since": START + 5}


def test_an_idle_untimed_game_leaves_memory_and_comes_back_with_its_clock(site):
    ana, ion, table = site.match(clock="untimed")
    rooms = site.c.app.state.rooms
    before = site.c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
    dan, eva = site.guest("Dan"), site.guest("Eva")
    other = site.table(dan, clock="rapid")
    game2 = site.c.post(f"/api/tables/{other['id']}/join", headers=auth(eva)).json()["table"]["game"]
    site.clock.now += 15 * 60 + 1
    gone = site.c.portal.call(rooms.sweep)
    assert sorted(gone) == sorted([table["game"], game2])  # nobody there: the timed one's deadline is stored
    site.now.now += 600
    after = site.c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
    assert after["deadline"] == before["deadline"] and after["running"] == before["running"]
    slow = after["running"]
    r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth([ana, ion][1 - slow]))
    assert r.status_code == 200  # ten minutes on one decision, across the room's absence
    site.check()  # the timed game's deadline passed meanwhile: the stored one ends it
    assert site.c.get(f"/api/games/{game2}").json()["view"]["forfeit"]["why"] == "timeout"
