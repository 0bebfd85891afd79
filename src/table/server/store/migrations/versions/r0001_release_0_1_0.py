"""The schema of release 0.1.0: games and their action logs.

The statements are that release's own, word for word, so a database it made
and one made here are the same (PostgreSQL had ``DOUBLE PRECISION`` for ``REAL``).
"""

from __future__ import annotations

from alembic import op

revision = "0001"
down_revision = None

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, created REAL NOT NULL,"
    " config TEXT NOT NULL, seats TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS actions (game_id TEXT NOT NULL REFERENCES games(id),"
    " seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, seq))",
)


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in SCHEMA:
        op.execute(statement.replace("REAL", "DOUBLE PRECISION") if postgres else statement)
