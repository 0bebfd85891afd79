"""Storage of games: the same behaviour from SQLite and (where a server is given) PostgreSQL."""

from __future__ import annotations

import secrets
import threading

import pytest

from table.server.online.sweep import last_served, note_served
from table.server.store import ConflictError, StorageError, open_storage, public_id

from tests.server.storage_fixtures import storage, where  # noqa: F401 - fixtures


def new_id() -> str:
    return "t" + secrets.token_hex(6)


def test_log_round_trip_in_order(storage):
    gid = new_id()
    storage.create(gid, {"mode": "local", "length": 3}, {"hashes": ["a", "a"]})
    for i in range(12):
        storage.append(gid, i, {"type": "roll", "dice": [i % 6 + 1, 1], "seat": i % 2})
    config, seats, log = storage.load(gid)
    assert config == {"mode": "local", "length": 3} and seats == {"hashes": ["a", "a"]}
    assert [e["dice"][0] for e in log] == [i % 6 + 1 for i in range(12)]


def test_refusals(storage):
    gid = new_id()
    storage.create(gid, {}, {})
    with pytest.raises(ConflictError, match="already exists"):
        storage.create(gid, {}, {})
    storage.append(gid, 0, {"type": "roll"})
    with pytest.raises(ConflictError, match="already has log entry 0"):
        storage.append(gid, 0, {"type": "other"})  # one entry per place in the log
    with pytest.raises(StorageError, match="no game"):
        storage.load("missing-" + gid)
    with pytest.raises(StorageError, match="no game"):
        storage.append("missing-" + gid, 0, {"type": "roll"})
    assert storage.load(gid)[2] == [{"type": "roll"}]


def test_a_refused_append_changes_nothing(storage):
    gid = new_id()
    storage.create(gid, {}, {}, now=100.0)
    storage.append(gid, 0, {"n": 0}, now=200.0)
    with pytest.raises(ConflictError):
        storage.append(gid, 0, {"n": 1}, now=300.0)
    # The game's "updated" is set in the same transaction as the insert: still 200.
    assert storage.idle_games(before=250.0) == [gid] and storage.idle_games(before=200.0) == []
    assert storage.load(gid)[2] == [{"n": 0}]


def test_updated_finished_and_idle_games(storage):
    a, b, c = new_id(), new_id(), new_id()
    storage.create(a, {}, {}, now=10.0)
    storage.create(b, {}, {}, now=20.0)
    storage.create(c, {}, {}, now=30.0)
    storage.append(a, 0, {}, now=40.0)
    assert storage.idle_games(before=35.0) == [b, c]  # longest idle first; a moved at 40
    storage.finish(b, now=50.0)
    assert storage.idle_games(before=100.0) == [c, a]
    assert storage.idle_games(before=100.0, limit=1) == [c]
    with pytest.raises(StorageError, match="no game"):
        storage.finish("missing")


def test_threads_share_one_storage(storage):
    """Many threads append to their own games at once; every log comes back whole and in order."""
    ids = [new_id() for _ in range(6)]
    for gid in ids:
        storage.create(gid, {}, {})
    errors: list[BaseException] = []

    def play(gid: str) -> None:
        try:
            for i in range(15):
                storage.append(gid, i, {"i": i})
                assert len(storage.load(gid)[2]) == i + 1
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(gid,)) for gid in ids]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    for gid in ids:
        assert [e["i"] for e in storage.load(gid)[2]] == list(range(15))


def test_memory_database_is_one_database_for_every_thread():
    s = open_storage(":memory:")
    s.create("g", {}, {})
    th = threading.Thread(target=s.append, args=("g", 0, {"from": "thread"}))
    th.start()
    th.join()
    assert s.load("g")[2] == [{"from": "thread"}]
    s.close()


def test_reopening_keeps_everything(tmp_path):
    db = tmp_path / "g.sqlite3"
    s = open_storage(db)
    s.create("g", {"length": 5}, {"hashes": []})
    s.append("g", 0, {"type": "roll"})
    s.close()
    s = open_storage(db)
    assert s.load("g") == ({"length": 5}, {"hashes": []}, [{"type": "roll"}])
    s.close()


def test_a_folder_that_does_not_exist_is_an_error(tmp_path):
    missing = tmp_path / "no" / "such" / "folder" / "g.sqlite3"
    with pytest.raises(StorageError, match="folder .* does not exist"):
        open_storage(missing)
    with pytest.raises(StorageError, match="does not exist"):
        open_storage(f"sqlite:///{missing}")
    assert not (tmp_path / "no").exists()


def test_a_file_that_is_not_a_database_is_an_error(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database, just some words " * 100)
    with pytest.raises(StorageError, match="cannot open the games database"):
        open_storage(bad)


def test_public_ids_never_start_with_a_dash(monkeypatch):
    # `table online --join -x…` would read the id as an option: such draws are drawn again.
    draws = iter(["-starts-with-dash", "_fine", "-again", "ok"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(draws))
    assert public_id(9) == "_fine"
    assert public_id(9) == "ok"


def test_a_site_value_is_kept_replaced_and_shared_with_the_site_keys(storage):
    assert storage.site_value("served-at") is None
    storage.set_site_value("served-at", "12.5")
    storage.set_site_value("served-at", "13.0")
    assert storage.site_value("served-at") == "13.0"
    assert storage.site_key("vapid", lambda: "secret") == "secret"  # other names are left alone
    assert storage.site_value("served-at") == "13.0" and storage.site_value("vapid") == "secret"


def test_a_single_servers_note_is_no_game(storage):
    note_served(storage, 1234.5)
    note_served(storage, 1235.5)
    assert last_served(storage) == 1235.5
    # Kept apart from the games: nothing for the idle-game sweep, the lobby or the statistics to find.
    assert storage.idle_games(before=1e12) == []
