"""Migrations: a release-0.1.0 database keeps every game, and head matches ``schema.py``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from table.server.play.game import Game, GameConfig
from table.server.online.ledger import Entry
from table.server.store import StorageError, migrations, open_storage, schema

from tests.server.storage_fixtures import where  # noqa: F401 - fixture

RELEASE_0_1_0 = Path(__file__).parent / "data" / "release-0.1.0.sql"


def old_statements(postgres: bool) -> list[str]:
    """The fixture's SQL, one statement at a time, as release 0.1.0 ran it on each database."""
    text = "\n".join(line for line in RELEASE_0_1_0.read_text().splitlines() if not line.startswith("--"))
    statements = [s.strip() for s in text.split(";\n") if s.strip()]
    # That release created PostgreSQL tables with DOUBLE PRECISION where SQLite has REAL.
    return [s.replace("REAL", "DOUBLE PRECISION") if postgres else s for s in statements]


def expected_games() -> dict[str, tuple[dict, dict, list[dict]]]:
    """What the fixture holds, read with the standard library's sqlite3 (not our storage)."""
    db = sqlite3.connect(":memory:")
    db.executescript(RELEASE_0_1_0.read_text())
    games = {gid: (json.loads(c), json.loads(s), []) for gid, c, s in db.execute("SELECT id, config, seats FROM games")}
    for gid, entry in db.execute("SELECT game_id, entry FROM actions ORDER BY game_id, seq"):
        games[gid][2].append(json.loads(entry))
    db.close()
    return games


def make_old_database(where: str) -> None:
    if where.startswith("postgresql"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            for statement in old_statements(postgres=True):
                conn.execute(statement)
    else:
        db = sqlite3.connect(where)
        for statement in old_statements(postgres=False):
            db.execute(statement)
        db.commit()
        db.close()


def engine_for(where: str) -> sa.Engine:
    if where.startswith("postgresql"):
        return sa.create_engine(where.replace("postgresql://", "postgresql+psycopg://", 1))
    return sa.create_engine(f"sqlite:///{where}")


def schema_differences(conn: sa.Connection) -> list:
    """How the database on ``conn`` differs from ``schema.metadata``."""
    diffs = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), schema.metadata)
    if conn.dialect.name != "sqlite":
        return diffs
    # Release 0.1.0 declared "id TEXT PRIMARY KEY", which SQLite lets be NULL
    # (a legacy quirk of non-integer keys), and "created REAL" (SQLite's float):
    # no game id is ever NULL and REAL is Float there, so the table is not rebuilt.
    quirks = {("modify_nullable", "games", "id"), ("modify_type", "games", "created")}
    return [d for d in diffs if not (isinstance(d, list) and (d[0][0], d[0][2], d[0][3]) in quirks)]


def test_the_fixture_has_games_with_logs():
    games = expected_games()
    assert len(games) == 2 and all(len(log) >= 5 for _, _, log in games.values())


def test_a_release_0_1_0_database_keeps_every_game(where):
    make_old_database(where)
    expected = expected_games()
    s = open_storage(where)
    try:
        for gid, (config, seats, log) in expected.items():
            assert s.load(gid) == (config, seats, log)
            game = Game.replay(GameConfig.from_json(config), log)  # the log still plays back
            assert len(game.log) == len(log)
        # The old games go on, and the new tables work alongside them.
        gid, (_, _, log) = next(iter(expected.items()))
        s.append(gid, len(log), {"type": "next"})
        assert s.load(gid)[2][-1] == {"type": "next"}
        ana = s.create_player("Ana", "ana", "h1")
        s.add_ledger([Entry(ana.id, 20, "win:single", gid)])
        assert s.points(ana.id) == 20
        s.save_clock(gid, {"reserve": [1.0, 2.0]}, 50.0)
        assert s.expired_clocks(now=60.0) == [gid]
        s.finish(gid, now=70.0)
        assert gid not in s.idle_games(before=1e12)
    finally:
        s.close()
    with engine_for(where).connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == migrations.head()
        # "updated" of an old game starts as its creation time.
        other = [g for g in expected if g != gid][0]
        row = conn.execute(sa.select(schema.games.c.created, schema.games.c.updated)
                           .where(schema.games.c.id == other)).one()
        assert row.updated == row.created


def test_a_new_database_at_head_matches_the_schema(where):
    open_storage(where).close()
    open_storage(where).close()  # opening again finds nothing to do
    engine = engine_for(where)
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == migrations.head()
        diffs = schema_differences(conn)
    engine.dispose()
    assert diffs == []


def test_a_database_from_a_newer_release_is_refused(tmp_path):
    db = tmp_path / "g.sqlite3"
    open_storage(db).close()
    raw = sqlite3.connect(db)
    raw.execute("UPDATE alembic_version SET version_num = 'ffff'")
    raw.commit()
    raw.close()
    with pytest.raises(StorageError, match="cannot open the games database"):
        open_storage(db)


def test_upgrading_step_by_step_is_the_same_as_at_once(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    with engine.begin() as conn:
        migrations.upgrade(conn, migrations.FIRST)
        assert set(sa.inspect(conn).get_table_names()) == {"alembic_version", "games", "actions"}
    engine.dispose()
    s = open_storage(tmp_path / "g.sqlite3")
    s.close()
    with engine.connect() as conn:
        diffs = schema_differences(conn)
    engine.dispose()
    assert diffs == []


def test_servers_opening_a_new_database_together_take_turns(where):
    import threading

    opened, errors = [], []

    def open_it() -> None:
        try:
            opened.append(open_storage(where))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == [] and len(opened) == 4
    opened[0].create("g", {}, {})
    opened[3].append("g", 0, {"type": "roll"})
    assert opened[1].load("g")[2] == [{"type": "roll"}]
    for s in opened:
        s.close()


def test_a_0002_database_gains_match_results_and_keeps_its_points(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    with engine.begin() as conn:
        migrations.upgrade(conn, "0002")
        assert "match_results" not in sa.inspect(conn).get_table_names()
        conn.execute(sa.text("INSERT INTO players (name, name_key, token_hash, is_bot, created, last_seen) "
                             "VALUES ('Ana', 'ana', 'h', false, 1, 1)"))
        conn.execute(sa.text("INSERT INTO ledger (player_id, amount, reason, created) VALUES (1, 40, 'win:gammon', 2)"))
    engine.dispose()
    from table.server.online.results import Outcome

    s = open_storage(tmp_path / "g.sqlite3")
    try:
        assert s.points(1) == 40 and s.rating(1).rating == 1500 and s.match_results() == []
        bo = s.create_player("Bo", "bo", "hb")
        s.create("g", {"mode": "online"}, {})
        s.record_match(Outcome("g", None, (1, bo.id), 1, 0, (1, 0), "normal", True))
        assert s.rating(1).rating == 1510 and s.rating(bo.id).rating == 1490
    finally:
        s.close()
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == migrations.head()
        assert schema_differences(conn) == []
    engine.dispose()
