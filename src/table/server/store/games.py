"""Games, their logs and their clocks: what a room creates, appends to and loads.

>>> from table.server.store import open_storage
>>> s = open_storage(":memory:")
>>> s.create("g1", {"mode": "local"}, {"token": "h"})
>>> s.append("g1", 0, {"type": "roll"})
>>> s.save_clock("g1", {"left": [60, 60]}, 100.0)
>>> s.load("g1"), s.load_clock("g1"), s.expired_clocks(100.0)
(({'mode': 'local'}, {'token': 'h'}, [{'type': 'roll'}]), ({'left': [60, 60]}, 100.0), ['g1'])
>>> s.close()
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from table.server.online.ledger import Entry
from table.server.online.results import Outcome
from table.server.store import schema as t
from table.server.store.base import StoreBase, reason, when
from table.server.store.results import record_match
from table.server.store.values import (
    JSON,
    TABLE_STATUSES,
    ConflictError,
    OnlineWrite,
    StorageError,
    TableStatus,
)

# The statements of every move, built once: building them costs more than running them.
_TOUCH_GAME = t.games.update().where(t.games.c.id == sa.bindparam("gid")).values(updated=sa.bindparam("now"))
_INSERT_ACTION = t.actions.insert()
_CLOCK_UPSERT: dict[str, sa.Executable] = {}  # by dialect


def insert_game(conn: sa.Connection, game_id: str, config: JSON, seats: JSON, at: float) -> None:
    """A new game with an empty log, in the transaction of ``conn``."""
    conn.execute(t.games.insert().values(id=game_id, created=at, updated=at,
                                         config=json.dumps(config), seats=json.dumps(seats)))


def save_clock(conn: sa.Connection, game_id: str, state: JSON, deadline: float | None) -> None:
    """Keep a game's clock, in the transaction of ``conn``."""
    conn.execute(_clock_upsert(conn.dialect.name), {"gid": game_id, "st": json.dumps(state), "dl": deadline})


def _clock_upsert(dialect: str) -> sa.Executable:
    """The statement that keeps a clock (parameters ``gid``, ``st``, ``dl``), for ``dialect``."""
    upsert = _CLOCK_UPSERT.get(dialect)
    if upsert is None:  # built once: building it costs more than running it
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        stmt = insert(t.clocks).values(game_id=sa.bindparam("gid"), state=sa.bindparam("st"),
                                       deadline=sa.bindparam("dl"))
        upsert = _CLOCK_UPSERT[dialect] = stmt.on_conflict_do_update(
            index_elements=[t.clocks.c.game_id], set_={"state": stmt.excluded.state, "deadline": stmt.excluded.deadline})
    return upsert


class GameStore(StoreBase):
    """Games, their logs and clocks."""

    def create(self, game_id: str, config: JSON, seats: JSON, *, now: float | None = None) -> None:
        """A new game with its settings and seats (the token hashes); its log is empty."""
        with self._tx(f"a game {game_id!r} already exists") as conn:
            insert_game(conn, game_id, config, seats, when(now))

    def append(self, game_id: str, seq: int, entry: JSON, *, now: float | None = None) -> None:
        """Log ``entry`` at place ``seq`` of the game's log (each place once)."""
        with self._tx(f"game {game_id!r} already has log entry {seq}") as conn:
            touched = conn.execute(_TOUCH_GAME, {"gid": game_id, "now": when(now)})
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
            _append_online(conn, OnlineWrite(game_id, seq, entry, clock, ledger, table, match, now))

    def append_online_many(self, writes: Sequence[OnlineWrite]) -> list[StorageError | None]:
        """Several ``append_online`` calls in one transaction, each kept or undone on its own.

        Returns, for each write in order, ``None`` when it is stored or the
        error that kept it out (the others are stored all the same).  One
        commit for many moves: on a busy server the commits are most of the cost.

        The writes are first tried all together, the plain moves (no points,
        table or result with them) each kind of statement once for all of them;
        only when that transaction fails is each one tried again in a savepoint
        of its own, to say which was refused.  A refusal is rare (a second writer
        of the same log place), and statements are most of what is left.
        """
        if len({w.game_id for w in writes}) == len(writes):  # the same game twice: in order, one by one
            try:
                with self._tx() as conn:
                    _append_online_together(conn, writes)
                return [None] * len(writes)
            except StorageError:
                pass  # nothing of the batch is stored: again, one by one
        return self._append_each(writes)

    def _append_each(self, writes: Sequence[OnlineWrite]) -> list[StorageError | None]:
        """``append_online_many`` with a savepoint for each write."""
        outcome: list[StorageError | None] = []
        try:
            with self._tx() as conn:
                for w in writes:
                    try:
                        with conn.begin_nested():
                            _append_online(conn, w)
                        outcome.append(None)
                    except sa.exc.IntegrityError as exc:
                        outcome.append(ConflictError(f"game {w.game_id!r} already has log entry {w.seq}: "
                                                     f"{reason(exc)}"))
                    except StorageError as exc:
                        outcome.append(exc)
        except StorageError as exc:  # the commit itself failed: nothing of the batch is stored
            return [exc] * len(writes)
        return outcome

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
        at = when(now)
        with self._tx() as conn:
            done = conn.execute(t.games.update().where(t.games.c.id == game_id).values(finished=at, updated=at))
            if done.rowcount == 0:
                raise StorageError(f"there is no game {game_id!r}")

    def idle_games(self, before: float, limit: int = 100) -> list[str]:
        """Unfinished games with nothing logged since ``before``, longest idle first."""
        g = t.games.c
        with self._tx() as conn:
            return list(conn.execute(sa.select(g.id).where(g.finished.is_(None), g.updated < before)
                                     .order_by(g.updated).limit(limit)).scalars())

    # Clocks ----------------------------------------------------------------

    def save_clock(self, game_id: str, state: JSON, deadline: float | None) -> None:
        """Keep a game's clock ``state`` and the time it runs out (None: not running)."""
        with self._tx(f"there is no game {game_id!r}") as conn:
            save_clock(conn, game_id, state, deadline)

    def load_clock(self, game_id: str) -> tuple[JSON, float | None] | None:
        """A game's clock state and deadline, or None if it has no clock."""
        with self._tx() as conn:
            return load_clock(conn, game_id)

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


def _plain(w: OnlineWrite) -> bool:
    return not w.ledger and w.table is None and w.match is None


# The most rows one of the batch's statements carries (three parameters a row, far under the
# databases' limits on parameters).
BATCH_ROWS = 200


def _append_online_together(conn: sa.Connection, writes: Sequence[OnlineWrite]) -> None:
    """``_append_online`` for each of ``writes`` (of different games), the plain ones through one
    statement of each kind; raises on the first thing refused, and then the transaction is undone."""
    plain = [w for w in writes if _plain(w)]
    for start in range(0, len(plain), BATCH_ROWS):
        _append_plain(conn, plain[start:start + BATCH_ROWS])
    for w in writes:
        if not _plain(w):
            _append_online(conn, w)


def _append_plain(conn: sa.Connection, plain: Sequence[OnlineWrite]) -> None:
    """Plain moves of different games, each kind of row in one statement of many rows.

    Not one row at a time (``executemany``), which the driver runs row by row: under load the writer's
    batches took 2-4 times their CPU time, and with one statement a kind its CPU and wall time per move
    fell by a tenth or more (docs/performance.md, "Fifth round")."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    ids = [w.game_id for w in plain]
    touched = conn.exec_driver_sql(_many_rows_sql(conn, "touch", mark, len(plain)),
                                   (max(when(w.now) for w in plain), *ids))
    if touched.rowcount != len(plain):
        raise StorageError("a game of the batch is missing")
    conn.exec_driver_sql(_many_rows_sql(conn, "actions", mark, len(plain)),
                         tuple(v for w in plain for v in (w.game_id, w.seq, json.dumps(w.entry))))
    clocks = [(w.game_id, w.clock) for w in plain if w.clock is not None]
    if clocks:
        conn.exec_driver_sql(_many_rows_sql(conn, "clocks", mark, len(clocks)),
                             tuple(v for gid, (state, deadline) in clocks for v in (gid, json.dumps(state), deadline)))


_MANY_ROWS: dict[tuple[str, str, str, int], str] = {}


def _many_rows_sql(conn: sa.Connection, kind: str, mark: str, n: int) -> str:
    """The SQL of a batch statement for ``n`` rows: the games touched (at the batch's time), the
    log entries, or the clocks (kept whether new or not), with the driver's parameter ``mark``."""
    key = (conn.dialect.name, kind, mark, n)
    sql = _MANY_ROWS.get(key)
    if sql is None:
        name = conn.dialect.identifier_preparer.format_table
        if kind == "touch":
            sql = f"UPDATE {name(t.games)} SET updated = {mark} WHERE id IN ({', '.join([mark] * n)})"
        else:
            rows = ", ".join([f"({mark}, {mark}, {mark})"] * n)
            sql = (f"INSERT INTO {name(t.actions)} (game_id, seq, entry) VALUES {rows}" if kind == "actions" else
                   f"INSERT INTO {name(t.clocks)} (game_id, state, deadline) VALUES {rows} "
                   "ON CONFLICT (game_id) DO UPDATE SET state = excluded.state, deadline = excluded.deadline")
        _MANY_ROWS[key] = sql  # at most three kinds of BATCH_ROWS sizes for each database
    return sql


def load_clock(conn: sa.Connection, game_id: str) -> tuple[JSON, float | None] | None:
    """``GameStore.load_clock`` in the transaction of ``conn``."""
    row = conn.execute(sa.select(t.clocks).where(t.clocks.c.game_id == game_id)).first()
    return None if row is None else (json.loads(row.state), row.deadline)


def _append_online(conn: sa.Connection, w: OnlineWrite) -> None:
    """One ``append_online``, in the transaction of ``conn``."""
    at = when(w.now)
    touched = conn.execute(_TOUCH_GAME, {"gid": w.game_id, "now": at})
    if touched.rowcount == 0:
        raise StorageError(f"there is no game {w.game_id!r}")
    conn.execute(_INSERT_ACTION, {"game_id": w.game_id, "seq": w.seq, "entry": json.dumps(w.entry)})
    if w.clock is not None:
        save_clock(conn, w.game_id, *w.clock)
    if w.ledger:
        conn.execute(t.ledger.insert(), [{"player_id": e.player_id, "game_id": e.game_id, "amount": e.amount,
                                          "reason": e.reason, "created": at} for e in w.ledger])
    if w.table is not None:
        if w.table[1] not in TABLE_STATUSES:
            raise StorageError(f"a table's status is one of {', '.join(TABLE_STATUSES)}, got {w.table[1]!r}")
        conn.execute(t.online_tables.update().where(t.online_tables.c.id == w.table[0])
                     .values(status=w.table[1], updated=at))
        if w.table[1] == "finished":
            conn.execute(t.games.update().where(t.games.c.id == w.game_id).values(finished=at))
    if w.match is not None:
        record_match(conn, w.match, at)
