"""Where everything is kept: games and their logs, players, tables, clocks, points, chat.

SQLite by default, in a per-user data directory; PostgreSQL when given a
``postgresql://`` URL (through psycopg 3: ``pip install 'table[postgres]'``).
Both run the same schema (``table.server.store.schema``) through SQLAlchemy
Core, and opening a database brings it to the newest schema with the Alembic
migrations in ``table.server.store.migrations`` (a release-0.1.0 database
included).

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
>>> ana = s.create_player("Ana", "ana", "hash-of-anas-token")
>>> s.add_ledger([Entry(ana.id, 20, "win:single", "g1")])
>>> s.points(ana.id)
20
>>> s.close()
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal, Protocol

import sqlalchemy as sa
from alembic.util import CommandError
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.pool import StaticPool

from table.errors import TableError
from table.server.store import migrations
from table.server.store import schema as t
from table.server.ledger import Entry
from table.server.ratings import Rating, rate
from table.server.results import ENDINGS, Outcome

JSON = dict[str, Any]

TableStatus = Literal["open", "playing", "finished", "abandoned"]
TABLE_STATUSES: tuple[TableStatus, ...] = ("open", "playing", "finished", "abandoned")
Channel = Literal["players", "spectators"]
CHANNELS: tuple[Channel, ...] = ("players", "spectators")
CHAT_MAX = 500
"""The longest chat message, in characters."""


class StorageError(TableError):
    """A storage location that cannot be used, or something asked for that is not there."""


class ConflictError(StorageError):
    """Something that must be unique is taken already: a game id, a log place, a name, a seat."""


class Storage(Protocol):
    """What a room needs: a game's settings and seats, and its log, one entry at a time."""

    def create(self, game_id: str, config: JSON, seats: JSON) -> None: ...
    def append(self, game_id: str, seq: int, entry: JSON) -> None: ...
    def load(self, game_id: str) -> tuple[JSON, JSON, list[JSON]]: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class Player:
    """A guest (or a bot) with a nickname; the device token's hash is not carried around."""

    id: int
    name: str
    is_bot: bool
    created: float
    last_seen: float


@dataclass(frozen=True)
class OnlineTable:
    """A table in the lobby; ``seats`` holds the player id in seat 0 and seat 1 (None: free)."""

    id: str
    game_id: str | None
    creator: int
    settings: JSON
    status: TableStatus
    invite: str | None
    created: float
    updated: float
    seats: tuple[int | None, int | None]


@dataclass(frozen=True)
class LedgerLine:
    """A stored ledger entry with its id and time."""

    id: int
    player_id: int
    game_id: str | None
    amount: int
    reason: str
    created: float


@dataclass(frozen=True)
class ChatMessage:
    """A chat message kept at a table; ``id`` grows with every message (use it to page)."""

    id: int
    table_id: str
    channel: Channel
    player_id: int
    text: str
    created: float


@dataclass(frozen=True)
class MatchResult:
    """A stored match result: the outcome, both players' ratings before and after, and when."""

    id: int
    outcome: Outcome
    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]
    created: float


@dataclass(frozen=True)
class PushSubscription:
    """Where the browser of one of a player's devices takes Web Push notices, and its language."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str


Board = Literal["rating", "points"]


def default_path() -> Path:
    """The per-user data file: $XDG_DATA_HOME/table/games.sqlite3 (or the OS's equivalent)."""
    if sys.platform == "win32":  # pragma: no cover
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":  # pragma: no cover
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "table" / "games.sqlite3"


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def _reason(exc: Exception) -> str:
    """The driver's own words when there are some (SQLAlchemy's wrapper adds a link and the SQL)."""
    return str(getattr(exc, "orig", None) or exc).strip()


def public_id(nbytes: int) -> str:
    """A random URL-safe id of ``nbytes`` random bytes that never starts with ``-``.

    Ids are typed after command-line options (``table online --join ID``), where a leading
    ``-`` would read as an option.

    >>> all(not public_id(6).startswith("-") for _ in range(200))
    True
    """
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


def _new_id(result: sa.CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _player(row: sa.Row[Any]) -> Player:
    return Player(row.id, row.name, bool(row.is_bot), row.created, row.last_seen)


def _line(row: sa.Row[Any]) -> LedgerLine:
    return LedgerLine(row.id, row.player_id, row.game_id, row.amount, row.reason, row.created)


def _result(row: sa.Row[Any]) -> MatchResult:
    r = row
    gained = r.length if r.rated else 0
    return MatchResult(
        r.id, Outcome(r.game_id, r.table_id, (r.player0, r.player1), r.length, r.winner, (r.score0, r.score1),
                      r.ended, bool(r.rated)),
        (Rating(r.rating0_before, r.experience0_before), Rating(r.rating1_before, r.experience1_before)),
        (Rating(r.rating0_after, r.experience0_before + gained), Rating(r.rating1_after, r.experience1_before + gained)),
        r.created)


def _rating_after(result: MatchResult, player_id: int) -> Rating:
    return result.after[result.outcome.players.index(player_id)]


def _of_player(player_id: int) -> sa.ColumnElement[bool]:
    c = t.match_results.c
    return sa.or_(c.player0 == player_id, c.player1 == player_id)


def _message(row: sa.Row[Any]) -> ChatMessage:
    return ChatMessage(row.id, row.table_id, row.channel, row.player_id, row.text, row.created)


# The statements of every move, built once: building them costs more than running them.
_TOUCH_GAME = t.games.update().where(t.games.c.id == sa.bindparam("gid")).values(updated=sa.bindparam("now"))
_INSERT_ACTION = t.actions.insert()


@dataclass(frozen=True)
class OnlineWrite:
    """The arguments of one ``append_online`` call, for ``append_online_many``."""

    game_id: str
    seq: int
    entry: JSON
    clock: tuple[JSON, float | None] | None = None
    ledger: Sequence[Entry] = ()
    table: tuple[str, TableStatus] | None = None
    match: Outcome | None = None
    now: float | None = None


class SqlStorage:
    """Storage in a database SQLAlchemy reaches; make one with :func:`open_storage`."""

    def __init__(self, engine: sa.Engine, what: str) -> None:
        self._engine = engine
        self._clock_upsert: sa.Executable | None = None
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
            raise StorageError(f"cannot open the games database {what}: {_reason(exc)}") from exc

    @contextlib.contextmanager
    def _tx(self, conflict: str = "") -> Iterator[sa.Connection]:
        """One transaction; a broken uniqueness rule becomes ``ConflictError(conflict)``."""
        try:
            with self._lock, self._engine.begin() as conn:
                yield conn
        except sa.exc.IntegrityError as exc:
            raise ConflictError(conflict or f"the database refused a duplicate: {_reason(exc)}") from exc
        except sa.exc.SQLAlchemyError as exc:
            raise StorageError(f"the games database failed: {_reason(exc)}") from exc

    def close(self) -> None:
        """Close every connection (the storage is not used after this)."""
        self._engine.dispose()

    # Games -----------------------------------------------------------------

    def create(self, game_id: str, config: JSON, seats: JSON, *, now: float | None = None) -> None:
        """A new game with its settings and seats (the token hashes); its log is empty."""
        when = _now(now)
        with self._tx(f"a game {game_id!r} already exists") as conn:
            conn.execute(t.games.insert().values(id=game_id, created=when, updated=when,
                                                 config=json.dumps(config), seats=json.dumps(seats)))

    def append(self, game_id: str, seq: int, entry: JSON, *, now: float | None = None) -> None:
        """Log ``entry`` at place ``seq`` of the game's log (each place once)."""
        with self._tx(f"game {game_id!r} already has log entry {seq}") as conn:
            touched = conn.execute(_TOUCH_GAME, {"gid": game_id, "now": _now(now)})
            if touched.rowcount == 0:
                raise StorageError(f"there is no game {game_id!r}")
            conn.execute(_INSERT_ACTION, {"game_id": game_id, "seq": seq, "entry": json.dumps(entry)})

    def append_online(self, game_id: str, seq: int, entry: JSON, *, clock: tuple[JSON, float | None] | None = None,
                      ledger: Sequence[Entry] = (), table: tuple[str, TableStatus] | None = None,
                      match: Outcome | None = None, now: float | None = None) -> None:
        """``append`` and, in the same transaction, the game's clock, ledger entries, table status
        and (for the entry that ends the match) its result and rating changes.

        So a log entry that ends a game is never stored without its points (nor
        its points without it), and a clock never disagrees with the log.
        """
        with self._tx(f"game {game_id!r} already has log entry {seq}") as conn:
            self._append_online(conn, OnlineWrite(game_id, seq, entry, clock, ledger, table, match, now))

    def append_online_many(self, writes: Sequence[OnlineWrite]) -> list[StorageError | None]:
        """Several ``append_online`` calls in one transaction, each kept or undone on its own.

        Returns, for each write in order, ``None`` when it is stored or the
        error that kept it out (the others are stored all the same).  One
        commit for many moves: on a busy server the commits are most of the cost.
        """
        outcome: list[StorageError | None] = []
        try:
            with self._tx() as conn:
                for w in writes:
                    try:
                        with conn.begin_nested():
                            self._append_online(conn, w)
                        outcome.append(None)
                    except sa.exc.IntegrityError as exc:
                        outcome.append(ConflictError(f"game {w.game_id!r} already has log entry {w.seq}: "
                                                     f"{_reason(exc)}"))
                    except StorageError as exc:
                        outcome.append(exc)
        except StorageError as exc:  # the commit itself failed: nothing of the batch is stored
            return [exc] * len(writes)
        return outcome

    def _append_online(self, conn: sa.Connection, w: OnlineWrite) -> None:
        when = _now(w.now)
        touched = conn.execute(_TOUCH_GAME, {"gid": w.game_id, "now": when})
        if touched.rowcount == 0:
            raise StorageError(f"there is no game {w.game_id!r}")
        conn.execute(_INSERT_ACTION, {"game_id": w.game_id, "seq": w.seq, "entry": json.dumps(w.entry)})
        if w.clock is not None:
            self._save_clock(conn, w.game_id, *w.clock)
        if w.ledger:
            conn.execute(t.ledger.insert(), [{"player_id": e.player_id, "game_id": e.game_id, "amount": e.amount,
                                              "reason": e.reason, "created": when} for e in w.ledger])
        if w.table is not None:
            if w.table[1] not in TABLE_STATUSES:
                raise StorageError(f"a table's status is one of {', '.join(TABLE_STATUSES)}, got {w.table[1]!r}")
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == w.table[0])
                         .values(status=w.table[1], updated=when))
            if w.table[1] == "finished":
                conn.execute(t.games.update().where(t.games.c.id == w.game_id).values(finished=when))
        if w.match is not None:
            self._record_match(conn, w.match, when)

    def load(self, game_id: str) -> tuple[JSON, JSON, list[JSON]]:
        """A game's settings, seats and log (in order)."""
        with self._tx() as conn:
            row = conn.execute(sa.select(t.games.c.config, t.games.c.seats).where(t.games.c.id == game_id)).first()
            if row is None:
                raise StorageError(f"there is no game {game_id!r}")
            entries = conn.execute(sa.select(t.actions.c.entry).where(t.actions.c.game_id == game_id)
                                   .order_by(t.actions.c.seq)).scalars().all()
        return json.loads(row.config), json.loads(row.seats), [json.loads(e) for e in entries]

    def finish(self, game_id: str, *, now: float | None = None) -> None:
        """Mark a game finished (it then no longer counts as idle)."""
        when = _now(now)
        with self._tx() as conn:
            done = conn.execute(t.games.update().where(t.games.c.id == game_id).values(finished=when, updated=when))
            if done.rowcount == 0:
                raise StorageError(f"there is no game {game_id!r}")

    def idle_games(self, before: float, limit: int = 100) -> list[str]:
        """Unfinished games with nothing logged since ``before``, longest idle first."""
        g = t.games.c
        with self._tx() as conn:
            return list(conn.execute(sa.select(g.id).where(g.finished.is_(None), g.updated < before)
                                     .order_by(g.updated).limit(limit)).scalars())

    # Players ---------------------------------------------------------------

    def create_player(self, name: str, name_key: str, token_hash: str, *, is_bot: bool = False,
                      now: float | None = None) -> Player:
        """A new player; ``name_key`` (see ``players.name_key``) and ``token_hash`` must be new."""
        when = _now(now)
        with self._tx(f"the name {name!r} is taken") as conn:
            if conn.execute(sa.select(t.players.c.id).where(t.players.c.token_hash == token_hash)).first():
                raise ConflictError("this device already has a player")
            new_id = _new_id(conn.execute(t.players.insert().values(
                name=name, name_key=name_key, token_hash=token_hash, is_bot=is_bot,
                created=when, last_seen=when)))
        return Player(new_id, name, is_bot, when, when)

    def _one_player(self, where: sa.ColumnElement[bool]) -> Player | None:
        with self._tx() as conn:
            row = conn.execute(sa.select(t.players).where(where)).first()
        return None if row is None else _player(row)

    def player(self, player_id: int) -> Player | None:
        """The player with this id, if any."""
        return self._one_player(t.players.c.id == player_id)

    def player_by_token_hash(self, token_hash: str) -> Player | None:
        """The player whose device token hashes to ``token_hash``, if any."""
        return self._one_player(t.players.c.token_hash == token_hash)

    def player_by_name_key(self, name_key: str) -> Player | None:
        """The player whose folded name is ``name_key``, if any."""
        return self._one_player(t.players.c.name_key == name_key)

    def token_hash(self, player_id: int) -> str | None:
        """The stored hash of the player's device token (what holds their seats in games), if any."""
        with self._tx() as conn:
            found = conn.execute(sa.select(t.players.c.token_hash).where(t.players.c.id == player_id)).scalar()
        return None if found is None else str(found)

    def touch_player(self, player_id: int, *, now: float | None = None) -> None:
        """Record that the player was seen at ``now``."""
        with self._tx() as conn:
            conn.execute(t.players.update().where(t.players.c.id == player_id).values(last_seen=_now(now)))

    def seen(self, player_ids: Iterable[int]) -> dict[int, float]:
        """When each of ``player_ids`` was last seen (``touch_player``; made: when created)."""
        ids = list(player_ids)
        c = t.players.c
        with self._tx() as conn:
            return {r.id: r.last_seen for r in conn.execute(sa.select(c.id, c.last_seen).where(c.id.in_(ids)))}

    # Online tables ---------------------------------------------------------

    def _table(self, conn: sa.Connection, where: sa.ColumnElement[bool]) -> OnlineTable | None:
        found = self._tables(conn, sa.select(t.online_tables).where(where))
        return found[0] if found else None

    def _tables(self, conn: sa.Connection, query: sa.Select[Any]) -> list[OnlineTable]:
        rows = conn.execute(query).all()
        seats: dict[str, list[int | None]] = {r.id: [None, None] for r in rows}
        if rows:
            for s in conn.execute(sa.select(t.table_seats).where(t.table_seats.c.table_id.in_(list(seats)))):
                seats[s.table_id][s.seat] = s.player_id
        return [OnlineTable(r.id, r.game_id, r.creator, json.loads(r.settings), r.status, r.invite,
                            r.created, r.updated, (seats[r.id][0], seats[r.id][1])) for r in rows]

    def _must_table(self, conn: sa.Connection, table_id: str) -> OnlineTable:
        table = self._table(conn, t.online_tables.c.id == table_id)
        if table is None:
            raise StorageError(f"there is no table {table_id!r}")
        return table

    def create_table(self, creator: int, settings: JSON, *, seat: int = 0,
                     now: float | None = None) -> OnlineTable:
        """An open table with ``creator`` in ``seat``; a private one (``settings["private"]``) gets an invite code."""
        if seat not in (0, 1):
            raise StorageError(f"a seat is 0 or 1, got {seat!r}")
        when = _now(now)
        table_id = public_id(9)
        invite = public_id(6) if settings.get("private") else None
        with self._tx(f"there is no player {creator!r}") as conn:
            conn.execute(t.online_tables.insert().values(
                id=table_id, creator=creator, settings=json.dumps(settings), status="open",
                invite=invite, created=when, updated=when))
            conn.execute(t.table_seats.insert().values(table_id=table_id, seat=seat, player_id=creator))
        seats: tuple[int | None, int | None] = (creator, None) if seat == 0 else (None, creator)
        return OnlineTable(table_id, None, creator, settings, "open", invite, when, when, seats)

    def table(self, table_id: str) -> OnlineTable | None:
        """The table with this id, if any."""
        with self._tx() as conn:
            return self._table(conn, t.online_tables.c.id == table_id)

    def table_by_invite(self, invite: str) -> OnlineTable | None:
        """The private table this invite code opens, if any."""
        with self._tx() as conn:
            return self._table(conn, t.online_tables.c.invite == invite)

    def join_table(self, table_id: str, player_id: int, *, seat: int | None = None,
                   now: float | None = None) -> OnlineTable:
        """Seat ``player_id`` at an open table, in ``seat`` or the free one; return the table."""
        with self._tx("that seat has just been taken") as conn:
            return self._join(conn, table_id, player_id, seat, _now(now))

    def start_table(self, table_id: str, player_id: int, game_id: str, config: JSON, seats: JSON, *,
                    clock: tuple[JSON, float | None] | None = None, now: float | None = None) -> OnlineTable:
        """Seat the second player, make the table's game (``config``, ``seats``) and its clock, and
        mark the table playing: all in one transaction; return the table."""
        when = _now(now)
        with self._tx("that seat has just been taken") as conn:
            self._join(conn, table_id, player_id, None, when)
            conn.execute(t.games.insert().values(id=game_id, created=when, updated=when,
                                                 config=json.dumps(config), seats=json.dumps(seats)))
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id)
                         .values(status="playing", game_id=game_id, updated=when))
            if clock is not None:
                self._save_clock(conn, game_id, *clock)
            return self._must_table(conn, table_id)

    def _join(self, conn: sa.Connection, table_id: str, player_id: int, seat: int | None,
              when: float) -> OnlineTable:
        """Seat ``player_id`` at an open table (the work of ``join_table``, in a transaction)."""
        table = self._must_table(conn, table_id)
        if table.status != "open":
            raise StorageError(f"table {table_id!r} is {table.status}, not open")
        if player_id in table.seats:
            raise ConflictError("you already sit at this table")
        free = [i for i in (0, 1) if table.seats[i] is None]
        if not free:
            raise ConflictError("the table is full")
        if seat is None:
            seat = free[0]
        if seat not in (0, 1):
            raise StorageError(f"a seat is 0 or 1, got {seat!r}")
        if seat not in free:
            raise ConflictError("that seat is taken")
        conn.execute(t.table_seats.insert().values(table_id=table_id, seat=seat, player_id=player_id))
        conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id).values(updated=when))
        return self._must_table(conn, table_id)

    def leave_table(self, table_id: str, player_id: int, *, now: float | None = None) -> OnlineTable:
        """Free the player's seat at a table that has not started; return the table."""
        with self._tx() as conn:
            table = self._must_table(conn, table_id)
            if table.status != "open":
                raise StorageError(f"table {table_id!r} is {table.status}: a seat is freed only before the game")
            gone = conn.execute(t.table_seats.delete().where(t.table_seats.c.table_id == table_id,
                                                             t.table_seats.c.player_id == player_id))
            if gone.rowcount == 0:
                raise StorageError("you do not sit at this table")
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id).values(updated=_now(now)))
            return self._must_table(conn, table_id)

    def set_table_status(self, table_id: str, status: TableStatus, *, game_id: str | None = None,
                         now: float | None = None) -> OnlineTable:
        """Move a table to ``status``; ``game_id`` (when given) links the match being played there."""
        if status not in TABLE_STATUSES:
            raise StorageError(f"a table's status is one of {', '.join(TABLE_STATUSES)}, got {status!r}")
        changes: dict[str, Any] = {"status": status, "updated": _now(now)}
        if game_id is not None:
            changes["game_id"] = game_id
        with self._tx(f"there is no game {game_id!r}") as conn:
            self._must_table(conn, table_id)
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id).values(**changes))
            return self._must_table(conn, table_id)

    def list_tables(self, statuses: Sequence[TableStatus] = ("open", "playing"), *,
                    private: bool = False, limit: int = 100, created_before: float | None = None) -> list[OnlineTable]:
        """Tables in one of ``statuses``, newest first; private ones only when ``private``; only those
        made before ``created_before`` when given."""
        c = t.online_tables.c
        query = sa.select(t.online_tables).where(c.status.in_(list(statuses)))
        if not private:
            query = query.where(c.invite.is_(None))
        if created_before is not None:
            query = query.where(c.created < created_before)
        with self._tx() as conn:
            return self._tables(conn, query.order_by(c.created.desc(), c.id).limit(limit))

    def abandon_open(self, table_ids: Iterable[str], *, now: float | None = None) -> list[str]:
        """Mark those of ``table_ids`` still open ``abandoned`` (nobody joined in time); return them.
        A table somebody has just sat down at stays as it is."""
        c = t.online_tables.c
        when, gone = _now(now), []
        with self._tx() as conn:
            for table_id in table_ids:  # one by one: each row's own count says whether it was still open
                done = conn.execute(t.online_tables.update().where(c.id == table_id, c.status == "open")
                                    .values(status="abandoned", updated=when))
                if done.rowcount:
                    gone.append(table_id)
        return gone

    def player_tables(self, player_id: int, statuses: Sequence[TableStatus] = ("open", "playing"), *,
                      limit: int = 200) -> list[OnlineTable]:
        """The tables where ``player_id`` sits, in one of ``statuses``, newest first (private ones too)."""
        c = t.online_tables.c
        mine = sa.select(t.table_seats.c.table_id).where(t.table_seats.c.player_id == player_id)
        query = sa.select(t.online_tables).where(c.status.in_(list(statuses)), c.id.in_(mine))
        with self._tx() as conn:
            return self._tables(conn, query.order_by(c.created.desc(), c.id).limit(limit))

    # Clocks ----------------------------------------------------------------

    def save_clock(self, game_id: str, state: JSON, deadline: float | None) -> None:
        """Keep a game's clock ``state`` and the time it runs out (None: not running)."""
        with self._tx(f"there is no game {game_id!r}") as conn:
            self._save_clock(conn, game_id, state, deadline)

    def _save_clock(self, conn: sa.Connection, game_id: str, state: JSON, deadline: float | None) -> None:
        if self._clock_upsert is None:  # built once: building it costs more than running it
            insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
            stmt = insert(t.clocks).values(game_id=sa.bindparam("gid"), state=sa.bindparam("st"),
                                           deadline=sa.bindparam("dl"))
            self._clock_upsert = stmt.on_conflict_do_update(
                index_elements=[t.clocks.c.game_id], set_={"state": stmt.excluded.state, "deadline": stmt.excluded.deadline})
        conn.execute(self._clock_upsert, {"gid": game_id, "st": json.dumps(state), "dl": deadline})

    def load_clock(self, game_id: str) -> tuple[JSON, float | None] | None:
        """A game's clock state and deadline, or None if it has no clock."""
        with self._tx() as conn:
            row = conn.execute(sa.select(t.clocks).where(t.clocks.c.game_id == game_id)).first()
        return None if row is None else (json.loads(row.state), row.deadline)

    def clocks_of(self, game_ids: Iterable[str]) -> dict[str, JSON]:
        """The stored clock states of ``game_ids`` (those that have one)."""
        ids = list(game_ids)
        if not ids:
            return {}
        with self._tx() as conn:
            rows = conn.execute(sa.select(t.clocks.c.game_id, t.clocks.c.state).where(t.clocks.c.game_id.in_(ids)))
            return {row.game_id: json.loads(row.state) for row in rows}

    def expired_clocks(self, now: float, limit: int = 100) -> list[str]:
        """Games whose clock ran out at or before ``now``, earliest first."""
        c = t.clocks.c
        with self._tx() as conn:
            return list(conn.execute(sa.select(c.game_id).where(c.deadline <= now)
                                     .order_by(c.deadline).limit(limit)).scalars())

    # Ledger ----------------------------------------------------------------

    def add_ledger(self, entries: Iterable[Entry], *, now: float | None = None) -> None:
        """Post ``entries`` (all or none)."""
        rows = [{"player_id": e.player_id, "game_id": e.game_id, "amount": e.amount,
                 "reason": e.reason, "created": _now(now)} for e in entries]
        if rows:
            with self._tx("a ledger entry names a player or game that does not exist") as conn:
                conn.execute(t.ledger.insert(), rows)

    def points(self, player_id: int) -> int:
        """The player's points: the sum of their ledger entries (0 with none)."""
        return self.points_of([player_id])[player_id]

    def points_of(self, player_ids: Iterable[int]) -> dict[int, int]:
        """Points for each of ``player_ids``."""
        ids = list(player_ids)
        c = t.ledger.c
        with self._tx() as conn:
            sums = {row[0]: row[1] for row in conn.execute(
                sa.select(c.player_id, sa.func.sum(c.amount)).where(c.player_id.in_(ids)).group_by(c.player_id))}
        return {i: int(sums.get(i) or 0) for i in ids}

    def reasons(self, player_id: int) -> dict[str, int]:
        """How many of the player's ledger entries there are for each reason (their record)."""
        c = t.ledger.c
        with self._tx() as conn:
            return {str(r): int(n) for r, n in conn.execute(
                sa.select(c.reason, sa.func.count()).where(c.player_id == player_id).group_by(c.reason))}

    def leaderboard(self, limit: int = 20) -> list[tuple[Player, int]]:
        """The people with the most points (bots left out), most first; ties by name."""
        total = sa.func.sum(t.ledger.c.amount).label("total")
        query = (sa.select(t.players, total).join(t.ledger, t.ledger.c.player_id == t.players.c.id)
                 .where(t.players.c.is_bot.is_(False)).group_by(t.players.c.id)
                 .order_by(total.desc(), t.players.c.name_key).limit(limit))
        with self._tx() as conn:
            return [(_player(row), int(row.total)) for row in conn.execute(query)]

    def ledger(self, *, player_id: int | None = None, game_id: str | None = None,
               limit: int = 100) -> list[LedgerLine]:
        """Ledger entries, newest first, of one player and/or one game."""
        c = t.ledger.c
        query = sa.select(t.ledger)
        if player_id is not None:
            query = query.where(c.player_id == player_id)
        if game_id is not None:
            query = query.where(c.game_id == game_id)
        with self._tx() as conn:
            return [_line(r) for r in conn.execute(query.order_by(c.id.desc()).limit(limit))]

    # Match results and ratings -------------------------------------------

    def record_match(self, outcome: Outcome, *, now: float | None = None) -> MatchResult:
        """Keep a finished match's result and, when it is rated, both players' new ratings."""
        with self._tx(f"game {outcome.game_id!r} already has a result") as conn:
            return self._record_match(conn, outcome, _now(now))

    def _record_match(self, conn: sa.Connection, o: Outcome, when: float) -> MatchResult:
        if o.ended not in ENDINGS or o.winner not in (0, 1) or o.players[0] == o.players[1]:
            raise StorageError(f"a match result has two players, a winning seat 0 or 1 and an ending "
                               f"among {', '.join(ENDINGS)}: got {o!r}")
        # Two matches of one player ending at once must not both start from the same rating.
        conn.execute(sa.select(t.players.c.id).where(t.players.c.id.in_(o.players)).with_for_update())
        before = (self._rating(conn, o.players[0]), self._rating(conn, o.players[1]))
        after = before
        if o.rated:
            won, lost = rate(before[o.winner], before[1 - o.winner], o.length)
            after = (won, lost) if o.winner == 0 else (lost, won)
        new_id = _new_id(conn.execute(t.match_results.insert().values(
            game_id=o.game_id, table_id=o.table_id, player0=o.players[0], player1=o.players[1], length=o.length,
            winner=o.winner, score0=o.score[0], score1=o.score[1], ended=o.ended, rated=o.rated,
            rating0_before=before[0].rating, rating0_after=after[0].rating, rating1_before=before[1].rating,
            rating1_after=after[1].rating, experience0_before=before[0].experience,
            experience1_before=before[1].experience, created=when)))
        return MatchResult(new_id, o, before, after, when)

    def _rating(self, conn: sa.Connection, player_id: int) -> Rating:
        row = conn.execute(sa.select(t.match_results).where(_of_player(player_id))
                           .order_by(t.match_results.c.id.desc()).limit(1)).first()
        return Rating() if row is None else _rating_after(_result(row), player_id)

    def rating(self, player_id: int) -> Rating:
        """The player's rating and experience now (1500 and 0 before any rated match)."""
        with self._tx() as conn:
            return self._rating(conn, player_id)

    def match_results(self, player_id: int | None = None, *, limit: int = 100, offset: int = 0,
                      newest_first: bool = True, rated: bool | None = None) -> list[MatchResult]:
        """Stored match results, of one player or of everybody (rated ones only, or unrated ones only,
        when ``rated`` says), newest (or oldest) first."""
        c = t.match_results.c
        query = sa.select(t.match_results)
        if player_id is not None:
            query = query.where(_of_player(player_id))
        if rated is not None:
            query = query.where(c.rated.is_(rated))
        with self._tx() as conn:
            return [_result(r) for r in conn.execute(
                query.order_by(c.id.desc() if newest_first else c.id).limit(limit).offset(offset))]

    def count_results(self, player_id: int) -> int:
        """How many finished online matches the player has."""
        return self.match_record(player_id)["games"]

    def match_record(self, player_id: int) -> dict[str, int]:
        """The player's finished online matches: ``games``, ``wins_white`` (won in seat 0),
        ``wins_black`` (seat 1) and ``points_played`` (the sum of their lengths)."""
        c = t.match_results.c
        white = sa.func.sum(sa.case((sa.and_(c.player0 == player_id, c.winner == 0), 1), else_=0))
        black = sa.func.sum(sa.case((sa.and_(c.player1 == player_id, c.winner == 1), 1), else_=0))
        with self._tx() as conn:
            row = conn.execute(sa.select(sa.func.count(), white, black, sa.func.sum(c.length))
                               .where(_of_player(player_id))).one()
        return {"games": int(row[0]), "wins_white": int(row[1] or 0), "wins_black": int(row[2] or 0),
                "points_played": int(row[3] or 0)}

    def site_results(self) -> dict[str, int]:
        """Online matches finished and won by seat 0 (white) and seat 1 (black), and started but unfinished."""
        c, tb = t.match_results.c, t.online_tables.c
        with self._tx() as conn:
            wins = {int(w): int(n) for w, n in conn.execute(sa.select(c.winner, sa.func.count()).group_by(c.winner))}
            unfinished = conn.execute(sa.select(sa.func.count()).select_from(t.online_tables).where(
                tb.game_id.is_not(None), tb.game_id.not_in(sa.select(c.game_id)))).scalar()
        return {"white": wins.get(0, 0), "black": wins.get(1, 0), "unfinished": int(unfinished or 0)}

    def board(self, by: Board, since: float | None = None, *, limit: int = 20,
              offset: int = 0) -> tuple[list[tuple[Player, float]], int]:
        """People (bots left out) ranked by rating or points, best first, ties by name; with ``since``,
        by what they gained from then on.  Returns one page and how many are ranked in all."""
        if by == "points":
            c = t.ledger.c
            scores = sa.select(c.player_id.label("p"), sa.func.sum(c.amount).label("v"))
            if since is not None:
                scores = scores.where(c.created >= since)
            ranked = scores.group_by(c.player_id).subquery()
        elif by == "rating":
            r = t.match_results.c
            sides = [sa.select(getattr(r, f"player{i}").label("p"), r.id.label("id"),
                               getattr(r, f"rating{i}_before").label("b"), getattr(r, f"rating{i}_after").label("a"))
                     .where(r.rated.is_(True), *([r.created >= since] if since is not None else []))
                     for i in (0, 1)]
            u = sa.union_all(*sides).subquery()
            numbered = sa.select(u.c.p, u.c.b, u.c.a,
                                 sa.func.row_number().over(partition_by=u.c.p, order_by=u.c.id.desc()).label("last"),
                                 sa.func.row_number().over(partition_by=u.c.p, order_by=u.c.id).label("first")
                                 ).subquery()
            last = sa.func.sum(sa.case((numbered.c.last == 1, numbered.c.a), else_=0.0))
            first = sa.func.sum(sa.case((numbered.c.first == 1, numbered.c.b), else_=0.0))
            value = last if since is None else last - first
            ranked = sa.select(numbered.c.p, value.label("v")).group_by(numbered.c.p).subquery()
        else:
            raise StorageError(f"a leaderboard is by 'rating' or 'points', got {by!r}")
        pl = t.players.c
        base = (sa.select(t.players, ranked.c.v).join(ranked, ranked.c.p == pl.id).where(pl.is_bot.is_(False)))
        with self._tx() as conn:
            total = conn.execute(sa.select(sa.func.count()).select_from(base.subquery())).scalar()
            rows = conn.execute(base.order_by(ranked.c.v.desc(), pl.name_key).limit(limit).offset(offset)).all()
        return [(_player(row), float(row.v)) for row in rows], int(total or 0)

    # Chat ------------------------------------------------------------------

    def add_chat(self, table_id: str, channel: Channel, player_id: int, text: str, *,
                 now: float | None = None) -> ChatMessage:
        """Keep a chat message said at a table, to the players or to the spectators."""
        if channel not in CHANNELS:
            raise StorageError(f"a chat channel is 'players' or 'spectators', got {channel!r}")
        if not text.strip() or len(text) > CHAT_MAX:
            raise StorageError(f"a chat message has 1 to {CHAT_MAX} characters")
        when = _now(now)
        with self._tx("there is no such table or player") as conn:
            new_id = _new_id(conn.execute(t.chat.insert().values(table_id=table_id, channel=channel, player_id=player_id,
                                                         text=text, created=when)))
        return ChatMessage(new_id, table_id, channel, player_id, text, when)

    def chat_messages(self, table_id: str, channel: Channel, *, after: int = 0,
                      limit: int = 100) -> list[ChatMessage]:
        """The latest ``limit`` messages of a channel with an id above ``after``, oldest first."""
        c = t.chat.c
        with self._tx() as conn:
            rows = conn.execute(sa.select(t.chat).where(c.table_id == table_id, c.channel == channel, c.id > after)
                                .order_by(c.id.desc()).limit(limit)).all()
        return [_message(r) for r in reversed(rows)]

    # Web Push ----------------------------------------------------------------

    def site_key(self, name: str, make: Callable[[], str], *, now: float | None = None) -> str:
        """The site's secret ``name``, made by ``make()`` and kept the first time it is asked for.

        Two servers asking at once both get the one that was stored first.
        """
        c = t.site_keys.c
        with self._tx() as conn:
            found = conn.execute(sa.select(c.value).where(c.name == name)).scalar()
        if found is not None:
            return str(found)
        try:
            with self._tx() as conn:
                conn.execute(t.site_keys.insert().values(name=name, value=make(), created=_now(now)))
        except ConflictError:
            pass  # another process made it first: theirs is the one
        with self._tx() as conn:
            return str(conn.execute(sa.select(c.value).where(c.name == name)).scalar_one())

    def site_value(self, name: str) -> str | None:
        """The site-wide value ``name`` kept by ``set_site_value`` (None: never kept)."""
        c = t.site_keys.c
        with self._tx() as conn:
            found = conn.execute(sa.select(c.value).where(c.name == name)).scalar()
        return None if found is None else str(found)

    def set_site_value(self, name: str, value: str, *, now: float | None = None) -> None:
        """Keep ``value`` as the site-wide value ``name``, in place of any kept before."""
        c = t.site_keys.c
        insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        stmt = insert(t.site_keys).values(name=name, value=value, created=_now(now))
        with self._tx() as conn:
            conn.execute(stmt.on_conflict_do_update(index_elements=[c.name], set_={"value": stmt.excluded.value}))

    def add_push(self, player_id: int, sub: PushSubscription, *, now: float | None = None, keep: int = 10) -> None:
        """Send ``player_id``'s notices to ``sub`` (an endpoint already kept moves to this player);
        only their ``keep`` newest devices are kept."""
        c = t.push_subscriptions.c
        with self._tx("there is no such player") as conn:
            conn.execute(t.push_subscriptions.delete().where(c.endpoint == sub.endpoint))
            conn.execute(t.push_subscriptions.insert().values(
                player_id=player_id, endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, lang=sub.lang,
                created=_now(now)))
            newest = sa.select(c.id).where(c.player_id == player_id).order_by(c.id.desc()).limit(keep)
            conn.execute(t.push_subscriptions.delete().where(c.player_id == player_id, c.id.not_in(newest)))

    def remove_push(self, endpoint: str, player_id: int | None = None) -> None:
        """Stop sending to ``endpoint`` (only if it is ``player_id``'s, when given)."""
        c = t.push_subscriptions.c
        query = t.push_subscriptions.delete().where(c.endpoint == endpoint)
        if player_id is not None:
            query = query.where(c.player_id == player_id)
        with self._tx() as conn:
            conn.execute(query)

    def pushes(self, player_id: int) -> list[PushSubscription]:
        """Every device ``player_id`` takes notices on."""
        c = t.push_subscriptions.c
        with self._tx() as conn:
            rows = conn.execute(sa.select(c.endpoint, c.p256dh, c.auth, c.lang).where(c.player_id == player_id)
                                .order_by(c.id)).all()
        return [PushSubscription(r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]


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
