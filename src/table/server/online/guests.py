"""Guests: making one, finding one by device token, when they were last seen, player pages."""

from __future__ import annotations

from table.server.online.base import JSON, Base, OnlineError, log
from table.server.online.players import NicknameError, create_guest, name_key, player_for_token
from table.server.store import Player

SEEN_EVERY = 20.0
"""A player is noted in storage as seen at most this often (any request with their token)."""

NAMES_KEPT = 10_000
"""Players kept in memory by id (the rest are read again when needed)."""


class Guests(Base):
    """The guests behind device tokens, and the names of the players seen lately."""

    async def guest(self, data: object) -> tuple[Player, str]:
        """A new guest from ``{"name", "bot"?}``; returns the player and their device token."""
        if not isinstance(data, dict) or set(data) - {"name", "bot"} or "name" not in data:
            raise OnlineError('a new guest is {"name": "...", "bot": false}', "bad_request")
        bot = data.get("bot", False)
        if not isinstance(bot, bool):
            raise OnlineError("bot is true or false", "bad_request")
        try:
            player, token = await self._call(create_guest, self.storage, data["name"], bot=bot, now=self.now())
        except NicknameError as exc:
            raise OnlineError(str(exc), exc.code, 409 if exc.code == "taken" else 400) from exc
        self._remember(player)
        return player, token

    async def player(self, token: str | None) -> Player:
        """The guest holding ``token`` (``no_token`` / ``bad_token`` otherwise)."""
        if not token:
            raise OnlineError("this needs your device token: Authorization: Bearer <token>", "no_token", 401)
        found = await self.maybe_player(token)
        if found is None:
            raise OnlineError("this token is not a guest's device token", "bad_token", 403)
        return found

    async def maybe_player(self, token: object) -> Player | None:
        """The guest holding ``token``, or None."""
        found: Player | None = await self._call(player_for_token, self.storage, token)
        if found is not None:
            self._remember(found)
            await self._saw(found.id, found.last_seen)
        return found

    async def _saw(self, player_id: int, stored_at: float = float("-inf")) -> None:
        """Note that the player is here now (in storage at most every ``SEEN_EVERY`` s), so that a
        table's creator who has gone is known to be gone when someone joins (``join``).

        ``stored_at``: when storage last noted them, as just read (after a restart every socket
        says hello again, and a note still fresh need not be written again)."""
        now = self.now()
        stored = max(self._seen.get(player_id, (now, float("-inf")))[1], stored_at)
        if now - stored >= SEEN_EVERY:
            try:
                await self._call(self.storage.touch_player, player_id, now=now)
                stored = now
            except OnlineError as exc:  # only a note: a database that refuses writes still serves reads
                log.warning("player %s: could not note when they were seen: %s", player_id, exc)
        self._seen[player_id] = (now, stored)
        self._seen.move_to_end(player_id)
        while len(self._seen) > NAMES_KEPT:
            self._seen.popitem(last=False)

    async def _last_seen(self, ids: set[int]) -> dict[int, float]:
        """When each of ``ids`` was last seen: here, or by any server process (as noted in storage)."""
        seen: dict[int, float] = await self._call(self.storage.seen, ids) if ids else {}
        for i in ids:
            here = self._seen.get(i)
            if here is not None:
                seen[i] = max(seen.get(i, here[0]), here[0])
        return seen

    async def _players(self, ids: set[int]) -> dict[int, Player]:
        missing = [i for i in ids if i not in self._names]
        if missing:  # one read for all (a lobby of 100 tables names up to 200)
            found: dict[int, Player] = await self._call(self.storage.players, missing)
            for p in found.values():
                self._remember(p)
        return {i: self._names[i] for i in ids if i in self._names}

    def _remember(self, player: Player) -> None:
        self._names[player.id] = player
        self._names.move_to_end(player.id)
        while len(self._names) > NAMES_KEPT:
            self._names.popitem(last=False)

    def player_json(self, player: Player, points: int) -> JSON:
        return {"name": player.name, "points": points, "bot": player.is_bot}

    async def player_page(self, name: str) -> JSON:
        player = await self._call(self.storage.player_by_name_key, name_key(name))
        if player is None:
            raise OnlineError(f"there is no player called {name!r}", "not_found", 404)
        points = await self._call(self.storage.points, player.id)
        reasons: dict[str, int] = await self._call(self.storage.reasons, player.id)
        wins = sum(n for r, n in reasons.items() if r.startswith(("win:", "opponent-")))
        draws = reasons.get("draw", 0)  # a drawn game (Plakoto) is neither won nor lost
        losses = sum(reasons.values()) - wins - draws
        lines = await self._call(self.storage.ledger, player_id=player.id, limit=20)
        recent = []
        for line in lines:
            opponent = None
            if line.game_id is not None:
                others = await self._call(self.storage.ledger, game_id=line.game_id, limit=2)
                other_ids = {o.player_id for o in others} - {player.id}
                if other_ids:
                    opponent = (await self._players(other_ids)).get(other_ids.pop())
            recent.append({"game": line.game_id, "amount": line.amount, "reason": line.reason, "at": line.created,
                           "opponent": opponent.name if opponent else None})
        return {"name": player.name, "bot": player.is_bot, "points": points,
                "record": {"games": wins + losses + draws, "wins": wins, "losses": losses, "draws": draws},
                "recent": recent}
