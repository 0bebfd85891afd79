"""Who may apply actions to a table: PostgreSQL advisory locks held by one worker.

Each worker opens an :class:`Ownership` on its own, dedicated connection and
takes the locks of the partitions it serves with ``pg_try_advisory_lock``.
PostgreSQL lets one session hold a given advisory lock at a time, so two
workers can never both own a partition; and it drops every lock of a session
whose connection goes away, so when a worker is killed (``kill -9``) its
partitions become free for another worker to take. See docs/scaling.md.

The calls block on the database: the server must run them off the event loop
(``asyncio.to_thread``).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from table.server.cluster.partitions import partition_lock, partition_of, stable_hash


# The server's side of the keepalives (seconds, probes), set on the lock session.
KEEPALIVES = {"tcp_keepalives_idle": 5, "tcp_keepalives_interval": 2, "tcp_keepalives_count": 3}


def lock_key(name: str) -> int:
    """The bigint key of the advisory lock called ``name`` (see :func:`stable_hash`)."""
    return stable_hash(name)


class Ownership:
    """The advisory locks one worker holds, on one connection of its own.

    ``url`` must name a PostgreSQL database (``postgresql://...``); SQLite has
    no advisory locks, and a single process needs none.
    """

    def __init__(self, url: str) -> None:
        engine = sa.make_url(url)
        if engine.get_backend_name() != "postgresql":
            raise ValueError(f"ownership locks need a PostgreSQL URL, not {engine.get_backend_name()!r}")
        if engine.drivername == "postgresql":  # the driver the project installs (extra "postgres")
            engine = engine.set(drivername="postgresql+psycopg")
        # NullPool: the connection is ours alone and is really closed on close();
        # a pooled connection would keep the locks alive after we let go.
        # Keepalives both ways: if the worker's machine dies, nothing closes the
        # connection, so the server must notice by itself (in ~11 s) and free the
        # locks; and the worker must notice a lost database as soon.
        self._engine = sa.create_engine(engine, poolclass=NullPool, isolation_level="AUTOCOMMIT",
                                        connect_args={"keepalives": 1, "keepalives_idle": 5,
                                                      "keepalives_interval": 2, "keepalives_count": 3})
        self._conn: sa.Connection | None = self._engine.connect()
        for setting, value in KEEPALIVES.items():
            self._conn.execute(sa.text(f"SET {setting} = {value}"))
        self._held: set[str] = set()

    def backend_pid(self) -> int:
        """The PostgreSQL backend process of this worker's lock connection."""
        return int(self._live().execute(sa.text("SELECT pg_backend_pid()")).scalar_one())

    def setting(self, name: str) -> str:
        """A setting of the lock session as PostgreSQL reports it (``SHOW``)."""
        return str(self._live().execute(sa.text("SELECT current_setting(:n)"), {"n": name}).scalar_one())

    def try_acquire(self, name: str) -> bool:
        """Take the lock ``name`` if no other worker holds it; True if this worker now holds it."""
        got = bool(self._live().execute(sa.text("SELECT pg_try_advisory_lock(:k)"),
                                        {"k": lock_key(name)}).scalar_one())
        if got:
            if name in self._held:  # PostgreSQL counts re-entries; keep one level per name
                self._live().execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": lock_key(name)})
            self._held.add(name)
        return got

    def release(self, name: str) -> bool:
        """Let go of the lock ``name``; False if this worker did not hold it."""
        if name not in self._held:
            return False
        self._held.discard(name)
        return bool(self._live().execute(sa.text("SELECT pg_advisory_unlock(:k)"),
                                         {"k": lock_key(name)}).scalar_one())

    def holds(self, name: str) -> bool:
        """Whether this worker still holds the lock ``name``, asked of the database.

        False when the connection is gone (the database dropped the lock with
        it), so a worker that lost its session stops applying at once.
        """
        key = lock_key(name) & 0xFFFF_FFFF_FFFF_FFFF  # pg_locks shows the key as two unsigned halves
        try:
            row = self._live().execute(sa.text(
                "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
                " AND granted AND objsubid = 1 AND classid = :hi AND objid = :lo"),
                {"hi": key >> 32, "lo": key & 0xFFFF_FFFF}).first()
        except sa.exc.DBAPIError:
            self._lost()
            return False
        return row is not None

    def held(self) -> frozenset[str]:
        """The locks this worker believes it holds (see :meth:`holds` for the database's word)."""
        return frozenset(self._held)

    def acquire_partitions(self, partitions: int) -> list[int]:
        """Take every free partition lock of ``partitions``; the partitions this worker now owns."""
        return [p for p in range(partitions) if self.try_acquire(partition_lock(p))]

    def may_apply(self, table_id: str, partitions: int) -> bool:
        """Whether this worker may apply actions to ``table_id`` now: it holds its partition's lock."""
        return self.holds(partition_lock(partition_of(table_id, partitions)))

    def close(self) -> None:
        """Close the connection, which releases every lock this worker held."""
        if self._conn is not None:
            try:
                self._conn.close()
            except sa.exc.DBAPIError:
                pass  # already gone: the locks went with it
        self._conn = None
        self._held.clear()
        self._engine.dispose()

    def _live(self) -> sa.Connection:
        if self._conn is None:
            raise RuntimeError("this ownership's connection is closed; open a new Ownership")
        return self._conn

    def _lost(self) -> None:
        """The connection failed: the database has released our locks, so forget them."""
        self._held.clear()
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.invalidate()
            except sa.exc.DBAPIError:
                pass
