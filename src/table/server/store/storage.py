"""Where everything is kept: games and their logs, players, tables, clocks, points, chat.

SQLite by default, in a per-user data directory; PostgreSQL when given a
``postgresql://`` URL (through psycopg 3: ``pip install 'table[postgres]'``).
Both run the same schema (``table.server.store.schema``) through SQLAlchemy
Core, and opening a database brings it to the newest schema with the Alembic
migrations in ``table.server.store.migrations`` (a release-0.1.0 database
included).  One :class:`SqlStorage` holds every group of queries, each in a
module of its own: ``games`` (logs, clocks), ``players``, ``tables``,
``social`` (chat, site keys, Web Push) and ``results`` (ledger, match
results, ratings, boards).

Every method blocks until the database answers, so async code calls them in
a worker thread (``await asyncio.to_thread(storage.append, ...)``); they are
thread-safe: each call is one transaction on a pooled connection (calls to
SQLite are taken one at a time), and a call that fails changes nothing.
Methods that record a time take ``now`` (seconds since the epoch; default
the current time) so tests can fix it.

>>> s = open_storage(":memory:")
>>> s.create("g1", {"mode": "local"}, {"token": "h"})
>>> s.append("g1", 0, {"type": "roll"})
>>> s.load("g1")
({'mode': 'local'}, {'token': 'h'}, [{'type': 'roll'}])
>>> from table.server.online.ledger import Entry
>>> ana = s.create_player("Ana", "ana", "hash-of-anas-token")
>>> s.add_ledger([Entry(ana.id, 20, "win:single", "g1")])
>>> s.points(ana.id)
20
>>> s.close()
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.pool import StaticPool

from table.server.store.games import GameStore, load_clock
from table.server.store.players import PlayerStore, players_of
from table.server.store.results import ResultStore, ledger_lines, points_of
from table.server.store.social import SocialStore
from table.server.store.tables import TableStore, table_of
from table.server.store.values import StorageError, TableRoom


class SqlStorage(GameStore, PlayerStore, TableStore, SocialStore, ResultStore):
    """Storage in a database SQLAlchemy reaches; make one with :func:`open_storage`."""

    def table_room(self, table_id: str, game_id: str, ledger_limit: int = 1000) -> TableRoom | None:
        """Everything an online room reads as it loads, in one transaction (None: no such table).

        One read instead of five: after a restart every room loads at once
        (docs/performance.md, "Sixth round")."""
        with self._tx() as conn:
            table = table_of(conn, table_id)
            if table is None:
                return None
            ids = [p for p in table.seats if p is not None]
            return TableRoom(table, players_of(conn, ids), points_of(conn, ids), load_clock(conn, game_id),
                             ledger_lines(conn, game_id=game_id, limit=ledger_limit))


def default_path() -> Path:
    """The per-user data file: $XDG_DATA_HOME/table/games.sqlite3 (or the OS's equivalent)."""
    if sys.platform == "win32":  # pragma: no cover
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":  # pragma: no cover
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "table" / "games.sqlite3"


def _switch_to_wal(cursor: Any, patience: float = 30.0) -> None:
    # Changing the journal mode takes a lock that SQLite's busy timeout does
    # not wait for, so servers opening a new file together would fail at
    # once; take turns here instead.
    deadline = time.monotonic() + patience
    delay = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def _sqlite_engine(path: str) -> sa.Engine:
    if path == ":memory:":
        # One connection, shared by every thread (the lock takes turns).
        engine = sa.create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling would not start one before a
        # SELECT; turn it off and BEGIN in "begin" below, as SQLAlchemy advises.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        _switch_to_wal(cursor)
        for pragma in ("synchronous=NORMAL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _postgres_engine(url: str) -> sa.Engine:
    scheme, rest = url.split("://", 1)
    if scheme not in ("postgresql", "postgres", "postgresql+psycopg"):
        raise StorageError(f"unsupported database URL {url!r}: PostgreSQL is reached with postgresql://")
    try:
        return sa.create_engine(f"postgresql+psycopg://{rest}", pool_pre_ping=True)
    except ImportError as exc:
        raise StorageError("a PostgreSQL URL needs psycopg: pip install 'table[postgres]'") from exc


def open_storage(where: str | Path | None = None) -> SqlStorage:
    """Storage at ``where``: a file path, ``:memory:``, a ``sqlite:///path`` or ``postgresql://`` URL.

    With no ``where``, the per-user file :func:`default_path`, whose folder is
    made if needed; any other file must be in a folder that exists.
    """
    if where is None:
        path = default_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return SqlStorage(_sqlite_engine(str(path)), repr(str(path)))
    text = str(where)
    if text.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        return SqlStorage(_postgres_engine(text), "(PostgreSQL)")
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        raise StorageError(f"unsupported database URL {text!r}: use a file path, sqlite:/// or postgresql://")
    if text != ":memory:":
        folder = Path(text).parent
        if not folder.is_dir():
            raise StorageError(f"cannot open the games database {text!r}: the folder {str(folder)!r} does not exist")
    return SqlStorage(_sqlite_engine(text), repr(text))
