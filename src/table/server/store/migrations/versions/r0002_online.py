"""Online play: players, lobby tables and seats, clocks, the points ledger, chat.

Games also get ``updated`` (time of the last log entry, backfilled with
``created``) and ``finished`` (None while the match goes on).  The tables are
written out here, not taken from ``table.server.store.schema``, so this revision
stays what it was when later ones change the schema.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def _player(column: str = "player_id") -> sa.Column[int]:
    return sa.Column(column, sa.Integer, sa.ForeignKey("players.id"), nullable=False)


def upgrade() -> None:
    op.add_column("games", sa.Column("updated", sa.Float))
    op.add_column("games", sa.Column("finished", sa.Float))
    op.execute("UPDATE games SET updated = created")
    op.create_index("ix_games_updated", "games", ["updated"])

    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, nullable=False, unique=True),
        sa.Column("token_hash", sa.Text, nullable=False, unique=True),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_table(
        "online_tables",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id")),
        _player("creator"),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("invite", sa.Text, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_online_tables_status", "online_tables", ["status"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.Text, sa.ForeignKey("online_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        _player(),
        sa.UniqueConstraint("table_id", "player_id", name="uq_table_seats_player"),
    )
    op.create_table(
        "clocks",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("deadline", sa.Float),
    )
    op.create_index("ix_clocks_deadline", "clocks", ["deadline"])
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _player(),
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id")),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_ledger_player", "ledger", ["player_id"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Text, sa.ForeignKey("online_tables.id"), nullable=False),
        sa.Column("channel", sa.Text, nullable=False),
        _player(),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])
