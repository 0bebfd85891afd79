"""Table ownership by PostgreSQL advisory locks, against a real server.

Needs TABLE_TEST_POSTGRES_URL (scripts/test starts a throwaway server and sets
it; by hand: scripts/postgres-for-tests).
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator

import pytest

from table.server.cluster.partitions import partition_lock, partition_of

PG = os.environ.get("TABLE_TEST_POSTGRES_URL")

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")

from table.server.cluster.ownership import Ownership  # noqa: E402


@pytest.fixture
def workers() -> Iterator[tuple[Ownership, Ownership]]:
    """Two workers, each with its own lock connection."""
    if not PG:
        pytest.skip("set TABLE_TEST_POSTGRES_URL to test ownership locks on PostgreSQL")
    a, b = Ownership(PG), Ownership(PG)
    yield a, b
    a.close()
    b.close()


def name() -> str:
    """A lock name no other test (or test run on the same server) uses."""
    return "test:" + secrets.token_hex(8)


def terminate(pid: int) -> None:
    """What kill -9 of a worker does to its session: the backend goes away."""
    assert PG
    engine = sa.create_engine(PG.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
    engine.dispose()


def eventually_acquires(worker: Ownership, lock: str, seconds: float = 5.0) -> bool:
    """Whether ``worker`` gets ``lock`` within ``seconds`` (a terminated backend takes a moment to go)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if worker.try_acquire(lock):
            return True
        time.sleep(0.05)
    return False


def test_only_one_worker_gets_a_lock(workers: tuple[Ownership, Ownership]) -> None:
    a, b = workers
    lock = name()
    assert a.try_acquire(lock)
    assert not b.try_acquire(lock)
    assert a.holds(lock) and not b.holds(lock)
    assert a.held() == {lock} and b.held() == frozenset()


def test_taking_a_held_lock_again_keeps_one_level(workers: tuple[Ownership, Ownership]) -> None:
    a, b = workers
    lock = name()
    assert a.try_acquire(lock) and a.try_acquire(lock)
    assert a.release(lock)  # one release frees it: the re-entry was not counted twice
    assert b.try_acquire(lock)


def test_release_hands_the_lock_over(workers: tuple[Ownership, Ownership]) -> None:
    a, b = workers
    lock = name()
    assert a.try_acquire(lock)
    assert not b.release(lock)  # b never held it: nothing changes
    assert a.holds(lock)
    assert a.release(lock)
    assert not a.holds(lock)
    assert b.try_acquire(lock)


def test_closing_the_owner_frees_its_locks(workers: tuple[Ownership, Ownership]) -> None:
    a, b = workers
    lock = name()
    assert a.try_acquire(lock)
    a.close()
    # The database frees the locks when the closed session's backend has ended: soon, not at once.
    assert eventually_acquires(b, lock)
    with pytest.raises(RuntimeError, match="closed"):
        a.try_acquire(lock)


def test_a_killed_owner_loses_its_tables_to_another_worker(workers: tuple[Ownership, Ownership]) -> None:
    a, b = workers
    partitions = 8
    owned_by_a = a.acquire_partitions(partitions)
    assert owned_by_a == list(range(partitions))
    assert b.acquire_partitions(partitions) == []
    table = "table-" + secrets.token_hex(4)
    assert a.may_apply(table, partitions) and not b.may_apply(table, partitions)

    terminate(a.backend_pid())

    assert not a.may_apply(table, partitions)  # the dead session no longer counts as owner
    assert a.held() == frozenset()
    assert eventually_acquires(b, partition_lock(partition_of(table, partitions)))
    assert b.may_apply(table, partitions)
    assert b.acquire_partitions(partitions) == list(range(partitions))  # all of a's partitions
    a.close()  # closing a dead connection is quiet


def test_partitions_are_shared_between_workers(workers: tuple[Ownership, Ownership]) -> None:
    a, b = workers
    lock_a, lock_b = name(), name()
    assert a.try_acquire(lock_a) and b.try_acquire(lock_b)
    assert not a.try_acquire(lock_b) and not b.try_acquire(lock_a)


def test_the_server_drops_a_dead_workers_session_soon(workers: tuple[Ownership, Ownership]) -> None:
    a, _ = workers  # the lock session probes an idle worker after 5 s, every 2 s, 3 times
    assert [a.setting(f"tcp_keepalives_{n}") for n in ("idle", "interval", "count")] == ["5", "2", "3"]


def test_a_worker_that_lost_its_lock_cannot_overwrite_the_new_owners_move() -> None:
    """The write is the last fence: a table's log has one entry per version, whoever writes."""
    if not PG:
        pytest.skip("set TABLE_TEST_POSTGRES_URL to test ownership locks on PostgreSQL")
    from table.server.store import StorageError, open_storage
    from tests.server.storage_fixtures import postgres_schema

    with postgres_schema() as url:
        old_owner, new_owner = open_storage(url), open_storage(url)
        try:
            new_owner.create("g1", {}, [])
            new_owner.append("g1", 0, {"move": "new owner's"})
            with pytest.raises(StorageError, match="already has log entry 0"):
                old_owner.append("g1", 0, {"move": "stale owner's"})
            assert old_owner.load("g1")[2] == [{"move": "new owner's"}]
        finally:
            old_owner.close()
            new_owner.close()


def test_a_url_that_is_not_postgresql_is_refused() -> None:
    with pytest.raises(ValueError, match="PostgreSQL URL, not 'sqlite'"):
        Ownership("sqlite:///games.sqlite3")
