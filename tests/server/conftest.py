from __future__ import annotations

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.storage import open_storage

from tests.server.server_helpers import TestClient


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(7))) as c:
        yield c
    storage.close()
