"""Ratings per variant: each match result names the game it was (``table.rules.variant``).

Every result kept before this revision was standard backgammon, so existing
rows become ``standard``; a player's rating in a variant is the one after their
latest rated result in that variant.  Written out here, not taken from
``table.server.store.schema``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("match_results") as batch:
        batch.add_column(sa.Column("variant", sa.Text, nullable=False, server_default="standard"))
    op.create_index("ix_match_results_variant", "match_results", ["variant", "id"])
