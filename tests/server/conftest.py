from __future__ import annotations

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.store import open_storage

from tests.server.server_helpers import TestClient


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    storage = open_storage(db)
    # The tests create many games from one address; the rate limit has tests of its own.
    with TestClient(create_app(storage, SeededDice(7), limits=Limits(games_burst=100_000))) as c:
        yield c
    storage.close()
