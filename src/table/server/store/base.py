"""The transaction every storage call runs in, shared by the groups of :mod:`table.server.store`.

Each group (games, players, tables, social, results) is a class over
:class:`StoreBase`; :class:`table.server.store.storage.SqlStorage` is all of
them in one object.  Work that several groups do inside one transaction
(a clock saved with a move, a match recorded with its last move) is a plain
function over the open connection, in the group that owns its tables.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from alembic.util import CommandError

from table.server.store import migrations
from table.server.store.values import ConflictError, StorageError


def when(now: float | None) -> float:
    """``now``, or the current time when it is None."""
    return time.time() if now is None else now


def reason(exc: Exception) -> str:
    """The driver's own words when there are some (SQLAlchemy's wrapper adds a link and the SQL)."""
    return str(getattr(exc, "orig", None) or exc).strip()


def inserted_id(result: sa.CursorResult[Any]) -> int:
    """The id the database gave the row just inserted."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


class StoreBase:
    """A database brought to the newest schema, and one transaction per call."""

    def __init__(self, engine: sa.Engine, what: str) -> None:
        self._engine = engine
        # SQLite has one writer at a time anyway; taking calls in turn here avoids
        # "database is locked" between this process's own threads (and lets a
        # :memory: database share its single connection).
        self._lock: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if engine.dialect.name == "sqlite" else contextlib.nullcontext())
        try:
            with self._lock, engine.begin() as conn:
                migrations.upgrade(conn)
        except (sa.exc.SQLAlchemyError, CommandError) as exc:
            engine.dispose()
            raise StorageError(f"cannot open the games database {what}: {reason(exc)}") from exc

    @contextlib.contextmanager
    def _tx(self, conflict: str = "") -> Iterator[sa.Connection]:
        """One transaction; a broken uniqueness rule becomes ``ConflictError(conflict)``."""
        try:
            with self._lock, self._engine.begin() as conn:
                yield conn
        except sa.exc.IntegrityError as exc:
            raise ConflictError(conflict or f"the database refused a duplicate: {reason(exc)}") from exc
        except sa.exc.SQLAlchemyError as exc:
            raise StorageError(f"the games database failed: {reason(exc)}") from exc

    def close(self) -> None:
        """Close every connection (the storage is not used after this)."""
        self._engine.dispose()
