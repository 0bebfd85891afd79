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
