"""The lobby under a flood of tables (issue 52, 2): caps per player and per address, open tables
withdrawn when nobody joins, a creator who has gone claimed against at once, and the tables whose
creators wait listed first."""

from __future__ import annotations

from table.server.online import lobby as online_module
from table.server.edge.limits import Limits
from table.server.online.sweep import EXPIRE_EVERY
from table.server.online.tables import OPEN_FOR, OPEN_FOR_TURN_BASED

OPEN_PER_PLAYER = Limits().open_tables_per_player
OPEN_PER_ADDRESS = Limits().open_tables_per_address
from table.server.online.players import create_guest
from table.server.store import StorageError

from tests.server.server_helpers import auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import START, site  # noqa: F401 - fixture


def refused(r, code):
    return (r.status_code, r.json()["code"]) == (429, code)


def test_a_player_holds_at_most_five_open_tables(site):
    assert OPEN_PER_PLAYER == 5
    ana = site.guest("Ana")
    tables = [site.table(ana) for _ in range(5)]
    r = site.c.post("/api/tables", json={}, headers=auth(ana))
    assert refused(r, "too_many_tables") and "5 open tables" in r.json()["message"]
    assert len(site.c.get("/api/tables").json()["open"]) == 5
    # Withdrawing one frees its place.
    site.c.post(f"/api/tables/{tables[0]['id']}/leave", headers=auth(ana))
    site.table(ana)


def test_one_address_holds_at_most_ten_open_tables(site):
    assert OPEN_PER_ADDRESS == 10
    a, b, c = site.guest("Ana"), site.guest("Bogdan"), site.guest("Cezar")
    first = [site.table(a) for _ in range(5)]
    for _ in range(5):
        site.table(b)
    r = site.c.post("/api/tables", json={}, headers=auth(c))
    assert refused(r, "too_many_tables") and "your address" in r.json()["message"]
    # A table that starts is no longer open: its place is free again.
    joined = site.c.post(f"/api/tables/{first[0]['id']}/join", headers=auth(site.guest("Dan")))
    assert joined.status_code == 200
    site.table(c)


def test_tables_nobody_joins_are_withdrawn_real_time_after_30_minutes_turn_based_after_a_day(site):
    assert (OPEN_FOR, OPEN_FOR_TURN_BASED) == (1800.0, 86400.0)
    ana = site.guest("Ana")
    quick, days = site.table(ana, clock="rapid"), site.table(ana, clock="days3")
    site.now.now += OPEN_FOR - 1
    site.check()
    assert {t["id"] for t in site.c.get("/api/tables").json()["open"]} == {quick["id"], days["id"]}
    site.now.now += EXPIRE_EVERY  # (looked for every 30 s)
    site.check()
    assert [t["id"] for t in site.c.get("/api/tables").json()["open"]] == [days["id"]]
    assert site.storage.table(quick["id"]).status == "abandoned"
    r = site.c.post(f"/api/tables/{quick['id']}/join", headers=auth(site.guest("Ion")))
    assert r.json()["code"] == "not_open"
    site.now.now += OPEN_FOR_TURN_BASED
    site.check()
    assert site.c.get("/api/tables").json()["open"] == []
    assert site.c.get("/api/me", headers=auth(ana)).json()["tables"] == []


def test_a_creator_who_has_gone_is_claimed_against_as_soon_as_someone_joins(site):
    ana = site.guest("Ana")
    table = site.table(ana)
    site.now.now += 600  # Ana made her table and went; it is still open
    ion = site.guest("Ion")
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))
    assert r.status_code == 200
    game = r.json()["table"]["game"]
    # Before: Ion had to wait 90 s more. Now Ana is known to have been away for 600 s.
    r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ion))
    assert r.status_code == 200, r.json()
    state = site.c.get(f"/api/games/{game}").json()
    assert state["view"]["forfeit"] == {"seat": 0, "why": "away"}


def test_a_creator_waiting_at_the_table_page_is_not(site):
    ana = site.guest("Ana")
    table = site.table(ana)
    site.now.now += 590
    # The page of a table waiting for its second player asks about it every few seconds.
    assert site.c.get(f"/api/tables/{table['id']}", headers=auth(ana)).status_code == 200
    site.now.now += 10
    ion = site.guest("Ion")
    assert site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).status_code == 200
    r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ion))
    assert r.json()["code"] == "cannot_claim" and "80 s more" in r.json()["message"]
    site.now.now += 80  # and then she never opens the game
    assert site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ion)).status_code == 200


def test_under_a_flood_the_tables_whose_creators_wait_come_first(site):
    # 120 tables whose makers left (made straight in storage: the caps have tests of their own),
    # all newer than the one real table, whose creator is still here.
    flooders = [create_guest(site.storage, f"flood{i}", now=START - 1000)[0] for i in range(3)]
    ana = site.guest("Ana")
    real = site.table(ana)
    for n in range(120):
        site.storage.create_table(flooders[n % 3].id, {"length": 1, "cube": True, "clock": "rapid",
                                                        "private": False, "rated": True}, now=START + 1 + n)
    site.now.now += 60
    listed = site.c.get("/api/tables").json()["open"]
    assert len(listed) == online_module.LOBBY_LIST == 100
    assert listed[0]["id"] == real["id"]  # (before: not among the 100 newest)
    assert [t["created"] for t in listed[1:]] == sorted((t["created"] for t in listed[1:]), reverse=True)
    # Once she too has been gone a while, her table takes its place by age again (off the list).
    site.now.now += online_module.WAITING + 1
    assert real["id"] not in [t["id"] for t in site.c.get("/api/tables").json()["open"]]


def test_a_database_that_refuses_to_note_a_visit_still_answers(site, monkeypatch):
    ana = site.guest("Ana")
    site.now.now += 60

    def refuse(*args, **kwargs):
        raise StorageError("attempt to write a readonly database")

    monkeypatch.setattr(site.storage, "touch_player", refuse)
    assert site.c.get("/api/me", headers=auth(ana)).status_code == 200
