"""Players who go away: the advice a refused claim gives on your own turn (issue 48, 2.3), and
matches that both players left (issue 48, 2.7)."""

from __future__ import annotations

from tests.server.server_helpers import auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import hello, site  # noqa: F401 - fixture


def test_a_refused_claim_on_your_own_turn_says_to_play_on(site):
    ana, ion, table = site.match(clock="tournament")
    tokens = {0: ana, 1: ion}
    state = site.c.get(f"/api/games/{table['game']}").json()
    on_turn = state["view"]["to_act"]
    assert on_turn in (0, 1)
    # The player on turn stays, the other has gone (nobody connected since the start).
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as ws:
        hello(ws, tokens[on_turn])
        site.now.now += 30
        r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(tokens[on_turn]))
        assert (r.status_code, r.json()["code"]) == (409, "cannot_claim")
        assert "play on" in r.json()["message"] and "60 s more" in r.json()["message"]
    # Off turn, waiting costs nothing: the refusal only says how long is left.
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as ws:
        hello(ws, tokens[1 - on_turn])
        r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(tokens[1 - on_turn]))
        assert r.json()["code"] == "cannot_claim" and "play on" not in r.json()["message"]


def _listed(site):
    return [t["id"] for t in site.c.get("/api/tables").json()["playing"]]


def test_a_match_both_players_left_leaves_the_lobby_until_one_returns(site):
    ana, ion, table = site.match(clock="relaxed")
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as a, \
            site.c.websocket_connect(f"/ws/games/{table['game']}") as i:
        hello(a, ana)
        hello(i, ion)
        site.now.now += 60  # (the relaxed clock's first decision runs out after 195 s)
        assert _listed(site) == [table["id"]]  # both at the table, however long they think
    # Both gone: still listed while either might just be reloading the page...
    site.now.now += 89
    assert _listed(site) == [table["id"]]
    # ...no longer once both have been away 90 s (it was listed until a restart before).
    site.now.now += 1
    assert _listed(site) == []
    # The match goes on: its players still find it, and it is listed again when one comes back.
    assert [t["id"] for t in site.c.get("/api/me", headers=auth(ana)).json()["tables"]] == [table["id"]]
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as a:
        hello(a, ana)
        assert _listed(site) == [table["id"]]


def test_the_lobby_socket_hears_when_a_left_match_comes_back(site):
    ana, ion, table = site.match(clock="relaxed")
    site.now.now += 90  # nobody ever opened it
    with site.c.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json()["playing"] == []
        with site.c.websocket_connect(f"/ws/games/{table['game']}") as i:
            hello(i, ion)
            assert [t["id"] for t in lobby.receive_json()["playing"]] == [table["id"]]


def test_a_turn_based_match_stays_listed_with_nobody_at_it(site):
    ana, ion, table = site.match(clock="days3")
    site.now.now += 3600
    assert _listed(site) == [table["id"]]
