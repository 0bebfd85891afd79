"""The writer's batches (``append_online_many``): many plain moves in a few statements, and a refusal
still told write by write, on both databases."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from table.server.online.ledger import Entry
from table.server.store import ConflictError, OnlineWrite, SqlStorage, StorageError

from tests.server.storage_fixtures import storage, where  # noqa: F401 - fixtures


@contextmanager
def statements(storage: SqlStorage, many: list[str] | None = None) -> Iterator[list[str]]:
    """The SQL statements the database is sent meanwhile (an executemany counts once, and goes
    into ``many`` too)."""
    seen: list[str] = []

    def note(conn: object, cursor: object, statement: str, parameters: object, context: object,
             executemany: bool) -> None:
        seen.append(statement)
        if executemany and many is not None:
            many.append(statement)

    engine = storage._engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)


@pytest.fixture
def games(storage):
    """Twelve online games at tables of their own, each with its opening roll logged."""
    ana = storage.create_player("Ana", "ana", "hash-a", now=1000.0)
    ion = storage.create_player("Ion", "ion", "hash-i", now=1001.0)
    ids = []
    for n in range(12):
        table = storage.create_table(ana.id, {"length": 1})
        storage.start_table(table.id, ion.id, f"g{n}", {}, {})
        storage.append_online(f"g{n}", 0, {"type": "roll"})
        ids.append(f"g{n}")
    return ids, ana, ion


def test_plain_moves_of_many_games_take_as_many_statements_as_those_of_two(storage, games):
    ids, _, _ = games
    counts = []
    for batch in (ids[:2], ids[2:12]):
        with statements(storage) as seen:
            results = storage.append_online_many([
                OnlineWrite(g, 1, {"type": "move", "n": g}, clock=({"c": g}, 50.0)) for g in batch])
        assert results == [None] * len(batch)
        counts.append(len([s for s in seen if not s.upper().startswith(("BEGIN", "COMMIT"))]))
    assert counts[0] == counts[1] <= 3  # the game touched, the entry, the clock: once each
    for g in ids:
        assert storage.load(g)[2] == [{"type": "roll"}, {"type": "move", "n": g}]
        assert storage.load_clock(g) == ({"c": g}, 50.0)


def test_each_statement_of_a_batch_carries_all_its_rows_at_once(storage, games):
    # Not an executemany: the driver would run it row by row, giving up and taking back the
    # interpreter lock for each row while the server's event loop holds it.
    ids, _, _ = games
    many: list[str] = []
    with statements(storage, many) as seen:
        results = storage.append_online_many([
            OnlineWrite(g, 1, {"type": "move", "n": g}, clock=({"c": g}, 50.0)) for g in ids])
    assert results == [None] * len(ids) and many == [], many
    assert len([s for s in seen if not s.upper().startswith(("BEGIN", "COMMIT"))]) == 3
    assert [storage.load(g)[2][1] for g in ids] == [{"type": "move", "n": g} for g in ids]


def test_a_batch_longer_than_a_statement_carries_goes_in_several(storage, monkeypatch):
    from table.server.store import games as store_games

    monkeypatch.setattr(store_games, "BATCH_ROWS", 4)
    for n in range(10):
        storage.create(f"h{n}", {"mode": "online"}, {}, now=1000.0)
    with statements(storage) as seen:
        results = storage.append_online_many([
            OnlineWrite(f"h{n}", 0, {"type": "roll", "n": n}, clock=({"c": n}, float(n)), now=2000.0 + n)
            for n in range(10)])
    assert results == [None] * 10
    assert len([s for s in seen if not s.upper().startswith(("BEGIN", "COMMIT"))]) == 3 * 3  # 4 + 4 + 2 rows
    for n in range(10):
        assert storage.load(f"h{n}")[2] == [{"type": "roll", "n": n}]
        assert storage.load_clock(f"h{n}") == ({"c": n}, float(n))
    # Every game of the batch counts as touched at the batch's time, so none of them is idle.
    assert storage.idle_games(before=2000.0) == []


def test_a_refused_write_in_a_batch_of_different_games_is_told_and_the_others_kept(storage, games):
    ids, ana, ion = games
    results = storage.append_online_many([
        OnlineWrite("g0", 1, {"type": "move"}, clock=({"c": 1}, 9.0)),
        OnlineWrite("g1", 0, {"type": "again"}, clock=({"c": 2}, 9.0)),  # its place 0 is taken
        OnlineWrite("nowhere", 1, {"type": "move"}),
        OnlineWrite("g2", 1, {"type": "drop"}, ledger=[Entry(ana.id, 10, "win:single", "g2")]),
        OnlineWrite("g3", 1, {"type": "move"}),
    ])
    assert results[0] is None and results[3] is None and results[4] is None
    assert isinstance(results[1], ConflictError) and "g1" in str(results[1])
    assert isinstance(results[2], StorageError) and "nowhere" in str(results[2])
    assert storage.load("g0")[2][1:] == [{"type": "move"}] and storage.load_clock("g0") == ({"c": 1}, 9.0)
    assert storage.load("g1")[2] == [{"type": "roll"}] and storage.load_clock("g1") is None  # nothing of it
    assert storage.load("g2")[2][1:] == [{"type": "drop"}] and storage.points(ana.id) == 10
    assert storage.load("g3")[2][1:] == [{"type": "move"}]


def test_a_batch_with_a_missing_game_only_keeps_nothing_and_says_so(storage, games):
    results = storage.append_online_many([OnlineWrite("nowhere", 0, {"type": "roll"}, clock=({"c": 1}, 1.0))])
    assert isinstance(results[0], StorageError) and "nowhere" in str(results[0])
    assert storage.load_clock("nowhere") is None
