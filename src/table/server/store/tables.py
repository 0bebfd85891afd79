"""Online tables: open, joined, started, left, listed; a table's seats live in ``table_seats``.

>>> from table.server.store import open_storage
>>> s = open_storage(":memory:")
>>> ana, ion = (s.create_player(n, n.lower(), "h-" + n) for n in ("Ana", "Ion"))
>>> table = s.create_table(ana.id, {"length": 3})
>>> s.join_table(table.id, ion.id).seats == (ana.id, ion.id), s.list_tables()[0].status
(True, 'open')
>>> s.close()
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa

from table.server.store import schema as t
from table.server.store.base import StoreBase, when
from table.server.store.games import insert_game, save_clock
from table.server.store.values import (
    JSON,
    TABLE_STATUSES,
    ConflictError,
    OnlineTable,
    StorageError,
    TableStatus,
    public_id,
)


def _table(conn: sa.Connection, where: sa.ColumnElement[bool]) -> OnlineTable | None:
    found = _tables(conn, sa.select(t.online_tables).where(where))
    return found[0] if found else None


def _tables(conn: sa.Connection, query: sa.Select[Any]) -> list[OnlineTable]:
    rows = conn.execute(query).all()
    seats: dict[str, list[int | None]] = {r.id: [None, None] for r in rows}
    if rows:
        for s in conn.execute(sa.select(t.table_seats).where(t.table_seats.c.table_id.in_(list(seats)))):
            seats[s.table_id][s.seat] = s.player_id
    return [OnlineTable(r.id, r.game_id, r.creator, json.loads(r.settings), r.status, r.invite,
                        r.created, r.updated, (seats[r.id][0], seats[r.id][1])) for r in rows]


def table_of(conn: sa.Connection, table_id: str) -> OnlineTable | None:
    """``TableStore.table`` in the transaction of ``conn``."""
    return _table(conn, t.online_tables.c.id == table_id)


def _must_table(conn: sa.Connection, table_id: str) -> OnlineTable:
    table = _table(conn, t.online_tables.c.id == table_id)
    if table is None:
        raise StorageError(f"there is no table {table_id!r}")
    return table


def _join(conn: sa.Connection, table_id: str, player_id: int, seat: int | None,
          at: float) -> OnlineTable:
    """Seat ``player_id`` at an open table (the work of ``join_table``, in a transaction)."""
    table = _must_table(conn, table_id)
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
    conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id).values(updated=at))
    return _must_table(conn, table_id)


class TableStore(StoreBase):
    """Online tables and their seats."""

    def create_table(self, creator: int, settings: JSON, *, seat: int = 0,
                     now: float | None = None) -> OnlineTable:
        """An open table with ``creator`` in ``seat``; a private one (``settings["private"]``) gets an invite code."""
        if seat not in (0, 1):
            raise StorageError(f"a seat is 0 or 1, got {seat!r}")
        at = when(now)
        table_id = public_id(9)
        invite = public_id(6) if settings.get("private") else None
        with self._tx(f"there is no player {creator!r}") as conn:
            conn.execute(t.online_tables.insert().values(
                id=table_id, creator=creator, settings=json.dumps(settings), status="open",
                invite=invite, created=at, updated=at))
            conn.execute(t.table_seats.insert().values(table_id=table_id, seat=seat, player_id=creator))
        seats: tuple[int | None, int | None] = (creator, None) if seat == 0 else (None, creator)
        return OnlineTable(table_id, None, creator, settings, "open", invite, at, at, seats)

    def table(self, table_id: str) -> OnlineTable | None:
        """The table with this id, if any."""
        with self._tx() as conn:
            return table_of(conn, table_id)

    def table_by_invite(self, invite: str) -> OnlineTable | None:
        """The private table this invite code opens, if any."""
        with self._tx() as conn:
            return _table(conn, t.online_tables.c.invite == invite)

    def join_table(self, table_id: str, player_id: int, *, seat: int | None = None,
                   now: float | None = None) -> OnlineTable:
        """Seat ``player_id`` at an open table, in ``seat`` or the free one; return the table."""
        with self._tx("that seat has just been taken") as conn:
            return _join(conn, table_id, player_id, seat, when(now))

    def start_table(self, table_id: str, player_id: int, game_id: str, config: JSON, seats: JSON, *,
                    clock: tuple[JSON, float | None] | None = None, now: float | None = None) -> OnlineTable:
        """Seat the second player, make the table's game (``config``, ``seats``) and its clock, and
        mark the table playing: all in one transaction; return the table."""
        at = when(now)
        with self._tx("that seat has just been taken") as conn:
            _join(conn, table_id, player_id, None, at)
            insert_game(conn, game_id, config, seats, at)
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id)
                         .values(status="playing", game_id=game_id, updated=at))
            if clock is not None:
                save_clock(conn, game_id, *clock)
            return _must_table(conn, table_id)

    def leave_table(self, table_id: str, player_id: int, *, now: float | None = None) -> OnlineTable:
        """Free the player's seat at a table that has not started; return the table."""
        with self._tx() as conn:
            table = _must_table(conn, table_id)
            if table.status != "open":
                raise StorageError(f"table {table_id!r} is {table.status}: a seat is freed only before the game")
            gone = conn.execute(t.table_seats.delete().where(t.table_seats.c.table_id == table_id,
                                                             t.table_seats.c.player_id == player_id))
            if gone.rowcount == 0:
                raise StorageError("you do not sit at this table")
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id).values(updated=when(now)))
            return _must_table(conn, table_id)

    def set_table_status(self, table_id: str, status: TableStatus, *, game_id: str | None = None,
                         now: float | None = None) -> OnlineTable:
        """Move a table to ``status``; ``game_id`` (when given) links the match being played there."""
        if status not in TABLE_STATUSES:
            raise StorageError(f"a table's status is one of {', '.join(TABLE_STATUSES)}, got {status!r}")
        changes: dict[str, Any] = {"status": status, "updated": when(now)}
        if game_id is not None:
            changes["game_id"] = game_id
        with self._tx(f"there is no game {game_id!r}") as conn:
            _must_table(conn, table_id)
            conn.execute(t.online_tables.update().where(t.online_tables.c.id == table_id).values(**changes))
            return _must_table(conn, table_id)

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
            return _tables(conn, query.order_by(c.created.desc(), c.id).limit(limit))

    def abandon_open(self, table_ids: Iterable[str], *, now: float | None = None) -> list[str]:
        """Mark those of ``table_ids`` still open ``abandoned`` (nobody joined in time); return them.
        A table somebody has just sat down at stays as it is."""
        c = t.online_tables.c
        at, gone = when(now), []
        with self._tx() as conn:
            for table_id in table_ids:  # one by one: each row's own count says whether it was still open
                done = conn.execute(t.online_tables.update().where(c.id == table_id, c.status == "open")
                                    .values(status="abandoned", updated=at))
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
            return _tables(conn, query.order_by(c.created.desc(), c.id).limit(limit))
