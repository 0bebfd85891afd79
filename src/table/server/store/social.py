"""What players say and where they hear from the site: chat, the site's keys, Web Push devices.

>>> from table.server.store import open_storage
>>> s = open_storage(":memory:")
>>> ana = s.create_player("Ana", "ana", "h")
>>> table = s.create_table(ana.id, {})
>>> s.add_chat(table.id, "players", ana.id, "Salut!").text
'Salut!'
>>> [m.text for m in s.chat_messages(table.id, "players")], s.site_key("k", lambda: "made"), s.site_key("k", str)
(['Salut!'], 'made', 'made')
>>> s.close()
"""

from __future__ import annotations

from typing import Any, Callable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from table.server.store import schema as t
from table.server.store.base import StoreBase, inserted_id, when
from table.server.store.values import (
    CHANNELS,
    CHAT_MAX,
    Channel,
    ChatMessage,
    ConflictError,
    PushSubscription,
    StorageError,
)


def _message(row: sa.Row[Any]) -> ChatMessage:
    return ChatMessage(row.id, row.table_id, row.channel, row.player_id, row.text, row.created)


class SocialStore(StoreBase):
    """Chat at the tables, the site's keys and values, and where players take Web Push notices."""

    def add_chat(self, table_id: str, channel: Channel, player_id: int, text: str, *,
                 now: float | None = None) -> ChatMessage:
        """Keep a chat message said at a table, to the players or to the spectators."""
        if channel not in CHANNELS:
            raise StorageError(f"a chat channel is 'players' or 'spectators', got {channel!r}")
        if not text.strip() or len(text) > CHAT_MAX:
            raise StorageError(f"a chat message has 1 to {CHAT_MAX} characters")
        at = when(now)
        with self._tx("there is no such table or player") as conn:
            new_id = inserted_id(conn.execute(t.chat.insert().values(table_id=table_id, channel=channel,
                                                              player_id=player_id, text=text, created=at)))
        return ChatMessage(new_id, table_id, channel, player_id, text, at)

    def chat_messages(self, table_id: str, channel: Channel, *, after: int = 0,
                      limit: int = 100) -> list[ChatMessage]:
        """The latest ``limit`` messages of a channel with an id above ``after``, oldest first."""
        c = t.chat.c
        with self._tx() as conn:
            rows = conn.execute(sa.select(t.chat).where(c.table_id == table_id, c.channel == channel, c.id > after)
                                .order_by(c.id.desc()).limit(limit)).all()
        return [_message(r) for r in reversed(rows)]

    # Site keys and Web Push --------------------------------------------------

    def site_key(self, name: str, make: Callable[[], str], *, now: float | None = None) -> str:
        """The site's secret ``name``, made by ``make()`` and kept the first time it is asked for.

        Two servers asking at once both get the one that was stored first.
        """
        c = t.site_keys.c
        with self._tx() as conn:
            found = conn.execute(sa.select(c.value).where(c.name == name)).scalar()
        if found is not None:
            return str(found)
        try:
            with self._tx() as conn:
                conn.execute(t.site_keys.insert().values(name=name, value=make(), created=when(now)))
        except ConflictError:
            pass  # another process made it first: theirs is the one
        with self._tx() as conn:
            return str(conn.execute(sa.select(c.value).where(c.name == name)).scalar_one())

    def site_value(self, name: str) -> str | None:
        """The site-wide value ``name`` kept by ``set_site_value`` (None: never kept)."""
        c = t.site_keys.c
        with self._tx() as conn:
            found = conn.execute(sa.select(c.value).where(c.name == name)).scalar()
        return None if found is None else str(found)

    def set_site_value(self, name: str, value: str, *, now: float | None = None) -> None:
        """Keep ``value`` as the site-wide value ``name``, in place of any kept before."""
        c = t.site_keys.c
        insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        stmt = insert(t.site_keys).values(name=name, value=value, created=when(now))
        with self._tx() as conn:
            conn.execute(stmt.on_conflict_do_update(index_elements=[c.name], set_={"value": stmt.excluded.value}))

    def add_push(self, player_id: int, sub: PushSubscription, *, now: float | None = None, keep: int = 10) -> None:
        """Send ``player_id``'s notices to ``sub`` (an endpoint already kept moves to this player);
        only their ``keep`` newest devices are kept."""
        c = t.push_subscriptions.c
        with self._tx("there is no such player") as conn:
            conn.execute(t.push_subscriptions.delete().where(c.endpoint == sub.endpoint))
            conn.execute(t.push_subscriptions.insert().values(
                player_id=player_id, endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, lang=sub.lang,
                created=when(now)))
            newest = sa.select(c.id).where(c.player_id == player_id).order_by(c.id.desc()).limit(keep)
            conn.execute(t.push_subscriptions.delete().where(c.player_id == player_id, c.id.not_in(newest)))

    def remove_push(self, endpoint: str, player_id: int | None = None) -> None:
        """Stop sending to ``endpoint`` (only if it is ``player_id``'s, when given)."""
        c = t.push_subscriptions.c
        query = t.push_subscriptions.delete().where(c.endpoint == endpoint)
        if player_id is not None:
            query = query.where(c.player_id == player_id)
        with self._tx() as conn:
            conn.execute(query)

    def pushes(self, player_id: int) -> list[PushSubscription]:
        """Every device ``player_id`` takes notices on."""
        c = t.push_subscriptions.c
        with self._tx() as conn:
            rows = conn.execute(sa.select(c.endpoint, c.p256dh, c.auth, c.lang).where(c.player_id == player_id)
                                .order_by(c.id)).all()
        return [PushSubscription(r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]
