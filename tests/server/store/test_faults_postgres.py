"""A PostgreSQL backend killed in the middle of a transaction: 503 ``storage_failed``, nothing of the
transaction stays, and the next request works on a new connection.

Runs when TABLE_TEST_POSTGRES_URL names a server (scripts/test starts one).  Another connection
locks a table the transaction needs, so that Table's backend is caught waiting half-way; then
``pg_terminate_backend`` kills it, as a crash, an administrator or a failover would.
"""

from __future__ import annotations

import threading
import time

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth
from tests.server.storage_fixtures import PG, postgres_schema

pytestmark = pytest.mark.skipif(not PG, reason="set TABLE_TEST_POSTGRES_URL to test PostgreSQL storage")


@pytest.fixture
def url():
    with postgres_schema() as where:
        yield where


def kill_the_waiting_backend(blocker, statement: str) -> int:
    """Terminate the backend waiting on a lock while running ``statement``; its pid."""
    deadline = time.monotonic() + 10
    while True:
        row = blocker.execute("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                              "AND pid <> pg_backend_pid() AND query LIKE %s", (f"%{statement}%",)).fetchone()
        if row is not None:
            break
        assert time.monotonic() < deadline, f"no backend ever waited on {statement!r}"
        time.sleep(0.05)
    assert blocker.execute("SELECT pg_terminate_backend(%s)", (row[0],)).fetchone() == (True,)
    return int(row[0])


def test_a_backend_killed_mid_transaction_changes_nothing_and_the_next_request_works(url):
    import psycopg

    storage = open_storage(url)
    try:
        with TestClient(create_app(storage, SeededDice(2), limits=Limits(games_burst=10**6))) as c:
            ana = c.post("/api/guests", json={"name": "Ana"}).json()["token"]
            ion = c.post("/api/guests", json={"name": "Ion"}).json()["token"]
            table = c.post("/api/tables", json={}, headers=auth(ana)).json()["table"]
            answer = {}
            # Starting the match is one transaction: Ion's seat, the game, the table's status, the clock.
            with psycopg.connect(url) as blocker:
                blocker.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # the game's row must wait
                joining = threading.Thread(target=lambda: answer.update(
                    r=c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))))
                joining.start()
                with psycopg.connect(url, autocommit=True) as killer:
                    kill_the_waiting_backend(killer, "INSERT INTO games")
                joining.join(30)
                blocker.rollback()
            r = answer["r"]
            assert (r.status_code, r.json()["code"]) == (503, "storage_failed"), r.json()
            # Nothing of the transaction stayed: the seat taken before the wait went with it.
            assert storage.table(table["id"]).status == "open" and storage.table(table["id"]).seats[1] is None
            assert c.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "open"
            r = c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))
            assert r.status_code == 200 and r.json()["table"]["status"] == "playing", r.json()
    finally:
        storage.close()
