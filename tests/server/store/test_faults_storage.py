"""A real SQLite database that is locked by another process, or read-only, under the running server.

The storage is Table's own (``open_storage``: WAL, every transaction ``BEGIN IMMEDIATE``, a
30 s busy timeout); only that patience is shortened to 1 s here, so the tests need not wait
30 s.  The lock is a real one, taken by another connection to the same file, as a backup
tool or an ``sqlite3`` shell would.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
import sqlalchemy

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.store import open_storage

from tests.server.server_helpers import TestClient
from tests.server.test_faults_online import contents, refused


def patient_for(seconds: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Storage opened from now on waits ``seconds`` (not 30) for a lock another process holds."""
    real = sqlalchemy.create_engine

    def create_engine(url, **kwargs):  # type: ignore[no-untyped-def]
        if str(url).startswith("sqlite:///"):
            kwargs["connect_args"] = {**kwargs.get("connect_args", {}), "timeout": seconds}
        return real(url, **kwargs)

    monkeypatch.setattr(sqlalchemy, "create_engine", create_engine)


@contextmanager
def locked(db: Path, seconds: float | None = None) -> Iterator[None]:
    """Another connection holds the database's write lock (for ``seconds``, else until the block ends)."""
    con = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    con.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(seconds, con.rollback) if seconds is not None else None
    if timer is not None:
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.join()
        else:
            con.rollback()
        con.close()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db, monkeypatch):
    patient_for(1.0, monkeypatch)
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(3), limits=Limits(games_burst=10**6))) as c:
        yield c
    storage.close()


def test_a_database_locked_by_another_process_answers_503_and_recovers(client, db):
    before = contents(db)
    with locked(db):
        start = time.monotonic()
        refused(client.post("/api/guests", json={"name": "Ana"}))
        assert time.monotonic() - start < 5  # refused once the storage's patience ran out
        # Every transaction takes the write lock, so a read that needs the database is refused too
        # (the lobby may come from memory): never a hang or a 500.
        r = client.get("/api/tables")
        assert r.status_code == 200 or (r.status_code, r.json()["code"]) == (503, "storage_failed"), r.json()
        assert client.get("/api/health").status_code == 200  # the server itself answers
        refused(client.post("/api/games", json={"mode": "local"}))
        assert len(client.app.state.rooms) == 0
    assert contents(db) == before
    assert client.post("/api/guests", json={"name": "Ana"}).status_code == 201
    assert client.post("/api/games", json={"mode": "local"}).status_code == 201


def test_a_lock_held_briefly_only_delays_a_write(client, db):
    with locked(db, seconds=0.3):
        r = client.post("/api/guests", json={"name": "Ana"})
    assert r.status_code == 201, r.json()


def test_a_read_only_database_serves_reads_and_refuses_writes_with_503(db, monkeypatch):
    """SQLite opened read-only (a file the server may not write, a disk remounted read-only)."""
    storage = open_storage(db)
    with TestClient(create_app(storage)) as c:
        assert c.post("/api/guests", json={"name": "Ana"}).status_code == 201
        lobby = c.get("/api/tables").json()
        del lobby["now"]
    storage.close()
    before = contents(db)
    real = sqlalchemy.create_engine

    def read_only(url, **kwargs):  # type: ignore[no-untyped-def]
        return real(f"sqlite:///file:{db}?mode=ro&uri=true", **kwargs)

    monkeypatch.setattr(sqlalchemy, "create_engine", read_only)
    storage = open_storage(db)
    with TestClient(create_app(storage)) as c:
        now = c.get("/api/tables").json()
        assert now.pop("now") and now == lobby and c.get("/api/players/ana").status_code == 200
        r = c.post("/api/guests", json={"name": "Ion"})
        refused(r)
        assert "readonly database" in r.json()["message"], r.json()
        refused(c.post("/api/games", json={"mode": "local"}))
        assert len(c.app.state.rooms) == 0 and c.get("/api/health").status_code == 200
    storage.close()
    assert contents(db) == before
