"""Tables: made, found, joined, left and withdrawn; the match started when the second player sits down."""

from __future__ import annotations

from table.rules.variant import STANDARD
from table.match.series import Series, find_game, match_games
from table.server.online.base import JSON, OnlineError, variant_named
from table.server.online.state import TableState
from table.server.online.timers import Timers
from table.server.play.clock import PRESETS, new_clock
from table.server.play.game import MATCH_LENGTHS, Game, GameConfig
from table.server.play.rooms import Room
from table.server.play.turns import waiting_for
from table.server.store import ConflictError, OnlineTable, Player

OPEN_FOR = 30 * 60.0
"""Seconds a real-time table waits for its second player before it is withdrawn."""
OPEN_FOR_TURN_BASED = 24 * 3600.0
"""Seconds a turn-based table waits for its second player before it is withdrawn."""


def table_settings(data: object) -> JSON:
    """The settings of a new table, checked (defaults: 3 points, cube, normal clock, public, rated, standard
    backgammon; another variant is kept by its name, standard backgammon's settings are as before).

    >>> table_settings({"length": 5, "clock": "rapid"})
    {'length': 5, 'cube': True, 'clock': 'rapid', 'private': False, 'rated': True}
    >>> table_settings({"variant": "NackGammon"})["variant"]
    'nackgammon'
    >>> table_settings({"variant": "Acey-Deucey"})["variant"]
    'acey-deucey'
    >>> table_settings({"variant": "tavli", "length": 5})
    {'length': 5, 'cube': False, 'clock': 'normal', 'private': False, 'rated': True, 'variant': 'tavli'}
    >>> table_settings({"variant": "tavli", "length": 4})
    Traceback (most recent call last):
    ...
    table.server.online.base.OnlineError: a Tavli match is played to 3, 5 or 7 points (got 4)
    >>> table_settings({"variant": "plakoto", "cube": True})
    Traceback (most recent call last):
    ...
    table.server.online.base.OnlineError: Plakoto is played without the doubling cube: cube must be false
    >>> table_settings({"clock": "blitz"})
    Traceback (most recent call last):
    ...
    table.server.online.base.OnlineError: clock must be one of rapid, normal, tournament, relaxed, untimed, days1, days2, days3, days5, days7 (got 'blitz')
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise OnlineError("a new table is described by a JSON object", "bad_request")
    unknown = set(data) - {"length", "cube", "clock", "private", "rated", "variant"}
    if unknown:
        raise OnlineError(f"unknown setting(s): {', '.join(sorted(unknown))}", "bad_request")
    variant = variant_named(data.get("variant", STANDARD.name))
    game = find_game(variant)
    length, cube = data.get("length", 3), data.get("cube", match_games(game)[0].cube)
    clock, private, rated = data.get("clock", "normal"), data.get("private", False), data.get("rated", True)
    if isinstance(game, Series):
        if isinstance(length, bool) or length not in game.lengths:
            allowed = ", ".join(map(str, game.lengths[:-1])) + f" or {game.lengths[-1]}"
            raise OnlineError(f"a {game.title} match is played to {allowed} points (got {length!r})", "bad_request")
    elif not isinstance(length, int) or isinstance(length, bool) or length not in MATCH_LENGTHS:
        raise OnlineError(f"length must be one of 1, 3, 5, ..., 21 (got {length!r})", "bad_request")
    if cube is True and not match_games(game)[0].cube:
        raise OnlineError(f"{game.title} is played without the doubling cube: cube must be false", "bad_request")
    if not isinstance(cube, bool) or not isinstance(private, bool) or not isinstance(rated, bool):
        raise OnlineError("cube, private and rated are true or false", "bad_request")
    if clock not in PRESETS:
        raise OnlineError(f"clock must be one of {', '.join(PRESETS)} (got {clock!r})", "bad_request")
    settings: JSON = {"length": length, "cube": cube, "clock": clock, "private": private, "rated": rated}
    if variant != STANDARD.name:
        settings["variant"] = variant
    return settings


class Tables(Timers):
    """The tables a guest makes, joins and leaves, and the match each starts."""

    async def me(self, token: str | None) -> JSON:
        player = await self.player(token)
        points = await self._call(self.storage.points, player.id)
        tables = await self._call(self.storage.player_tables, player.id)
        clocks = await self._call(self.storage.clocks_of, [tb.game_id for tb in tables if tb.status == "playing"])
        mine = []
        for tb, t in zip(tables, await self._tables_json(tables)):
            waits = tb.status == "playing" and waiting_for(clocks.get(tb.game_id or "")) == tb.seats.index(player.id)
            mine.append({**t, "invite": tb.invite, "your_turn": waits})
        # Games waiting for you first (a player may hold many turn-based games), then the rest, newest first.
        mine.sort(key=lambda t: not t["your_turn"])
        return {"player": self.player_json(player, points), "tables": mine,
                "waiting": sum(t["your_turn"] for t in mine)}

    async def find_table(self, key: str, seated: int | None = None, routing: bool = False) -> OnlineTable:
        """A table by its id (a public one, or a private one where player ``seated`` sits) or by
        its invite code (a private one): the players of a private table act on it by its id, as
        their game names it; anyone else needs the invitation.  ``routing``: any table by its id,
        only to choose the process that serves a request (which then checks who asks)."""
        table: OnlineTable | None = None
        if isinstance(key, str) and 0 < len(key) <= 64:
            table = await self._call(self.storage.table, key)
            if table is None or (table.invite is not None and not routing
                                 and (seated is None or seated not in table.seats)):
                table = await self._call(self.storage.table_by_invite, key)
        if table is None:
            raise OnlineError(f"there is no table {key!r}", "not_found", 404)
        return table

    async def _reload(self, table_id: str) -> OnlineTable:
        """A table read again by its id (private or not), after a change to it."""
        table: OnlineTable | None = await self._call(self.storage.table, table_id)
        if table is None:
            raise OnlineError(f"there is no table {table_id!r}", "not_found", 404)
        return table

    async def one_table(self, key: str, token: str | None = None) -> JSON:
        """The table ``key`` names; asked with its creator's token (the page of a table waiting for
        its second player asks every few seconds), it notes that the creator is still waiting."""
        if token:
            await self.maybe_player(token)
        table = await self.find_table(key)
        return {"table": (await self._tables_json([table]))[0]}

    async def create_table(self, token: str | None, data: object, address: str | None = None) -> JSON:
        """A new open table; a player holds at most ``limits.open_tables_per_player`` open tables, and
        at most ``limits.open_tables_per_address`` are open from one ``address`` (``too_many_tables``)."""
        player = await self.player(token)
        settings = table_settings(data)
        per_player, per_address = self.limits.open_tables_per_player, self.limits.open_tables_per_address
        held = await self._call(self.storage.player_tables, player.id, ("open",), limit=per_player)
        if len(held) >= per_player:
            raise OnlineError(f"you already have {len(held)} open tables, the most one player may have: "
                              "withdraw one or wait for someone to join", "too_many_tables", 429)
        if address is not None and await self._open_from(address) >= per_address:
            raise OnlineError(f"{per_address} tables made from your address are open already: wait for "
                              "someone to join one", "too_many_tables", 429)
        table: OnlineTable = await self._call(self.storage.create_table, player.id, settings, now=self.now())
        if address is not None:
            self._open_at.setdefault(address, {})[table.id] = table.created
        self.lobby_changed()
        return {"table": {**(await self._tables_json([table]))[0], "invite": table.invite}}

    async def _open_from(self, address: str) -> int:
        """How many tables made from ``address`` here are open (the count is checked when it reaches the cap)."""
        made = self._open_at.get(address, {})
        if len(made) >= self.limits.open_tables_per_address:
            for table_id in list(made):
                table = await self._call(self.storage.table, table_id)
                if table is None or table.status != "open":
                    del made[table_id]
        return len(made)

    async def expire_tables(self) -> list[str]:
        """Withdraw the open tables nobody joined in time (``OPEN_FOR``; ``OPEN_FOR_TURN_BASED``); their ids."""
        now = self.now()
        old = await self._call(self.storage.list_tables, ("open",), private=True, limit=10_000,
                               created_before=now - OPEN_FOR)
        due = [tb.id for tb in old if tb.created < now - OPEN_FOR_TURN_BASED
               or not (tb.settings.get("clock") in PRESETS and PRESETS[tb.settings["clock"]].turn_based)]
        gone: list[str] = await self._call(self.storage.abandon_open, due, now=now) if due else []
        for address, made in list(self._open_at.items()):
            for table_id, created in list(made.items()):
                if table_id in gone or created < now - OPEN_FOR_TURN_BASED:
                    del made[table_id]
            if not made:
                del self._open_at[address]
        if gone:
            self.lobby_changed()
        return gone

    async def join(self, token: str | None, key: str) -> JSON:
        """Sit at a table; the match starts at once (its game, clock and room)."""
        player = await self.player(token)
        table = await self.find_table(key, player.id)
        if player.id in table.seats:
            raise OnlineError("you already sit at this table", "already_seated", 409)
        if table.status != "open":
            raise OnlineError(f"this table is {table.status}, no longer open", "not_open", 409)
        creator = (await self._players({table.creator}))[table.creator]
        seats = (creator, player) if table.seats[0] == creator.id else (player, creator)
        hashes = [await self._call(self.storage.token_hash, p.id) for p in seats]
        # The creator is away from when they were last seen, not from now: one who has gone may be
        # claimed against at once (a waiting page asks about its table every few seconds).
        now = self.now()
        waited = min(now, (await self._last_seen({creator.id})).get(creator.id, table.created))
        away = (waited, now) if seats[0] is creator else (now, waited)
        try:
            return await self._start(table, seats, hashes, away)
        except ConflictError as exc:
            raise OnlineError("somebody else sat down first", "table_full", 409) from exc
        except OnlineError as exc:
            now_ = await self._reload(table.id)
            if exc.code == "storage_failed" and now_.status != "open":  # started or withdrawn meanwhile
                raise OnlineError(f"this table is {now_.status}, no longer open", "not_open", 409) from exc
            raise

    async def _start(self, table: OnlineTable, seats: tuple[Player, Player], hashes: list[str | None],
                     away: tuple[float, float] | None = None) -> JSON:
        """Start the match at ``table``; ``away``: since when each seat is away (default: now)."""
        s = table.settings
        config = GameConfig("online", s["length"], s["cube"], names=(seats[0].name, seats[1].name),
                            table=table.id, clock=s["clock"], variant=s.get("variant", STANDARD.name))
        game_id = self.rooms.new_id()
        clock = new_clock(s["clock"], s["length"])
        joiner = seats[1] if seats[0].id == table.creator else seats[0]
        started: OnlineTable = await self._call(
            self.storage.start_table, table.id, joiner.id, game_id, config.to_json(), {"hashes": hashes},
            clock=(clock.to_json(), None), now=self.now())
        room = self.rooms._room(game_id, Game(config, self.rooms.dice), list(hashes), keep=False)
        points: dict[int, int] = await self._call(self.storage.points_of, [p.id for p in seats])
        now = self.now()
        room.online = TableState(self, started, game_id, seats, [points[seats[0].id], points[seats[1].id]],
                                 clock, [], list(away) if away is not None else [now, now])
        self.rooms.add(room)
        await self.rooms.settle(room)
        self.lobby_changed()
        return {"table": (await self._tables_json([started]))[0]}

    async def _seated(self, token: str | None, key: str) -> tuple[Player, OnlineTable, int]:
        player = await self.player(token)
        table = await self.find_table(key, player.id)
        if player.id not in table.seats:
            raise OnlineError("you do not sit at this table", "not_seated", 403)
        return player, table, table.seats.index(player.id)

    async def _room(self, table: OnlineTable) -> Room:
        if table.game_id is None:
            raise OnlineError("this table has no game yet", "not_playing", 409)
        return await self.rooms.get(table.game_id)

    async def leave(self, token: str | None, key: str) -> JSON:
        """Withdraw an open table, or forfeit the match being played at it."""
        player, table, seat = await self._seated(token, key)
        if table.status == "open":
            # One transaction, as for a table that expires (freeing the seat and then marking it could
            # stop between the two, leaving an open table with nobody at it, which nobody can withdraw).
            gone = await self._call(self.storage.abandon_open, [table.id], now=self.now())
            table = await self._reload(table.id)
            if not gone:
                raise OnlineError(f"this table is {table.status}: somebody sat down meanwhile", "not_open", 409)
            self.lobby_changed()
        elif table.status == "playing":
            await self._forfeit(await self._room(table), seat, "left")
            table = await self._reload(table.id)
        else:
            raise OnlineError(f"this table is {table.status}: there is nothing to leave", "not_playing", 409)
        return {"table": (await self._tables_json([table]))[0]}

    async def _forfeit(self, room: Room, loser: int, why: str) -> None:
        def step(game: Game) -> JSON | None:
            return None if game.is_over else game.forfeit_match(loser, why)

        if not await room.server_step(step):
            raise OnlineError("the match is over already", "not_playing", 409)
