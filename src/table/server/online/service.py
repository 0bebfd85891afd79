"""Online tables between people: guests, the lobby, tables, clocks, presence, points, chat.

``Online`` is the service behind the ``/api/guests``, ``/api/tables``,
``/api/players`` and ``/ws/lobby`` endpoints (docs/protocol.md).  When the
second player sits down it makes the table's game (``GameConfig`` mode
"online", seats held by the two device tokens' hashes) and its room, and
attaches a ``TableState``: the room's ``Extension`` that, with every log
entry, moves the clock, posts the ledger and finishes the table, all in the
entry's own database transaction.

Time comes from ``now`` (seconds since the epoch; tests pass a fake one):
every clock, deadline and away-since is in that time.  The timers that
end a match at its deadline, or start the next game after a pause, run on
the event loop; ``check`` does what they do, at once, for any room.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable

from table.errors import TableError
from table.match import NextGame
from table.match.state import Phase
from table.server.play.clock import PRESETS, Clock, new_clock
from table.server.play.game import MATCH_LENGTHS, Game, GameConfig
from table.server.online.ledger import Entry, forfeit_entries, game_entries
from table.server.edge.limits import Limits
from table.server.edge.outbox import Outbox
from table.server.online.players import NicknameError, create_guest, name_key, player_for_token
from table.server.online.push import Push
from table.server.online.results import Outcome, outcome
from table.server.play.rooms import Room, RoomError, Rooms, encode
from table.server.store import ConflictError, OnlineTable, OnlineWrite, Player, SqlStorage, StorageError
from table.server.store.writer import GroupWriter
from table.server.play.turns import keeps_running, roll_on_open, waiting_for

JSON = dict[str, Any]
Now = Callable[[], float]

log = logging.getLogger(__name__)

AWAY_CLAIM = 90.0
"""Seconds a player must have been away before the opponent may claim the match."""
NEXT_GAME_PAUSE = 10.0
"""Seconds between the games of a match before the server starts the next one itself."""
CHAT_LENGTH = 200
"""The longest chat message, in characters."""
CHAT_HISTORY = 50
"""Chat messages sent with ``hello``."""
LOBBY_DEBOUNCE = 0.5
"""Seconds the lobby waits after a change before pushing, so a burst of changes is one push."""

LOBBY_LIST = 100
"""Tables of each kind the lobby lists."""
LOBBY_PLAYING_READ = 300
"""Matches being played read for the lobby, of which those both players left are not listed."""
LOBBY_OPEN_READ = 300
"""Open tables read for the lobby, of which it lists those whose creators are waiting first."""
OPEN_FOR = 30 * 60.0
"""Seconds a real-time table waits for its second player before it is withdrawn."""
OPEN_FOR_TURN_BASED = 24 * 3600.0
"""Seconds a turn-based table waits for its second player before it is withdrawn."""
EXPIRE_EVERY = 30.0
"""Seconds between looks for open tables that waited too long."""
SEEN_EVERY = 20.0
"""A player is noted in storage as seen at most this often (any request with their token)."""
WAITING = 120.0
"""A table's creator seen this recently is waiting at it: the lobby lists such tables first."""

NAMES_KEPT = 10_000
"""Players kept in memory by id (the rest are read again when needed)."""

SERVED_BEAT = 1.0
"""Seconds between the notes a server keeps of when it last served its games: after a crash, a
running decision goes on from where it stood at the last note (so it gains at most this much)."""
SERVED_NOTE = "served-at"
"""A single server keeps that note as a site-wide value in storage (``site_keys``); several
processes keep one per partition in Redis (``table.server.cluster``)."""


def last_served(storage: SqlStorage) -> float | None:
    """When a single server last noted that it served its games (None: never)."""
    saved = storage.site_value(SERVED_NOTE)
    try:
        return None if saved is None else float(saved)
    except ValueError:  # not a note of ours: as if none were kept
        return None


def note_served(storage: SqlStorage, now: float) -> None:
    """Note that a single server serves its games at ``now``."""
    storage.set_site_value(SERVED_NOTE, repr(now), now=now)


class OnlineError(RoomError):
    """A refused online request: ``code`` for the client's catalogue, ``status`` for HTTP."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message, code)
        self.status = status


def table_settings(data: object) -> JSON:
    """The settings of a new table, checked (defaults: 3 points, cube, normal clock, public).

    >>> table_settings({"length": 5, "clock": "rapid"})
    {'length': 5, 'cube': True, 'clock': 'rapid', 'private': False, 'rated': True}
    >>> table_settings({"clock": "blitz"})
    Traceback (most recent call last):
    ...
    table.server.online.service.OnlineError: clock must be one of rapid, normal, tournament, relaxed, untimed, days1, days2, days3, days5, days7 (got 'blitz')
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise OnlineError("a new table is described by a JSON object", "bad_request")
    unknown = set(data) - {"length", "cube", "clock", "private", "rated"}
    if unknown:
        raise OnlineError(f"unknown setting(s): {', '.join(sorted(unknown))}", "bad_request")
    length, cube = data.get("length", 3), data.get("cube", True)
    clock, private, rated = data.get("clock", "normal"), data.get("private", False), data.get("rated", True)
    if not isinstance(length, int) or isinstance(length, bool) or length not in MATCH_LENGTHS:
        raise OnlineError(f"length must be one of 1, 3, 5, ..., 21 (got {length!r})", "bad_request")
    if not isinstance(cube, bool) or not isinstance(private, bool) or not isinstance(rated, bool):
        raise OnlineError("cube, private and rated are true or false", "bad_request")
    if clock not in PRESETS:
        raise OnlineError(f"clock must be one of {', '.join(PRESETS)} (got {clock!r})", "bad_request")
    return {"length": length, "cube": cube, "clock": clock, "private": private, "rated": rated}


def decider(game: Game) -> int | None:
    """The seat whose decision is timing now: None while the server acts, between games, at the end."""
    if game.is_over or game.match.phase == Phase.GAME_OVER or game.automatic() is not None:
        return None
    return game.to_act


def next_clock(clock: Clock, game: Game, entry: JSON, now: float) -> Clock:
    """The clock after ``entry`` (already applied to ``game``): the decision it made is charged,
    and the next one starts with a fresh delay.

    A decision the server takes (an opening roll, a forced or impossible move)
    never runs the clock, so it costs nothing.  Offering to resign only
    interrupts the offerer's decision: refused, it goes on where it stood.
    """
    after, kind = decider(game), entry.get("type")
    if clock.running is not None and (entry.get("seat") == clock.running or after != clock.running
                                      or kind == "forfeit") and not keeps_running(clock, entry, after):
        clock = clock.stop(now, hold=kind == "resign" and entry.get("seat") == clock.running)
    if kind == "reject_resignation" and clock.held is not None and clock.held[0] == after and clock.running is None:
        clock = clock.carry_on(now)
    elif kind != "resign":
        clock = clock.drop_held()
    if after is not None and clock.running is None:
        clock = clock.start(after, now)
    return clock


def stored_deadline(clock: Clock) -> float | None:
    """The deadline kept with a clock: when the match ends by itself (never, on an untimed table)."""
    return None if clock.claim_only else clock.deadline()


def ended_game(game: Game, entry: JSON) -> bool:
    """Whether ``entry`` (just applied) ended a game on the board, by a drop or an accepted resignation."""
    return (entry.get("type") not in ("next_game", "forfeit") and game.match.game_result is not None
            and game.match.phase in (Phase.GAME_OVER, Phase.MATCH_OVER))


@dataclass(frozen=True)
class Write:
    """What goes into storage with one log entry of an online game."""

    clock: Clock
    ledger: tuple[Entry, ...]
    finished: bool
    match: Outcome | None = None  # the entry ends the match: its result, rated or not


@dataclass(eq=False)
class TableState:
    """The online part of one room: its table, players, clock, presence and points (an ``Extension``)."""

    service: Online
    table: OnlineTable
    game_id: str
    players: tuple[Player, Player]
    points: list[int]
    clock: Clock
    ledger: list[JSON]
    away_since: list[float | None]
    sockets: list[int] = field(default_factory=lambda: [0, 0])
    timer: asyncio.TimerHandle | None = None
    between_since: float | None = None  # when the pause between two games began
    rematch: set[int] = field(default_factory=set)  # seats that asked for a rematch
    turn_to: int | None = None  # turn-based: the seat whose move the last entry started (to notify)

    @property
    def player_ids(self) -> tuple[int, int]:
        return self.players[0].id, self.players[1].id

    # Extension ---------------------------------------------------------------

    def prepare(self, game: Game, entry: JSON) -> object:
        now = self.service.now()
        ledger: list[Entry] = []
        if entry.get("type") == "forfeit":
            loser = entry["loser"]
            ledger = forfeit_entries(self.player_ids[loser], self.player_ids[1 - loser], self.game_id,
                                     "timeout" if entry["why"] == "timeout" else "left")
        elif ended_game(game, entry):
            result = game.match.game_result
            assert result is not None
            ledger = game_entries(result, self.player_ids, self.game_id)
        match = None
        if game.is_over:  # rated between people only, and only when the table says so
            rated = bool(self.table.settings.get("rated", True)) and not any(p.is_bot for p in self.players)
            match = outcome(game, self.game_id, self.table.id, self.player_ids, rated=rated)
        return Write(next_clock(self.clock, game, entry, now), tuple(ledger), game.is_over, match)

    async def store(self, game_id: str, seq: int, entry: JSON, write: object) -> None:
        assert isinstance(write, Write)
        await self.service.writer.write(OnlineWrite(
            game_id, seq, entry, clock=(write.clock.to_json(), stored_deadline(write.clock)), ledger=write.ledger,
            table=(self.table.id, "finished") if write.finished else None, match=write.match, now=self.service.now()))

    def adopt(self, write: object) -> None:
        assert isinstance(write, Write)
        started = write.clock.running
        self.turn_to = started if write.clock.turn_based and started != self.clock.running else None
        self.clock = write.clock
        ids = self.player_ids
        for e in write.ledger:
            seat = ids.index(e.player_id)
            self.points[seat] += e.amount
            self.ledger.append({"seat": seat, "amount": e.amount, "reason": e.reason})
        if write.finished:
            self.table = replace(self.table, status="finished")

    def view(self) -> JSON:
        now = self.service.now()
        left = [self.clock.remaining(s, now) for s in (0, 1)]
        fields: JSON = {
            "clock": {"preset": self.clock.preset, "delay": self.clock.delay,
                      "reserve": [left[0][1], left[1][1]], "delay_left": [left[0][0], left[1][0]],
                      "running": self.clock.running, "deadline": self.clock.deadline(), "now": now,
                      "claim_only": self.clock.claim_only},
            "presence": self.presence_list(),
            "table": self.service.table_json(self.table, self.players, self.points),
        }
        if self.ledger:
            fields["ledger"] = list(self.ledger)
        return fields

    def presence_list(self) -> list[JSON]:
        return [{"connected": self.sockets[s] > 0, "away_since": None if self.sockets[s] else self.away_since[s]}
                for s in (0, 1)]

    def presence(self, seats: frozenset[int], change: int) -> JSON | None:
        now = self.service.now()
        before = [n > 0 for n in self.sockets]
        left = self.left_by_both(now)
        for s in seats:
            self.sockets[s] = max(0, self.sockets[s] + change)
            if self.sockets[s] == 0 and before[s]:
                self.away_since[s] = now
        if before == [n > 0 for n in self.sockets]:
            return None
        if left:  # back to a match both had left: the lobby shows it again
            self.service.lobby_changed()
        elif not any(self.sockets) and not self.clock.turn_based:  # both gone: the lobby drops it in a while
            self.service.lobby_changed_in(AWAY_CLAIM)
        return {"type": "presence", "game": self.game_id, "presence": self.presence_list(), "now": now}

    def left_by_both(self, now: float) -> bool:
        """Whether both players have been away for ``AWAY_CLAIM`` s or more on a real-time table: the
        lobby no longer lists the match as being played (it goes on, its clock too, should they return).
        A turn-based match is played by people who come and go: it is never left."""
        if self.clock.turn_based or any(self.sockets):
            return False
        return all(a is not None and now - a >= AWAY_CLAIM for a in self.away_since)

    def evictable(self) -> bool:
        """Whether the room may leave memory while the match goes on: no step of the server's own is
        due but the clock's deadline, which is kept in the database (``check_all`` ends the match from
        there), so not between games; it comes back, clock and all, when asked for."""
        return self.between_since is None

    def retire(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def changed(self, room: Room) -> None:
        self.service.arm(room, self)
        if self.turn_to is not None:
            if self.sockets[self.turn_to] == 0:  # not watching: tell their devices
                self.service.push.turn(self.player_ids[self.turn_to], self.players[1 - self.turn_to].name, self.game_id)
            else:  # watching as their turn comes: they have opened it, so their dice roll (after this change)
                self.service._spawn(self.service.opened, room, frozenset({self.turn_to}))
        self.turn_to = None
        if room.game.is_over:
            self.service.lobby_changed()


class Online:
    """Guests, tables and the online rooms' clocks, presence and chat, for one app."""

    def __init__(self, storage: SqlStorage, rooms: Rooms, now: Now = time.time, push: Push | None = None,
                 limits: Limits = Limits()) -> None:
        self.storage = storage
        self.limits = limits
        # Moves are stored through one writer thread; the attribute is looked up per batch, so
        # a test may replace ``storage.append_online_many``.
        self.writer = GroupWriter(lambda writes: self.storage.append_online_many(writes))
        self.rooms = rooms
        self.now = now
        self.push = push if push is not None else Push(storage)
        # Players never change name: the most recently used are kept, so lobbies and chat need no look-ups.
        self._names: OrderedDict[int, Player] = OrderedDict()
        # When players were last seen here, and last noted as seen in storage.
        self._seen: OrderedDict[int, tuple[float, float]] = OrderedDict()
        # The open tables made from each address here: {address: {table id: when made}}.
        self._open_at: dict[str, dict[str, float]] = {}
        self._expired_at = float("-inf")  # when open tables were last looked at for their age
        self.lobby_watchers: set[Outbox] = set()
        self._lobby_push: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Future[None]] = set()  # timers' work under way (the loop keeps only weak references)
        rooms.attach = self._attach
        # Games being played whose server stopped (a restart, another worker's death or handover), with
        # when one last served them: their running decision goes on from there as they load.
        self._stopped: dict[str, float | None] = {}
        # A single server notes when it serves (``note_served``); several keep the note in Redis.
        self.notes_served = True
        # With several server processes: tells the others that the lobby changed (table.server.cluster).
        self.tell_others: Callable[[], None] | None = None

    # Players -----------------------------------------------------------------

    async def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A storage call in a worker thread; a database failure is ``storage_failed``."""
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except ConflictError:
            raise
        except StorageError as exc:
            raise OnlineError(str(exc), "storage_failed", 503) from exc

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
            await self._saw(found.id)
        return found

    async def _saw(self, player_id: int) -> None:
        """Note that the player is here now (in storage at most every ``SEEN_EVERY`` s), so that a
        table's creator who has gone is known to be gone when someone joins (``join``)."""
        now = self.now()
        stored = self._seen.get(player_id, (now, float("-inf")))[1]
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
        for i in missing:
            p = await self._call(self.storage.player, i)
            if p is not None:
                self._remember(p)
        return {i: self._names[i] for i in ids if i in self._names}

    def _remember(self, player: Player) -> None:
        self._names[player.id] = player
        self._names.move_to_end(player.id)
        while len(self._names) > NAMES_KEPT:
            self._names.popitem(last=False)

    def player_json(self, player: Player, points: int) -> JSON:
        return {"name": player.name, "points": points, "bot": player.is_bot}

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

    async def player_page(self, name: str) -> JSON:
        player = await self._call(self.storage.player_by_name_key, name_key(name))
        if player is None:
            raise OnlineError(f"there is no player called {name!r}", "not_found", 404)
        points = await self._call(self.storage.points, player.id)
        reasons: dict[str, int] = await self._call(self.storage.reasons, player.id)
        wins = sum(n for r, n in reasons.items() if r.startswith(("win:", "opponent-")))
        losses = sum(reasons.values()) - wins
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
                "record": {"games": wins + losses, "wins": wins, "losses": losses}, "recent": recent}

    # Tables ------------------------------------------------------------------

    def table_json(self, table: OnlineTable, players: tuple[Player | None, Player | None] | tuple[Player, Player],
                   points: list[int] | dict[int, int]) -> JSON:
        seats: list[JSON | None] = []
        for i, p in enumerate(players):
            if p is None:
                seats.append(None)
            else:
                pts = points[i] if isinstance(points, list) else points.get(p.id, 0)
                seats.append(self.player_json(p, pts))
        s = table.settings
        return {"id": table.id, "status": table.status, "length": s.get("length"), "cube": s.get("cube"),
                "clock": s.get("clock"), "private": bool(s.get("private")), "rated": s.get("rated", True),
                "turn_based": PRESETS[s["clock"]].turn_based if s.get("clock") in PRESETS else False,
                "players": seats,
                "game": table.game_id, "created": table.created}

    async def _tables_json(self, tables: list[OnlineTable]) -> list[JSON]:
        ids = {i for tb in tables for i in tb.seats if i is not None}
        players = await self._players(ids)
        points: dict[int, int] = await self._call(self.storage.points_of, ids) if ids else {}
        return [self.table_json(tb, (players.get(tb.seats[0]) if tb.seats[0] is not None else None,
                                     players.get(tb.seats[1]) if tb.seats[1] is not None else None), points)
                for tb in tables]

    async def lobby(self) -> JSON:
        open_ = await self._call(self.storage.list_tables, ("open",), limit=LOBBY_OPEN_READ)
        # Under a flood of tables their makers left, the tables whose creators wait come first.
        seen = await self._last_seen({tb.creator for tb in open_})
        now_ = self.now()
        open_.sort(key=lambda tb: now_ - seen.get(tb.creator, tb.created) > WAITING)  # stable: newest first
        open_ = open_[:LOBBY_LIST]
        playing = await self._call(self.storage.list_tables, ("playing",), limit=LOBBY_PLAYING_READ)
        now = self.now()
        loaded = {room.id: room for room in self.rooms.loaded()}
        playing = [tb for tb in playing if not self._left_by_both(tb, loaded, now)][:LOBBY_LIST]
        return {"open": await self._tables_json(open_), "playing": await self._tables_json(playing),
                "now": now}

    def _left_by_both(self, table: OnlineTable, loaded: dict[str, Room], now: float) -> bool:
        """Whether the match at ``table`` is one both players left (``TableState.left_by_both``).

        A game this process serves that is not in memory has had nobody watching it for a while
        (rooms leave memory only then): left, unless turn-based.  Another process's game is listed
        (its players' presence is known there only)."""
        clock = table.settings.get("clock")
        if table.game_id is None or (clock in PRESETS and PRESETS[clock].turn_based):
            return False
        room = loaded.get(table.game_id)
        if room is None:
            return self.rooms.owns(table.game_id)
        state = room.online
        return isinstance(state, TableState) and state.left_by_both(now)

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
                            table=table.id, clock=s["clock"])
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

    async def _attach(self, room: Room) -> None:
        """Give a room loaded from storage its table state; after its server stopped, a running
        decision goes on from where it stood when a server last served it."""
        table = await self._call(self.storage.table, room.game.config.table)
        if table is None or table.seats[0] is None or table.seats[1] is None:
            raise RoomError(f"game {room.id!r} has no table", "not_found")
        ids = (table.seats[0], table.seats[1])
        players = await self._players(set(ids))
        points: dict[int, int] = await self._call(self.storage.points_of, ids)
        saved = await self._call(self.storage.load_clock, room.id)
        clock = new_clock(table.settings["clock"], table.settings["length"])
        if saved is not None:
            clock = Clock.from_json(saved[0])
        now = self.now()
        stopped = room.id in self._stopped
        served = self._stopped.pop(room.id, None)
        if (stopped and clock.running is not None and not (clock.claim_only or clock.turn_based)
                and not room.game.is_over):
            # No server served this decision for a while: nobody loses that time, and nobody gains more.
            # (An untimed decision keeps its start: it has no reserve to lose, only a claim to allow; a
            # turn-based move keeps its stored deadline: days are counted on the calendar, server up or not.
            # A room that merely left memory was served all along: its clock stands as stored.)
            clock = clock.resume(now, served)
            await self._call(self.storage.save_clock, room.id, clock.to_json(), stored_deadline(clock))
        ledger = []
        for line in reversed(await self._call(self.storage.ledger, game_id=room.id, limit=1000)):
            ledger.append({"seat": ids.index(line.player_id), "amount": line.amount, "reason": line.reason})
        state = TableState(self, table, room.id, (players[ids[0]], players[ids[1]]),
                           [points[ids[0]], points[ids[1]]], clock, ledger, [now, now])
        room.online = state
        if room.game.match.phase == Phase.GAME_OVER and not room.game.is_over:
            state.between_since = now
        self.arm(room, state)

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

    async def claim(self, token: str | None, key: str) -> JSON:
        """End the match against an opponent away for 90 s (or out of time on an untimed table)."""
        _, table, seat = await self._seated(token, key)
        if table.status != "playing":
            raise OnlineError(f"this table is {table.status}, not playing", "not_playing", 409)
        room = await self._room(table)
        state = room.online
        assert isinstance(state, TableState)
        other, now = 1 - seat, self.now()
        if state.clock.turn_based:
            raise OnlineError("on a turn-based table nobody is claimed against: the days clock ends the match",
                              "cannot_claim", 409)
        since = state.away_since[other] if state.sockets[other] == 0 else None
        if since is not None and now - since >= AWAY_CLAIM:
            why = "away"
        elif state.clock.claim_only and state.clock.running == other and state.clock.flagged(now):
            why = "timeout"
        elif since is not None:
            # On the claimer's own turn their clock runs, away opponent or not: waiting only spends it.
            advice = ("; it is your turn and your clock is running: play on, their clock runs on their turn"
                      if decider(room.game) == seat else "")
            raise OnlineError(f"your opponent has been away for {now - since:.0f} s: you may claim after "
                              f"{AWAY_CLAIM:.0f} s ({AWAY_CLAIM - (now - since):.0f} s more){advice}",
                              "cannot_claim", 409)
        else:
            raise OnlineError("your opponent is here and within their time", "cannot_claim", 409)
        await self._forfeit(room, other, why)
        return {"table": (await self._tables_json([await self._reload(table.id)]))[0]}

    async def rematch(self, token: str | None, key: str) -> JSON:
        """Ask for a rematch; when both have, a new table starts with the seats swapped."""
        _, table, seat = await self._seated(token, key)
        if table.status != "finished":
            raise OnlineError("a rematch is asked for once the match is finished", "not_playing", 409)
        room = await self._room(table)
        state = room.online
        assert isinstance(state, TableState)
        state.rematch.add(seat)
        if state.rematch != {0, 1}:
            room.broadcast({"type": "rematch", "asked": sorted(state.rematch)})
            return {"rematch": "asked", "table": None}
        if state.timer is not None:
            state.timer.cancel()
        swapped = (state.players[1], state.players[0])
        state.rematch = {0, 1, 2}  # asked and being done: a third request starts nothing
        new: OnlineTable | None = None
        try:
            new = await self._call(self.storage.create_table, swapped[0].id, {**table.settings}, now=self.now())
            started = await self._start(new, swapped,
                                        [await self._call(self.storage.token_hash, p.id) for p in swapped])
        except TableError:
            # Not started: asking again starts it; the table made for it (a second transaction, so it
            # may exist) is withdrawn where the database allows, so nobody else can sit at it.
            state.rematch = {0, 1}
            if new is not None:
                try:
                    await self._call(self.storage.abandon_open, [new.id], now=self.now())
                except TableError:
                    pass  # the database still fails: the table stays open, and its creator may withdraw it
            raise
        room.broadcast({"type": "rematch", "asked": [0, 1], "table": new.id, "game": started["table"]["game"]})
        return {"rematch": "started", **started}

    async def opened(self, room: Room, seats: frozenset[int]) -> None:
        """A player opened the game (said hello): on a turn-based table their dice are rolled now (seed 001)."""
        state = room.online
        if not seats or not isinstance(state, TableState) or not state.clock.turn_based:
            return
        if await room.server_step(lambda game: roll_on_open(game, seats)):
            await self.rooms.settle(room)  # a forced move after the roll is the server's

    # Timers ------------------------------------------------------------------

    def arm(self, room: Room, state: TableState) -> None:
        """Set the room's timer to its next deadline: the running clock's, or the end of the pause between games."""
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        game = room.game
        if game.is_over:
            return
        if game.match.phase == Phase.GAME_OVER:
            if state.between_since is None:
                state.between_since = self.now()
            at: float | None = state.between_since + NEXT_GAME_PAUSE
        else:
            state.between_since = None
            # Turn-based deadlines are days away: the periodic sweep of stored deadlines enforces them.
            at = None if state.clock.claim_only or state.clock.turn_based else state.clock.deadline()
        if at is None:
            return
        state.timer = asyncio.get_running_loop().call_later(max(0.0, at - self.now()) + 0.01,
                                                            self._spawn, self._fire, room)

    def _spawn(self, work: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Start ``work(*args)`` from a timer, keeping the task until it ends."""
        task = asyncio.ensure_future(work(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fire(self, room: Room) -> None:
        try:
            await self.check(room)
        except TableError as exc:
            if room.retired:
                return  # another worker serves it now, and keeps its time
            log.warning("room %s: the timer's step is postponed: %s", room.id, exc)
            state = room.online
            if isinstance(state, TableState):
                state.timer = asyncio.get_running_loop().call_later(1.0, self._spawn, self._fire, room)

    async def check(self, room: Room) -> None:
        """Do what is due at ``now``: end a match whose clock ran out, start the next game after the pause."""
        state = room.online
        if not isinstance(state, TableState):
            return
        now = self.now()

        def step(game: Game) -> JSON | None:
            if game.is_over:
                return None
            if game.match.phase == Phase.GAME_OVER:
                since = state.between_since
                if since is not None and now >= since + NEXT_GAME_PAUSE:
                    return game.apply_automatic(NextGame())
                return None
            if not state.clock.claim_only and state.clock.running is not None and state.clock.flagged(now):
                return game.forfeit_match(state.clock.running, "timeout")
            return None

        if await room.server_step(step):
            await self.rooms.settle(room)
        else:
            self.arm(room, state)

    async def check_all(self) -> None:
        """``check`` every online room in memory, and load games whose stored clock ran out; every
        ``EXPIRE_EVERY`` s, withdraw the open tables that waited too long."""
        if self.now() - self._expired_at >= EXPIRE_EVERY:
            self._expired_at = self.now()
            await self.expire_tables()
        for room in self.rooms.loaded():
            if room.online is not None and not room.game.is_over:
                try:
                    await self.check(room)
                except TableError as exc:  # e.g. its forfeit could not be stored: the next sweep tries again
                    log.warning("room %s: its clock could not be checked: %s", room.id, exc)
        for game_id in await self._call(self.storage.expired_clocks, self.now()):
            if not self.rooms.owns(game_id):
                continue  # another worker's: it checks its own
            try:
                await self.check(await self.rooms.get(game_id))
            except TableError as exc:
                log.warning("game %s: its clock ran out but it could not be checked: %s", game_id, exc)

    async def recover(self) -> None:
        """At start-up of a single server: load every game being played, so that their clocks go on
        and their timers run, and end those whose stored deadline passed meanwhile (turn-based ones
        mostly). A running decision goes on from where it stood at the previous server's last note."""
        served = await self._call(last_served, self.storage)
        try:
            await self._call(note_served, self.storage, self.now())
        except TableError as exc:  # noted again every second (``keep_checking``)
            log.warning("could not note that this server serves its games: %s", exc)
        await self.load(await self.stopped(lambda game_id: True, lambda game_id: served))

    async def stopped(self, which: Callable[[str], bool], served: Callable[[str], float | None]) -> list[str]:
        """The games being played that ``which`` selects, noted as last served at ``served(game_id)``
        (None: not known) by a server that stopped: their running decisions go on from there as they load.
        A worker calls it for the partitions it takes before it serves them (then ``load``)."""
        games = [table.game_id for table in await self._call(self.storage.list_tables, ("playing",), private=True,
                                                              limit=100_000)
                 if table.game_id is not None and which(table.game_id)]
        for game_id in games:
            self._stopped[game_id] = served(game_id)
        return games

    async def load(self, games: list[str]) -> None:
        """Load ``games`` (those this process serves), then end any whose stored deadline has passed."""
        for game_id in games:
            if self.rooms.owns(game_id):
                try:
                    await self.rooms.get(game_id)
                except TableError as exc:
                    log.warning("game %s could not be loaded: %s", game_id, exc)
        await self.check_all()

    async def keep_checking(self, period: float = 5.0, beat: float = SERVED_BEAT) -> None:
        """Note every ``beat`` seconds that this server serves its games (a single server: see
        ``recover``) and ``check_all`` every ``period`` seconds (a safety net under the timers; runs
        until cancelled)."""
        loop = asyncio.get_running_loop()
        due = loop.time() + period
        while True:
            await asyncio.sleep(min(beat, period) if self.notes_served else period)
            try:
                if self.notes_served:
                    await self._call(note_served, self.storage, self.now())
                if loop.time() >= due:
                    due = loop.time() + period
                    await self.check_all()
            except TableError as exc:
                log.warning("checking clocks failed: %s", exc)

    # Lobby -------------------------------------------------------------------

    def lobby_changed(self) -> None:
        """Push the lobby to its watchers soon (one push for a burst of changes), here and on the
        server's other processes."""
        if self.tell_others is not None:
            self.tell_others()
        self.lobby_changed_here()

    def lobby_changed_in(self, seconds: float) -> None:
        """``lobby_changed`` in ``seconds`` (when a match both players left leaves the lobby)."""
        asyncio.get_running_loop().call_later(seconds + 0.01, self.lobby_changed)

    def lobby_changed_here(self) -> None:
        """Push the lobby to this process's watchers soon."""
        if self._lobby_push is None and self.lobby_watchers:
            self._lobby_push = asyncio.get_running_loop().call_later(LOBBY_DEBOUNCE, self._spawn, self._push_lobby)

    async def _push_lobby(self) -> None:
        self._lobby_push = None
        try:
            text = encode({"type": "lobby", **await self.lobby()})
        except TableError as exc:
            log.warning("the lobby could not be read: %s", exc)
            return
        for outbox in list(self.lobby_watchers):
            if not outbox.put(text):
                self.lobby_watchers.discard(outbox)

    # Chat --------------------------------------------------------------------

    async def chat(self, room: Room, seats: frozenset[int], player_id: int | None, msg: JSON) -> None:
        """Keep and deliver a chat message from a watcher of ``room``."""
        state = room.online
        if not isinstance(state, TableState):
            raise OnlineError("chat is for online tables", "not_online")
        if set(msg) - {"type", "channel", "text"}:
            raise OnlineError('a chat message is {"type": "chat", "channel": ..., "text": ...}', "bad_request")
        channel, text = msg.get("channel"), msg.get("text")
        mine = "players" if seats else "spectators"
        if channel != mine:
            raise OnlineError(f"you write to the {mine!r} channel, not {channel!r}", "bad_request")
        if player_id is None:
            raise OnlineError("only guests chat: say hello with your device token", "no_token")
        if not isinstance(text, str) or not text.strip() or len(text) > CHAT_LENGTH:
            raise OnlineError(f"a chat message has 1 to {CHAT_LENGTH} characters", "bad_request")
        saved = await self._call(self.storage.add_chat, state.table.id, channel, player_id, text, now=self.now())
        name = (await self._players({player_id}))[player_id].name
        message = {"type": "chat", "channel": channel, "id": saved.id, "from": name, "text": text,
                   "at": saved.created}
        room.broadcast(message, lambda w: bool(w.seats) == (channel == "players"))

    async def chat_history(self, room: Room, seats: frozenset[int]) -> JSON | None:
        """The last messages of the channel the holder of ``seats`` reads (None for a game that is not online)."""
        state = room.online
        if not isinstance(state, TableState):
            return None
        channel = "players" if seats else "spectators"
        lines = await self._call(self.storage.chat_messages, state.table.id, channel, limit=CHAT_HISTORY)
        names = await self._players({m.player_id for m in lines})
        return {"type": "chat_history", "channel": channel,
                "messages": [{"channel": channel, "id": m.id, "from": names[m.player_id].name if m.player_id in names
                              else None, "text": m.text, "at": m.created} for m in lines]}

