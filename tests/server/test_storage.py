"""Storage: the same behaviour from SQLite and (where a server is given) PostgreSQL."""

from __future__ import annotations

import os
import secrets

import pytest

from table.server.storage import StorageError, open_storage

PG = os.environ.get("TABLE_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgres"])
def storage(request, tmp_path):
    if request.param == "postgres":
        if not PG:
            pytest.skip("set TABLE_TEST_POSTGRES_URL to test PostgreSQL storage")
        pytest.importorskip("psycopg")
        s = open_storage(PG)
    else:
        s = open_storage(tmp_path / "g.sqlite3")
    yield s
    s.close()


def test_log_round_trip_in_order(storage):
    gid = "t" + secrets.token_hex(6)
    storage.create(gid, {"mode": "local", "length": 3}, {"hashes": ["a", "a"]})
    for i in range(12):
        storage.append(gid, i, {"type": "roll", "dice": [i % 6 + 1, 1], "seat": i % 2})
    config, seats, log = storage.load(gid)
    assert config == {"mode": "local", "length": 3} and seats == {"hashes": ["a", "a"]}
    assert [e["dice"][0] for e in log] == [i % 6 + 1 for i in range(12)]


def test_refusals(storage):
    gid = "t" + secrets.token_hex(6)
    storage.create(gid, {}, {})
    with pytest.raises(StorageError):
        storage.create(gid, {}, {})
    storage.append(gid, 0, {"type": "roll"})
    with pytest.raises(StorageError):
        storage.append(gid, 0, {"type": "roll"})  # one entry per place in the log
    with pytest.raises(StorageError, match="no game"):
        storage.load("missing-" + gid)
