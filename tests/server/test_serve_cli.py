"""``table serve``: its options reach uvicorn, and the default database is per user."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.cli import main
from table.server.store import StorageError, default_path, open_storage


def test_serve_passes_host_port_and_database(monkeypatch, tmp_path, capsys):
    seen = {}

    def fake_run(app, host, port, log_level, **options):
        seen.update(app=app, host=host, port=port, options=options)

    import uvicorn

    monkeypatch.setattr(uvicorn, "run", fake_run)
    # Settling would change this test process's collector for every test after it.
    monkeypatch.setattr("table.server.edge.memory.settle_memory", lambda: None)
    db = tmp_path / "g.sqlite3"
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123", "--db", str(db)]) == 0
    assert seen["host"] == "0.0.0.0" and seen["port"] == 8123 and db.exists()
    # Served with bounded WebSocket messages, connections and header reads.
    assert seen["options"]["ws_max_size"] == seen["app"].state.limits.ws_frame_bytes
    assert seen["options"]["limit_concurrency"] > 0 and seen["options"]["http"].header_timeout > 0
    assert "http://0.0.0.0:8123/" in capsys.readouterr().out


def test_default_database_is_in_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "table" / "games.sqlite3"
    s = open_storage()
    s.close()
    assert (tmp_path / "table" / "games.sqlite3").exists()


@pytest.mark.parametrize("where", ["mysql://x/y", "http://example"])
def test_unsupported_database_urls(where):
    with pytest.raises(StorageError, match="unsupported database URL"):
        open_storage(where)


def test_sqlite_url_and_missing_game(tmp_path):
    s = open_storage(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with pytest.raises(StorageError, match="no game"):
        s.load("nope")
    s.close()
    assert Path(tmp_path / "x.sqlite3").exists()


def test_postgres_without_psycopg_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(StorageError, match="psycopg"):
        open_storage("postgresql://localhost/table")
