"""A real database failing under each online route other than a move: 503 ``storage_failed``, nothing
changed (in the database or in memory), and the same request succeeds once the database works again.

The failure is SQLite's own, inside the storage layer: another connection to the same file adds
a trigger that makes every write to the named tables fail at run time ("integer overflow", an
``OperationalError`` like a full disk or an I/O error), then drops it.  No fake sits above the
storage.  Moves have their own tests (test_failed_writes.py).
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from table.server.online.sweep import SERVED_NOTE

from tests.server.server_helpers import TestClient, auth
from tests.server.test_online_tables import Site, hello, make_site, receive

OPS = ("INSERT", "UPDATE", "DELETE")


@contextmanager
def failing(db: Path, *tables: str, ops: tuple[str, ...] = OPS, when: str = "1") -> Iterator[None]:
    """Every ``ops`` write to ``tables`` (of the rows matching ``when``) fails inside SQLite until the block ends."""
    con = sqlite3.connect(db, timeout=30)
    names = []
    try:
        for table in tables:
            for op in ops:
                name = f"fault_{table}_{op.lower()}"
                # Evaluated when a row is written, not when the statement is prepared: the fault
                # goes as soon as the trigger does, with no connection holding a stale schema.
                con.execute(f"CREATE TRIGGER {name} BEFORE {op} ON {table} WHEN {when} "
                            "BEGIN SELECT abs(-9223372036854775807 - 1); END")
                names.append(name)
        con.commit()
        yield
    finally:
        for name in names:
            con.execute(f"DROP TRIGGER IF EXISTS {name}")
        con.commit()
        con.close()


def contents(db: Path) -> dict[str, list[str]]:
    """Every row of every table, as committed (read through a connection of its own), but the
    server's own heartbeat (``SERVED_NOTE``), which it rewrites every second whatever happens."""
    con = sqlite3.connect(db, timeout=30)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(repr(row) for row in con.execute(f'SELECT * FROM "{t}"')
                          if repr(SERVED_NOTE) not in repr(row)) for t in tables}
    finally:
        con.close()


def refused(r) -> None:  # type: ignore[no-untyped-def]
    assert (r.status_code, r.json()["code"]) == (503, "storage_failed"), r.json()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def site(db):
    storage, now, clock, app = make_site(db)
    with TestClient(app()) as c:
        yield Site(c, storage, now, clock)
    storage.close()


def test_a_guest_that_cannot_be_stored_is_not_made(site, db):
    before = contents(db)
    with failing(db, "players"):
        refused(site.c.post("/api/guests", json={"name": "Ana"}))
        assert contents(db) == before
    assert site.c.post("/api/guests", json={"name": "Ana"}).status_code == 201  # the name was not taken


def test_a_table_that_cannot_be_stored_is_not_opened(site, db):
    ana = site.guest("Ana")
    lobby, before = site.c.get("/api/tables").json(), contents(db)
    with failing(db, "online_tables", "table_seats"):
        refused(site.c.post("/api/tables", json={}, headers=auth(ana)))
        assert contents(db) == before and site.c.get("/api/tables").json() == lobby
    assert site.c.post("/api/tables", json={}, headers=auth(ana)).status_code == 201


@pytest.mark.parametrize("broken", [("games",), ("clocks",), ("table_seats",), ("online_tables",)])
def test_a_join_that_cannot_be_stored_leaves_the_table_open(site, db, broken):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana)
    lobby, rooms, before = site.c.get("/api/tables").json(), len(site.c.app.state.rooms), contents(db)
    with failing(db, *broken):
        refused(site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)))
        assert contents(db) == before
        assert site.c.get("/api/tables").json() == lobby and len(site.c.app.state.rooms) == rooms
        assert site.c.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "open"
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))
    assert r.status_code == 200 and r.json()["table"]["status"] == "playing"


@pytest.mark.parametrize("broken", [{"tables": ("online_tables",)},
                                    # only the change of status: before the fix the seat was freed in a
                                    # transaction of its own, leaving an open table nobody sat at
                                    {"tables": ("online_tables",), "ops": ("UPDATE",),
                                     "when": "NEW.status <> OLD.status"}])
def test_withdrawing_a_table_that_cannot_be_stored_leaves_it_open(site, db, broken):
    ana = site.guest("Ana")
    table = site.table(ana)
    lobby, before = site.c.get("/api/tables").json(), contents(db)
    with failing(db, *broken["tables"], ops=broken.get("ops", OPS), when=broken.get("when", "1")):
        refused(site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ana)))
        assert contents(db) == before and site.c.get("/api/tables").json() == lobby
    r = site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ana))
    assert r.status_code == 200 and r.json()["table"]["status"] == "abandoned"
    assert site.c.get("/api/tables").json()["open"] == []


@pytest.mark.parametrize("broken", [("actions",), ("ledger",), ("online_tables",), ("match_results",)])
def test_a_forfeit_that_cannot_be_stored_leaves_the_match_playing(site, db, broken):
    ana, ion, table = site.match()
    game = table["game"]
    state, before = site.c.get(f"/api/games/{game}").json(), contents(db)
    with failing(db, *broken):
        refused(site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion)))
        assert contents(db) == before and site.c.get(f"/api/games/{game}").json() == state
    r = site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion))
    assert r.status_code == 200 and r.json()["table"]["status"] == "finished"


def test_a_claim_that_cannot_be_stored_leaves_the_match_playing(site, db):
    ana, ion, table = site.match()
    game = table["game"]
    with site.c.websocket_connect(f"/ws/games/{game}") as a:
        hello(a, ana)
        with site.c.websocket_connect(f"/ws/games/{game}") as i:
            hello(i, ion)
        site.now.now += 91  # Ion has been away long enough to be claimed against
        site.c.get("/api/me", headers=auth(ana))  # (Ana is seen now: her last-seen time is stored first)
        state, before = site.c.get(f"/api/games/{game}").json(), contents(db)
        with failing(db, "actions"):
            refused(site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ana)))
            assert contents(db) == before and site.c.get(f"/api/games/{game}").json() == state
        r = site.c.post(f"/api/tables/{table['id']}/claim", headers=auth(ana))
        assert r.status_code == 200 and r.json()["table"]["status"] == "finished"


def open_or_playing(db: Path) -> list[str]:
    con = sqlite3.connect(db, timeout=30)
    try:
        return sorted(r[0] for r in con.execute("SELECT id FROM online_tables WHERE status IN ('open', 'playing')"))
    finally:
        con.close()


@pytest.mark.parametrize("broken", [("online_tables", "table_seats"), ("games",), ("clocks",)])
def test_a_rematch_that_cannot_be_stored_starts_nothing_and_can_be_asked_again(site, db, broken):
    """Before the fix, a rematch whose match could not be started left an open table in the lobby
    (made in a transaction of its own) and could never be asked again ("asked" forever)."""
    ana, ion, table = site.match(length=5)
    site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ana))
    assert site.c.post(f"/api/tables/{table['id']}/rematch", headers=auth(ana)).json()["rematch"] == "asked"
    lobby, before, rooms = site.c.get("/api/tables").json(), contents(db), len(site.c.app.state.rooms)
    with failing(db, *broken):
        refused(site.c.post(f"/api/tables/{table['id']}/rematch", headers=auth(ion)))
        # Weaker than "nothing changed": the table made for the rematch may remain, withdrawn.
        assert open_or_playing(db) == [] and site.c.get("/api/tables").json() == lobby
        assert {k: v for k, v in contents(db).items() if k not in ("online_tables", "table_seats")} == \
            {k: v for k, v in before.items() if k not in ("online_tables", "table_seats")}
        assert len(site.c.app.state.rooms) == rooms
    again = site.c.post(f"/api/tables/{table['id']}/rematch", headers=auth(ion)).json()
    assert again["rematch"] == "started" and again["table"]["status"] == "playing", again
    assert [p["name"] for p in again["table"]["players"]] == ["Ion", "Ana"]
    assert open_or_playing(db) == [again["table"]["id"]]


def test_a_chat_message_that_cannot_be_stored_is_refused_and_heard_by_nobody(site, db):
    ana, ion, table = site.match()
    game = table["game"]
    with site.c.websocket_connect(f"/ws/games/{game}") as a, site.c.websocket_connect(f"/ws/games/{game}") as i:
        hello(a, ana)
        hello(i, ion)
        receive(a, "chat_history")
        receive(i, "chat_history")
        before = contents(db)
        with failing(db, "chat"):
            a.send_json({"type": "chat", "channel": "players", "text": "Bună!"})
            assert receive(a, "error")["code"] == "storage_failed"
            assert contents(db) == before
        a.send_json({"type": "chat", "channel": "players", "text": "Bună din nou!"})
        assert receive(i, "chat")["text"] == "Bună din nou!"  # the first thing Ion hears
    with site.c.websocket_connect(f"/ws/games/{game}") as i:
        hello(i, ion)
        assert [m["text"] for m in receive(i, "chat_history")["messages"]] == ["Bună din nou!"]


def test_a_push_subscription_that_cannot_be_stored_is_refused(site, db):
    from tests.server.test_push import Browser

    ion = site.guest("Ion")
    browser = Browser("https://push.example.org/ion")
    site.c.get("/api/push/key")  # the site's key is made and stored first
    before = contents(db)
    with failing(db, "push_subscriptions"):
        refused(site.c.post("/api/push/subscribe", json=browser.subscription(), headers=auth(ion)))
        assert contents(db) == before
    r = site.c.post("/api/push/subscribe", json=browser.subscription(), headers=auth(ion))
    assert r.status_code == 200 and r.json() == {"subscribed": True}
    assert len(contents(db)["push_subscriptions"]) == 1


# Clocks that run out while the database fails --------------------------------------------------------


def timed_match(site, names):
    """A one-point rapid match between two new guests: tokens, table, and the running clock's deadline."""
    a, b = site.guest(names[0]), site.guest(names[1])
    table = site.table(a, clock="rapid", length=1)
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(b))
    assert r.status_code == 200, r.json()
    table = r.json()["table"]
    clock = site.c.get(f"/api/games/{table['game']}").json()["view"]["clock"]
    return (a, b), table, clock["deadline"]


def over(site, game) -> bool:
    return bool(site.c.get(f"/api/games/{game}").json()["view"]["over"])


def test_a_timeout_that_cannot_be_stored_is_retried_by_its_timer(site, db):
    _, table, deadline = timed_match(site, ("Ana", "Ion"))
    game = table["game"]
    online = site.c.app.state.online
    room = site.c.portal.call(site.c.app.state.rooms.get, game)
    site.now.now = deadline
    before = contents(db)
    with failing(db, "actions"):
        site.c.portal.call(online._fire, room)  # the timer's work: it cannot store the forfeit
        assert not over(site, game) and contents(db) == before
        assert room.online.timer is not None  # ... and tries again in a second
    ends = time.monotonic() + 5
    while not over(site, game):
        assert time.monotonic() < ends, "the timeout was never stored"
        time.sleep(0.1)
    view = site.c.get(f"/api/games/{game}").json()["view"]
    assert view["forfeit"]["why"] == "timeout" and view["table"]["status"] == "finished"


def test_a_timeout_that_cannot_be_stored_holds_up_no_other_match(site, db):
    """The periodic sweep goes on past a match whose forfeit fails (it stopped at the first, before)."""
    _, first, first_deadline = timed_match(site, ("Ana", "Ion"))
    _, second, second_deadline = timed_match(site, ("Dan", "Eva"))
    site.now.now = max(first_deadline, second_deadline)
    with failing(db, "actions", ops=("INSERT",), when=f"NEW.game_id = '{first['game']}'"):
        site.check()
        assert not over(site, first["game"]) and over(site, second["game"])
    site.check()
    assert over(site, first["game"])
