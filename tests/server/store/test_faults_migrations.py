"""Upgrading from each older schema revision with real rows in it, and a migration that fails halfway.

The rows are real: a database at head is filled by the app itself (guests, a local game, an
online match with moves, chat, a forfeit with its ledger and match result, a push
subscription).  For each older revision a database is made at that revision and given those
rows, in the columns that revision has; opening it upgrades it, and every row must still be
there and still work (the games load and are served, the points and results add up).  On SQLite
always; on PostgreSQL too when TABLE_TEST_POSTGRES_URL is set (a schema of its own per test).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.migration import MigrationContext

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.store import StorageError, migrations, open_storage

from tests.server.server_helpers import TestClient, auth
from tests.server.storage_fixtures import PG, postgres_schema
from tests.server.test_faults_online import contents
from tests.server.test_online_tables import START, Site, act, hello, make_site, receive
from tests.server.test_push import Browser

OLDER = ["0001", "0002", "0003"]


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    """A database at head with real rows of every kind, written by the app."""
    db = tmp_path_factory.mktemp("head") / "games.sqlite3"
    storage, now, clock, app = make_site(db)
    with TestClient(app()) as c:
        site = Site(c, storage, now, clock)
        local = c.post("/api/games", json={"mode": "local", "length": 3}).json()
        state = c.get(f"/api/games/{local['game']}", headers=auth(local["token"])).json()
        if state["view"]["phase"] == "roll":
            c.post(f"/api/games/{local['game']}/actions", headers=auth(local["token"]),
                   json={"version": state["version"], "action": {"type": "roll"}})
        ana, ion, table = site.match(length=3)
        with c.websocket_connect(f"/ws/games/{table['game']}") as a, \
                c.websocket_connect(f"/ws/games/{table['game']}") as i:
            states = [hello(a, ana), hello(i, ion)]
            for _ in range(4):  # a few decisions, by whoever is to act
                seat = states[0]["view"]["to_act"]
                if seat is None:
                    break
                act([a, i][seat], states[seat])
                states = [receive(a, "state"), receive(i, "state")]
            a.send_json({"type": "chat", "channel": "players", "text": "Bună!"})
            receive(i, "chat")
        c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion))  # a forfeit: ledger and match result
        c.post("/api/tables", json={"length": 5}, headers=auth(ion))  # an open table
        c.get("/api/push/key")
        r = c.post("/api/push/subscribe", json=Browser("https://push.example.org/ana").subscription(),
                   headers=auth(ana))
        assert r.status_code == 200, r.json()
        now.now = START + 100
    storage.close()
    rows = contents(db)
    for table in ("games", "actions", "players", "online_tables", "table_seats", "clocks", "ledger", "chat",
                  "match_results", "site_keys", "push_subscriptions"):
        assert rows[table], f"the filled database has no {table}"
    return db


def columns(con: sqlite3.Connection, table: str, schema: str = "main") -> list[str]:
    return [r[1] for r in con.execute(f'PRAGMA {schema}.table_info("{table}")')]


def at_revision(db: Path, revision: str, rows_from: Path) -> dict[str, list[str]]:
    """A database at ``revision`` holding ``rows_from``'s rows, in that revision's columns; which
    columns of which tables it got."""
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        migrations.upgrade(conn, revision)
    engine.dispose()
    con = sqlite3.connect(db)
    con.execute("ATTACH DATABASE ? AS head", (str(rows_from),))
    copied = {}
    for (table,) in con.execute("SELECT name FROM main.sqlite_master WHERE type = 'table' "
                                "AND name NOT LIKE 'sqlite_%' AND name != 'alembic_version'").fetchall():
        cols = columns(con, table)
        if revision == "0001" and table == "games":
            assert cols == ["id", "created", "config", "seats"]
        names = ", ".join(f'"{c}"' for c in cols)
        con.execute(f'INSERT INTO main."{table}" ({names}) SELECT {names} FROM head."{table}"')
        copied[table] = cols
    con.commit()
    con.close()
    return copied


def projected(db: Path, copied: dict[str, list[str]]) -> dict[str, list[tuple]]:
    con = sqlite3.connect(db)
    try:
        found = {}
        for table, cols in copied.items():
            names = ", ".join(f'"{c}"' for c in cols)
            found[table] = sorted(con.execute(f'SELECT {names} FROM "{table}"').fetchall(), key=repr)
        return found
    finally:
        con.close()


def revision_of(db: Path) -> str | None:
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


@pytest.mark.parametrize("revision", OLDER)
def test_every_older_revision_with_real_rows_upgrades_and_keeps_them(filled, tmp_path, revision):
    db = tmp_path / "old.sqlite3"
    copied = at_revision(db, revision, filled)
    assert revision_of(db) == revision
    expected = projected(filled, copied)
    assert projected(db, copied) == expected and all(expected.values())
    storage = open_storage(db)  # upgrades
    try:
        assert revision_of(db) == migrations.head()
        assert projected(db, copied) == expected  # every row, every old column, as it was
        head = open_storage(filled)
        try:
            games = [row[0] for row in expected["games"]]
            assert games and all(storage.load(g) == head.load(g) for g in games)
            if "ledger" in copied:
                players = [row[0] for row in expected["players"]]
                assert [storage.points(p) for p in players] == [head.points(p) for p in players]
            if "match_results" in copied:
                assert storage.match_results() == head.match_results()
        finally:
            head.close()
        # The upgraded database serves: its games load, and new guests are made.
        with TestClient(create_app(storage, SeededDice(5))) as c:
            for game_id in games:
                mode = storage.load(game_id)[0].get("mode")
                if game_id.startswith("~") or (mode == "online" and "online_tables" not in copied):
                    continue  # the server's own note; an online game needs the tables 0001 did not have
                r = c.get(f"/api/games/{game_id}")
                assert r.status_code == 200 and r.json()["version"] == len(storage.load(game_id)[2]), (game_id, r.json(), storage.load(game_id)[0])
            assert c.post("/api/guests", json={"name": "Nou"}).status_code == 201
    finally:
        storage.close()


def test_a_migration_that_fails_halfway_leaves_the_database_as_it_was(filled, tmp_path):
    """0004 makes site_keys, then push_subscriptions: a table of that name already there (left by
    some other tool) stops it at its second step.  Nothing of it stays, the database is still a
    whole 0003 one, and once the obstacle is gone it upgrades."""
    db = tmp_path / "old.sqlite3"
    copied = at_revision(db, "0003", filled)
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE push_subscriptions (x INTEGER)")
    con.commit()
    con.close()
    before = contents(db)
    with pytest.raises(StorageError, match="cannot open the games database .*push_subscriptions"):
        open_storage(db)
    assert contents(db) == before and "site_keys" not in before  # the first step was undone too
    assert revision_of(db) == "0003"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.execute("DROP TABLE push_subscriptions")
    con.commit()
    con.close()
    expected = projected(filled, copied)
    storage = open_storage(db)
    try:
        assert revision_of(db) == migrations.head() and projected(db, copied) == expected
    finally:
        storage.close()


def at_revision_pg(url: str, revision: str, rows_from: Path) -> dict[str, int]:
    """A PostgreSQL database at ``revision`` holding ``rows_from``'s rows in that revision's columns;
    how many rows each table got."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    source = sqlite3.connect(rows_from)
    copied = {}
    try:
        with engine.begin() as conn:
            migrations.upgrade(conn, revision)
            meta = sa.MetaData()
            meta.reflect(conn)
            for table in meta.sorted_tables:  # parents before the rows that point at them
                if table.name == "alembic_version":
                    continue
                cols = [c.name for c in table.columns]
                names = ", ".join(f'"{c}"' for c in cols)
                rows = [
                    {c: (bool(v) if isinstance(table.c[c].type, sa.Boolean) and v is not None else v)
                     for c, v in zip(cols, row)}
                    for row in source.execute(f'SELECT {names} FROM "{table.name}"')]
                if rows:
                    conn.execute(table.insert(), rows)
                copied[table.name] = len(rows)
                for column in table.columns:  # the ids given here are not the sequence's: move it on
                    if column.autoincrement is True or (column.primary_key and isinstance(column.type, sa.Integer)):
                        conn.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                                             f"GREATEST(1, (SELECT COALESCE(MAX(\"{column.name}\"), 0) FROM \"{table.name}\")))"))
    finally:
        source.close()
        engine.dispose()
    return copied


@pytest.mark.skipif(not PG, reason="set TABLE_TEST_POSTGRES_URL to test PostgreSQL storage")
@pytest.mark.parametrize("revision", OLDER)
def test_every_older_revision_with_real_rows_upgrades_on_postgresql(filled, revision):
    with postgres_schema() as url:
        copied = at_revision_pg(url, revision, filled)
        assert copied.get("games") and copied.get("actions")
        storage = open_storage(url)  # upgrades
        head = open_storage(filled)
        try:
            engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
            with engine.connect() as conn:
                assert MigrationContext.configure(conn).get_current_revision() == migrations.head()
                for table, count in copied.items():
                    assert conn.execute(sa.text(f'SELECT COUNT(*) FROM "{table}"')).scalar() == count, table
            engine.dispose()
            con = sqlite3.connect(filled)
            games = [g for (g,) in con.execute("SELECT id FROM games")]
            players = [p for (p,) in con.execute("SELECT id FROM players")]
            con.close()
            assert all(storage.load(g) == head.load(g) for g in games)
            if "ledger" in copied:
                assert [storage.points(p) for p in players] == [head.points(p) for p in players]
            if "match_results" in copied:
                assert storage.match_results() == head.match_results()
            with TestClient(create_app(storage, SeededDice(5))) as c:
                assert c.post("/api/guests", json={"name": "Nou"}).status_code == 201
        finally:
            head.close()
            storage.close()
