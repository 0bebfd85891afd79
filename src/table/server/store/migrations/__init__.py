"""Alembic migrations of the games database, run in code when storage opens.

No ``alembic.ini`` is needed: :func:`upgrade` builds Alembic's configuration
here and runs it on the connection it is given.  Revision ``0001`` is the
schema of release 0.1.0 exactly (tables ``games`` and ``actions``); a database
made by that release has those tables but no ``alembic_version``, so it is
stamped at ``0001`` before upgrading.

To write a new revision: add ``versions/rNNNN_what.py`` by hand (copy the
last one: ``revision``, ``down_revision``, ``upgrade()``), update
``table.server.store.schema`` to match, and ``tests/server/store/test_migrations.py``
checks that the two agree.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

FIRST = "0001"
_LOCK = int.from_bytes(b"table")  # any fixed number: the PostgreSQL lock the upgrade holds


def config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for this package, optionally bound to ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision id."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def upgrade(connection: sa.Connection, target: str = "head") -> None:
    """Bring the database on ``connection`` to ``target``, stamping a release-0.1.0 one first."""
    cfg = config(connection)
    if connection.dialect.name == "postgresql":
        # Servers starting together take turns (SQLite's BEGIN IMMEDIATE does the same there).
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK})")
    inspector = sa.inspect(connection)
    if inspector.has_table("games") and not inspector.has_table("alembic_version"):
        command.stamp(cfg, FIRST)
    command.upgrade(cfg, target)
