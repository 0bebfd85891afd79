"""Match results: one append-only row per finished online match, with both ratings before and after.

A player's rating and experience are those after their latest row, so they can
always be recomputed from the rows in order (``table.server.online.ratings.replay``).
The table is written out here, not taken from ``table.server.store.schema``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), nullable=False, unique=True),
        sa.Column("table_id", sa.Text, sa.ForeignKey("online_tables.id")),
        sa.Column("player0", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("player1", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer, nullable=False),
        sa.Column("score0", sa.Integer, nullable=False),
        sa.Column("score1", sa.Integer, nullable=False),
        sa.Column("ended", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating0_before", sa.Float, nullable=False),
        sa.Column("rating0_after", sa.Float, nullable=False),
        sa.Column("rating1_before", sa.Float, nullable=False),
        sa.Column("rating1_after", sa.Float, nullable=False),
        sa.Column("experience0_before", sa.Integer, nullable=False),
        sa.Column("experience1_before", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_match_results_player0", "match_results", ["player0", "id"])
    op.create_index("ix_match_results_player1", "match_results", ["player1", "id"])
    op.create_index("ix_match_results_created", "match_results", ["created"])
