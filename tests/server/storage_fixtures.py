"""Databases for the storage tests: a SQLite file always, PostgreSQL when a server is given.

Set TABLE_TEST_POSTGRES_URL (scripts/test starts a throwaway server and sets
it) to run every test on PostgreSQL too; each test gets a schema of its own,
dropped afterwards.  Import the fixtures into a test module to use them.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from table.server.store import SqlStorage, open_storage

PG = os.environ.get("TABLE_TEST_POSTGRES_URL")


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A PostgreSQL URL whose connections work in a new, empty schema (dropped on exit)."""
    assert PG
    psycopg = pytest.importorskip("psycopg")
    name = "t_" + secrets.token_hex(6)
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{PG}{'&' if '?' in PG else '?'}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[str]:
    """Where a fresh, empty database is: a SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield os.path.join(tmp_path, "g.sqlite3")
        return
    if not PG:
        pytest.skip("set TABLE_TEST_POSTGRES_URL to test PostgreSQL storage")
    with postgres_schema() as url:
        yield url


@pytest.fixture
def storage(where: str) -> Iterator[SqlStorage]:
    """Storage opened on a fresh database of each kind."""
    s = open_storage(where)
    yield s
    s.close()
