"""The database schema, once, for SQLite and PostgreSQL (SQLAlchemy Core).

This is the schema at the newest migration (``migrations/versions``); a test
checks that a database upgraded to head matches it column for column.  Times
are seconds since the epoch (floats); JSON documents are stored as text so
both databases keep them byte for byte.

Tables:

- ``games``: one row per match (settings, seat token hashes), with
  ``updated`` (last log entry) and ``finished`` (None while it is going on);
- ``actions``: the match's log, one row per entry;
- ``players``: guests and bots, a nickname (unique by its folded ``name_key``)
  and the sha256 of their device token;
- ``online_tables`` and ``table_seats``: tables in the lobby and who sits there;
- ``clocks``: each running match's clock and the absolute time it runs out;
- ``ledger``: append-only points entries; a player's points are their sum;
- ``chat``: messages at a table, for the players or for the spectators;
- ``match_results``: append-only, one row per finished online match (seats,
  length, winner, score, how it ended, rated, the variant played) with both
  players' ratings in that variant before and after and their experience before;
- ``site_keys``: the site's own secrets made on first use (the Web Push VAPID key) and
  site-wide notes (when a single server last served its games);
- ``push_subscriptions``: where to send a player's "your move" notices (Web Push),
  with the language they read.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("updated", sa.Float),
    sa.Column("finished", sa.Float),
    sa.Index("ix_games_updated", "updated"),
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("entry", sa.Text, nullable=False),
)

players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("name_key", sa.Text, nullable=False, unique=True),
    sa.Column("token_hash", sa.Text, nullable=False, unique=True),
    sa.Column("is_bot", sa.Boolean, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
)

online_tables = sa.Table(
    "online_tables", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id")),
    sa.Column("creator", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("invite", sa.Text, unique=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ix_online_tables_status", "status"),
)

table_seats = sa.Table(
    "table_seats", metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("online_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.UniqueConstraint("table_id", "player_id", name="uq_table_seats_player"),
)

clocks = sa.Table(
    "clocks", metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("deadline", sa.Float),
    sa.Index("ix_clocks_deadline", "deadline"),
)

ledger = sa.Table(
    "ledger", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id")),
    sa.Column("amount", sa.Integer, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_ledger_player", "player_id"),
)

chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Text, sa.ForeignKey("online_tables.id"), nullable=False),
    sa.Column("channel", sa.Text, nullable=False),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_chat_table", "table_id", "id"),
)

match_results = sa.Table(
    "match_results", metadata,
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
    sa.Column("variant", sa.Text, nullable=False, server_default="standard"),
    sa.Index("ix_match_results_player0", "player0", "id"),
    sa.Index("ix_match_results_player1", "player1", "id"),
    sa.Index("ix_match_results_created", "created"),
    sa.Index("ix_match_results_variant", "variant", "id"),
)

site_keys = sa.Table(
    "site_keys", metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

push_subscriptions = sa.Table(
    "push_subscriptions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("endpoint", sa.Text, nullable=False, unique=True),
    sa.Column("p256dh", sa.Text, nullable=False),
    sa.Column("auth", sa.Text, nullable=False),
    sa.Column("lang", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_push_subscriptions_player", "player_id"),
)
