"""Players: guests and bots, found by id, device token or name.

>>> from table.server.store import open_storage
>>> s = open_storage(":memory:")
>>> ana = s.create_player("Ana", "ana", "hash-of-anas-token", now=10.0)
>>> s.player_by_name_key("ana") == ana, s.seen([ana.id])
(True, {1: 10.0})
>>> s.close()
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from table.server.store import schema as t
from table.server.store.base import StoreBase, inserted_id, when
from table.server.store.values import ConflictError, Player


def player_of(row: sa.Row[Any]) -> Player:
    """The player a row of ``players`` (or of a query over it) holds."""
    return Player(row.id, row.name, bool(row.is_bot), row.created, row.last_seen)


def players_of(conn: sa.Connection, player_ids: Iterable[int]) -> dict[int, Player]:
    """``PlayerStore.players`` in the transaction of ``conn``."""
    ids = list(player_ids)
    return {row.id: player_of(row) for row in conn.execute(sa.select(t.players).where(t.players.c.id.in_(ids)))}


class PlayerStore(StoreBase):
    """Players."""

    def create_player(self, name: str, name_key: str, token_hash: str, *, is_bot: bool = False,
                      now: float | None = None) -> Player:
        """A new player; ``name_key`` (see ``players.name_key``) and ``token_hash`` must be new."""
        at = when(now)
        with self._tx(f"the name {name!r} is taken") as conn:
            if conn.execute(sa.select(t.players.c.id).where(t.players.c.token_hash == token_hash)).first():
                raise ConflictError("this device already has a player")
            new_id = inserted_id(conn.execute(t.players.insert().values(
                name=name, name_key=name_key, token_hash=token_hash, is_bot=is_bot,
                created=at, last_seen=at)))
        return Player(new_id, name, is_bot, at, at)

    def _one_player(self, where: sa.ColumnElement[bool]) -> Player | None:
        with self._tx() as conn:
            row = conn.execute(sa.select(t.players).where(where)).first()
        return None if row is None else player_of(row)

    def player(self, player_id: int) -> Player | None:
        """The player with this id, if any."""
        return self._one_player(t.players.c.id == player_id)

    def players(self, player_ids: Iterable[int]) -> dict[int, Player]:
        """The players with these ids (those that exist), in one read."""
        ids = list(player_ids)
        if not ids:
            return {}
        with self._tx() as conn:
            return players_of(conn, ids)

    def player_by_token_hash(self, token_hash: str) -> Player | None:
        """The player whose device token hashes to ``token_hash``, if any."""
        return self._one_player(t.players.c.token_hash == token_hash)

    def player_by_name_key(self, name_key: str) -> Player | None:
        """The player whose folded name is ``name_key``, if any."""
        return self._one_player(t.players.c.name_key == name_key)

    def token_hash(self, player_id: int) -> str | None:
        """The stored hash of the player's device token (what holds their seats in games), if any."""
        with self._tx() as conn:
            found = conn.execute(sa.select(t.players.c.token_hash).where(t.players.c.id == player_id)).scalar()
        return None if found is None else str(found)

    def touch_player(self, player_id: int, *, now: float | None = None) -> None:
        """Record that the player was seen at ``now``."""
        with self._tx() as conn:
            conn.execute(t.players.update().where(t.players.c.id == player_id).values(last_seen=when(now)))

    def seen(self, player_ids: Iterable[int]) -> dict[int, float]:
        """When each of ``player_ids`` was last seen (``touch_player``; made: when created)."""
        ids = list(player_ids)
        c = t.players.c
        with self._tx() as conn:
            return {r.id: r.last_seen for r in conn.execute(sa.select(c.id, c.last_seen).where(c.id.in_(ids)))}

