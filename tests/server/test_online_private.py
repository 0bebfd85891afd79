"""Every table action works at a private table, by its id (as the game names it) and by its
invitation code; a stranger learns nothing from the id (issue 48, 2.2)."""

from __future__ import annotations

import pytest

from tests.server.server_helpers import auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import hello, receive, site  # noqa: F401 - fixture


def private_match(site, **settings):
    """Ana creates a private table, Ion joins by its invitation: tokens, the table (with invite)."""
    ana, ion = site.guest("Ana"), site.guest("Ion")
    created = site.table(ana, private=True, **settings)
    joined = site.c.post(f"/api/tables/{created['invite']}/join", headers=auth(ion))
    assert joined.status_code == 200, joined.json()
    return ana, ion, {**joined.json()["table"], "invite": created["invite"]}


def post(site, key, action, token):
    return site.c.post(f"/api/tables/{key}/{action}", headers=auth(token))


@pytest.mark.parametrize("by", ["id", "invite"])
def test_the_creator_withdraws_a_private_table(site, by):
    ana = site.guest("Ana")
    table = site.table(ana, private=True)
    r = post(site, table[by], "leave", ana)
    assert r.status_code == 200, r.json()
    assert r.json()["table"]["status"] == "abandoned"
    assert site.c.get("/api/me", headers=auth(ana)).json()["tables"] == []


@pytest.mark.parametrize("by", ["id", "invite"])
def test_leaving_a_private_match_forfeits_it(site, by):
    ana, ion, table = private_match(site)
    r = post(site, table[by], "leave", ion)
    assert r.status_code == 200, r.json()
    assert r.json()["table"]["status"] == "finished" and r.json()["table"]["private"]
    state = site.c.get(f"/api/games/{table['game']}", headers=auth(ana)).json()
    assert state["view"]["over"] and state["view"]["forfeit"] == {"seat": 1, "why": "left"}
    assert post(site, table[by], "leave", ion).json()["code"] == "not_playing"


@pytest.mark.parametrize("by", ["id", "invite"])
def test_a_private_match_is_claimed_against_an_absent_opponent(site, by):
    ana, ion, table = private_match(site)
    with site.c.websocket_connect(f"/ws/games/{table['game']}") as a:
        hello(a, ana)
        site.now.now += 89
        r = post(site, table[by], "claim", ana)
        assert (r.status_code, r.json()["code"]) == (409, "cannot_claim")
        site.now.now += 1
        r = post(site, table[by], "claim", ana)
        assert r.status_code == 200, r.json()
        assert r.json()["table"]["status"] == "finished"
        assert receive(a, "state")["view"]["forfeit"] == {"seat": 1, "why": "away"}


@pytest.mark.parametrize("by", ["id", "invite"])
def test_a_private_rematch_starts_a_private_table(site, by):
    ana, ion, table = private_match(site, length=5, clock="rapid")
    post(site, table[by], "leave", ana)
    first = post(site, table[by], "rematch", ana)
    assert first.json() == {"rematch": "asked", "table": None}
    again = post(site, table[by], "rematch", ion)
    assert again.status_code == 200, again.json()
    new = again.json()["table"]
    assert again.json()["rematch"] == "started" and new["private"] and new["status"] == "playing"
    assert [p["name"] for p in new["players"]] == ["Ion", "Ana"]
    assert site.c.get("/api/tables").json()["playing"] == []  # still private
    # The new table answers its players by its id too.
    assert post(site, new["id"], "leave", ion).json()["table"]["status"] == "finished"


def test_a_stranger_learns_nothing_from_a_private_tables_id(site):
    ana, ion, table = private_match(site)
    dan = site.guest("Dan")
    for action in ("join", "leave", "claim", "rematch"):
        r = post(site, table["id"], action, dan)
        assert (r.status_code, r.json()["code"]) == (404, "not_found"), action
    for action in ("leave", "claim", "rematch"):
        r = post(site, table["invite"], action, dan)
        assert (r.status_code, r.json()["code"]) == (403, "not_seated"), action
    assert site.c.get(f"/api/tables/{table['id']}").status_code == 404
    # A player of the table who asks to join it by its id is told they sit there.
    r = post(site, table["id"], "join", ana)
    assert (r.status_code, r.json()["code"]) == (409, "already_seated")
