"""Where rooms are kept: each game's settings, seats and action log.

SQLite (the standard library's ``sqlite3``) by default, in a per-user data
directory; PostgreSQL when given a ``postgresql://`` URL and psycopg is
installed.  Both speak the same small ``Storage`` interface.

>>> s = open_storage(":memory:")
>>> s.create("g1", {"mode": "local"}, {"token": "h"})
>>> s.append("g1", 0, {"type": "roll"})
>>> s.load("g1")
({'mode': 'local'}, {'token': 'h'}, [{'type': 'roll'}])
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from table.errors import TableError

JSON = dict[str, Any]


class StorageError(TableError):
    """A storage location that cannot be used, or a game that is not there."""


class Storage(Protocol):
    def create(self, game_id: str, config: JSON, seats: JSON) -> None: ...
    def append(self, game_id: str, seq: int, entry: JSON) -> None: ...
    def load(self, game_id: str) -> tuple[JSON, JSON, list[JSON]]: ...
    def close(self) -> None: ...


def default_path() -> Path:
    """The per-user data file: $XDG_DATA_HOME/table/games.sqlite3 (or the OS's equivalent)."""
    if sys.platform == "win32":  # pragma: no cover
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":  # pragma: no cover
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "table" / "games.sqlite3"


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, created REAL NOT NULL,"
    " config TEXT NOT NULL, seats TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS actions (game_id TEXT NOT NULL REFERENCES games(id),"
    " seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, seq))",
)


class _SqlStorage:
    """The queries both databases share; subclasses open the connection."""

    _db: Any
    _mark = "?"  # the driver's parameter placeholder
    _integrity: type[Exception] = sqlite3.IntegrityError

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def _run(self, sql: str, args: tuple[Any, ...]) -> Any:
        with self._lock:
            return self._db.execute(sql.replace("?", self._mark), args)

    def create(self, game_id: str, config: JSON, seats: JSON) -> None:
        try:
            self._run("INSERT INTO games VALUES (?, ?, ?, ?)",
                      (game_id, time.time(), json.dumps(config), json.dumps(seats)))
        except self._integrity as exc:
            raise StorageError(f"a game {game_id!r} already exists") from exc

    def append(self, game_id: str, seq: int, entry: JSON) -> None:
        try:
            self._run("INSERT INTO actions VALUES (?, ?, ?)", (game_id, seq, json.dumps(entry)))
        except self._integrity as exc:
            raise StorageError(f"game {game_id!r} already has log entry {seq}") from exc

    def load(self, game_id: str) -> tuple[JSON, JSON, list[JSON]]:
        row = self._run("SELECT config, seats FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StorageError(f"there is no game {game_id!r}")
        rows = self._run("SELECT entry FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        return json.loads(row[0]), json.loads(row[1]), [json.loads(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class SQLiteStorage(_SqlStorage):
    """Games in one SQLite file; every call is one short transaction."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for stmt in _SCHEMA:
                self._db.execute(stmt)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the games database {str(path)!r}: {exc}") from exc


class PostgresStorage(_SqlStorage):  # pragma: no cover - runs only where a PostgreSQL server is given
    """The same tables in PostgreSQL, through psycopg (optional dependency)."""

    _mark = "%s"

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:
            raise StorageError("a PostgreSQL URL needs psycopg: pip install 'table[postgres]'") from exc
        self._integrity = psycopg.IntegrityError
        try:
            self._db = psycopg.connect(url, autocommit=True)
            for stmt in _SCHEMA:
                self._db.execute(stmt.replace("REAL", "DOUBLE PRECISION"))
        except psycopg.Error as exc:
            raise StorageError(f"cannot open the PostgreSQL database: {exc}") from exc


def open_storage(where: str | Path | None = None) -> Storage:
    """Storage at ``where``: a file path, ``:memory:``, a ``sqlite:///path`` or ``postgresql://`` URL."""
    if where is None:
        return SQLiteStorage(default_path())
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(text)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        raise StorageError(f"unsupported database URL {text!r}: use a file path, sqlite:/// or postgresql://")
    return SQLiteStorage(text)
