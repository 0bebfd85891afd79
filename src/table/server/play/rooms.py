"""Rooms: one room owns one match, its seats, its watchers and its version.

Every change is one log entry; the room's version is the number of entries,
so each event a watcher receives carries the version it brings the game to.
Seats are held by secret tokens (only their hashes are stored); a watcher
without a token is a spectator and sees the board with no legal moves.

A change is applied, stored, then published, all under the room's lock:
if storing fails the game is rebuilt from its log without the new entry,
the request is refused with ``storage_failed`` and nobody hears of it.
Storage calls run in worker threads and the computer thinks in another
process, so the event loop only ever waits on them, never works for them.
Publishing only queues messages on each watcher's ``Outbox``: a slow reader
delays nobody.

Rooms live in memory while used: ``Rooms.sweep`` forgets rooms nobody
watches that have been idle for a while (sooner once their match is over, or
once both players of an online match are gone: its deadline is kept in the
database, and the server ends the match from there); the next request loads
them again from storage.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol, TypeVar

from table.errors import TableError
from table.rules.dice import DiceSource, SecretDice
from table.server.play.computer import BotTask, task_for, think
from table.server.play.game import Game, GameConfig
from table.server.edge.outbox import Outbox
from table.server.protocol import Act, Events, Presence, ServerMsg, State, encode, encode_json
from table.server.store import Storage, StorageError, public_id

JSON = dict[str, Any]
Think = Callable[[BotTask], Awaitable[JSON]]
Clock = Callable[[], float]
T = TypeVar("T")

log = logging.getLogger(__name__)

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

MOVED_CODE = 4503  # a socket closed because its game is now served by another worker: reconnect
MOVED = "this game is served by another of the server's processes just now: try again"
GREETING = 32
"""Sockets opened at once (``Rooms.greeting``): more than the threads that read storage, few enough
that a move of an open game never waits behind a crowd of openings (docs/performance.md)."""


def new_game_id() -> str:
    """A fresh random game id (a single process serves every id)."""
    return public_id(9)


class RoomError(TableError):
    """A request a room refuses: wrong token, stale version, bad action, storage down."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def tidy_period(finished_seconds: float) -> float:
    """How often rooms are swept when finished rooms stay ``finished_seconds``.

    >>> tidy_period(60), tidy_period(5), tidy_period(0)
    (30.0, 2.5, 0.5)
    """
    return min(30.0, max(0.5, finished_seconds / 2))


async def think_here(task: BotTask) -> JSON:
    """Think in this process (for a ``Rooms`` used without a pool, e.g. in tests)."""
    return think(task)


class AsyncStore:
    """A ``Storage``'s synchronous calls, each run in a worker thread."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def create(self, game_id: str, config: JSON, seats: JSON) -> None:
        await asyncio.to_thread(self.storage.create, game_id, config, seats)

    async def append(self, game_id: str, seq: int, entry: JSON) -> None:
        await asyncio.to_thread(self.storage.append, game_id, seq, entry)

    async def load(self, game_id: str) -> tuple[JSON, JSON, list[JSON]]:
        return await asyncio.to_thread(self.storage.load, game_id)


@dataclass(eq=False)
class Watcher:
    """One connection following a room, with the seats its token holds (and, online, whose token it is)."""

    outbox: Outbox
    seats: frozenset[int]
    player: int | None = None


class Extension(Protocol):
    """What an online table adds to its room: clocks, points and presence (``table.server.online.service``).

    ``prepare`` works out what goes with a new log entry (the clock, ledger
    entries, the table's status) without changing anything; ``store`` keeps the
    entry with it in one transaction; ``adopt`` takes it on once stored.
    """

    def prepare(self, game: Game, entry: JSON) -> object: ...
    async def store(self, game_id: str, seq: int, entry: JSON, write: object) -> None: ...
    def adopt(self, write: object) -> None: ...
    def view(self) -> JSON: ...
    def presence(self, seats: frozenset[int], change: int) -> Presence | None: ...
    def changed(self, room: Room) -> None: ...
    def evictable(self) -> bool: ...
    def retire(self) -> None: ...


@dataclass(eq=False)
class Room:
    id: str
    game: Game
    seat_hashes: list[str | None]
    store: AsyncStore
    dice: DiceSource
    think: Think = think_here
    bot_delay: float = 0.0
    clock: Clock = time.monotonic
    watchers: set[Watcher] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    touched: float = 0.0
    sockets: int = 0  # WebSockets open on this room, watching or not yet: it stays in memory for them
    online: Extension | None = None
    retired: bool = False  # served by another worker now (table.server.cluster): it changes no more
    _advancing: asyncio.Future[None] | None = None

    def __post_init__(self) -> None:
        self.touched = self.clock()

    @property
    def version(self) -> int:
        return len(self.game.log)

    @property
    def busy(self) -> bool:
        """A change or the computer's turn is under way."""
        return self.lock.locked() or (self._advancing is not None and not self._advancing.done())

    def waits_on_server(self) -> bool:
        """The game's next step is the server's (a roll, an empty move, the computer's turn)."""
        seat = self.game.to_act
        return self.game.automatic() is not None or (seat is not None and self.game.config.is_bot(seat))

    def seats_for(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds (empty for a spectator); a wrong token is refused."""
        if token is None or token == "":
            return frozenset()
        h = _hash(token)
        seats = frozenset(i for i, s in enumerate(self.seat_hashes) if s is not None and hmac.compare_digest(s, h))
        if not seats and self.online is None:  # online, any guest may watch with their own token
            raise RoomError("this token does not hold a seat in this game", "bad_token")
        return seats

    def message(self, seats: frozenset[int], shared: JSON | None = None) -> JSON:
        """The state message for ``seats`` (``shared``: this state's ``shared_view()``, when made for several)."""
        view = self.game.view(seats, self.shared_view() if shared is None else shared)
        return State(self.id, self.version, sorted(seats), self.game.config.to_json(), view).to_json()

    def shared_view(self) -> JSON:
        """What every watcher's view of the game holds alike (the table's, online), made once per state
        for all of them."""
        view = self.game.shared_view()
        if self.online is not None:
            view.update(self.online.view())
        return view

    async def state(self, seats: frozenset[int]) -> JSON:
        """The state message for ``seats``, as stored (never mid-change)."""
        async with self.lock:
            self.touched = self.clock()
            return self.message(seats)

    async def watch(self, watcher: Watcher, since: int | None = None, replacing: Watcher | None = None) -> None:
        """Add ``watcher`` (instead of ``replacing``): queue what it missed after version ``since``
        (if given), then the state."""
        async with self.lock:
            if since is not None and since > self.version:
                raise RoomError(f"since must be a version from 0 to {self.version}")
            if not watcher.outbox.open:  # dropped meanwhile: its socket is closing
                if replacing is not None:
                    self.unwatch(replacing)
                return
            self.touched = self.clock()
            presence = self.online.presence(watcher.seats, 1) if self.online and watcher.seats else None
            if replacing is not None:  # after counting the new one in: a second hello is no disconnect
                self.unwatch(replacing)
            if since is not None:
                # What a returning watcher missed, as logged (past rolls included).
                watcher.outbox.put(encode(Events(since, self.version, self.game.log[since:])))
            watcher.outbox.put(encode_json(self.message(watcher.seats)))
            if presence is not None:
                self.broadcast(presence)  # the others hear of it; the newcomer's state has it already
            self.watchers.add(watcher)

    def unwatch(self, watcher: Watcher) -> None:
        self._drop(watcher)
        self.touched = self.clock()

    def _drop(self, watcher: Watcher) -> None:
        """Stop publishing to ``watcher`` (gone, or too slow to read); its seats may now be away."""
        if watcher in self.watchers:
            self.watchers.discard(watcher)
            self._presence(watcher.seats, -1)

    def _presence(self, seats: frozenset[int], change: int) -> None:
        """Count a seat's sockets; tell every watcher when a seat comes or goes."""
        if self.online is not None and seats:
            message = self.online.presence(seats, change)
            if message is not None:
                self.broadcast(message)

    def broadcast(self, message: ServerMsg, to: Callable[[Watcher], bool] = lambda w: True) -> None:
        """Queue ``message`` for every watcher ``to`` selects (one encoding for all)."""
        text = encode(message)
        for w in list(self.watchers):
            if to(w) and not w.outbox.put(text):
                self._drop(w)

    async def _exclusive(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` under the lock to its end even if the caller is cancelled meanwhile:
        a write in flight must end stored and published, or rolled back."""
        async def locked() -> T:
            async with self.lock:
                if self.retired:
                    raise RoomError(MOVED, "moved")
                return await work()

        task = asyncio.ensure_future(locked())
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved even if nobody awaits
        return await asyncio.shield(task)

    async def _commit(self, entry: JSON) -> None:
        """Store the entry the game has just logged, then publish it; undo it if it was not stored.

        After a failed write the game is rebuilt from what storage holds (a
        write can fail after it was made, e.g. a lost connection), or, if
        storage cannot even be read, from the log without the new entry.
        """
        write = None if self.online is None else self.online.prepare(self.game, entry)
        try:
            if self.online is None:
                await self.store.append(self.id, self.version - 1, entry)
            else:
                await self.online.store(self.id, self.version - 1, entry, write)
        except Exception as exc:
            log.exception("room %s: could not store log entry %d", self.id, self.version - 1)
            config, wanted = self.game.config, self.version
            try:
                stored = (await self.store.load(self.id))[2]
            except Exception:
                stored = self.game.log[:-1]
            self.game = Game.replay(config, stored, self.dice)
            if self.version != wanted:
                raise RoomError("the server could not save this change, so it did not happen: try again",
                                "storage_failed") from exc
        self.touched = self.clock()
        if self.online is not None:
            self.online.adopt(write)
        self._publish()
        if self.online is not None:
            self.online.changed(self)

    def _publish(self) -> None:
        texts: dict[frozenset[int], str] = {}
        shared = self.shared_view() if self.watchers else None
        for w in list(self.watchers):
            if w.seats not in texts:
                texts[w.seats] = encode_json(self.message(w.seats, shared))
            if not w.outbox.put(texts[w.seats]):
                self._drop(w)  # closed or too slow: it reconnects with since

    async def act(self, seats: frozenset[int], act: Act) -> None:
        """Apply a player's action (refused with a ``RoomError`` and no change if wrong)."""
        action, version = act.action, act.version

        async def work() -> None:
            if version is not None and version != self.version:
                raise RoomError(f"the game has moved on: it is at version {self.version}, "
                                f"the action was for version {version}", "stale")
            if not self.game.may_act(seats):
                raise RoomError("it is not your turn to act", "not_your_turn")
            try:
                entry = self.game.act(seats, action)
            except TableError as exc:
                raise RoomError(str(exc), "illegal") from exc
            await self._commit(entry)

        await self._exclusive(work)

    async def server_step(self, step: Callable[[Game], JSON | None]) -> bool:
        """Let the server change the game (a timeout, a forfeit, the next game): ``step`` returns the
        log entry it made, or None for no change; stored and published as any action."""
        async def work() -> bool:
            entry = step(self.game)
            if entry is None:
                return False
            await self._commit(entry)
            return True

        return await self._exclusive(work)

    async def advance(self) -> None:
        """Take every step that needs no person: rolls, passes and the computer's turns.

        One run at a time per room; a second caller waits for the running one.
        """
        running = self._advancing
        if running is None or running.done():
            running = self._advancing = asyncio.ensure_future(self._advance())
            running.add_done_callback(lambda t: t.cancelled() or t.exception())
        await asyncio.shield(running)

    async def _advance(self) -> None:
        while True:
            async with self.lock:
                if self.retired:
                    return
                auto = self.game.automatic()
                if auto is not None:
                    await self._commit(self.game.apply_automatic(auto))
                    continue
                seat = self.game.to_act
                if seat is None or not self.game.config.is_bot(seat):
                    return
                version, task = self.version, task_for(self.game, seat)
            # The delay lets a person follow the computer's move; it thinks meanwhile.
            thinking = asyncio.ensure_future(self.think(task))
            try:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                action = await thinking
            finally:
                thinking.cancel()
            async with self.lock:
                if self.retired:
                    return
                if self.version != version:  # pragma: no cover - someone else acted meanwhile
                    continue
                try:
                    entry = self.game.act(frozenset({seat}), action)
                except TableError as exc:  # pragma: no cover - a bug in the computer
                    raise RoomError(f"the computer chose an action the game refused: {exc}",
                                    "computer_failed") from exc
                await self._commit(entry)


class Rooms:
    """Every open room, loaded from storage on first use and forgotten when idle.

    ``think`` decides for the computer (default: in this process; the app
    passes its process pool's).  ``idle_seconds`` and ``finished_seconds``
    say how long a room nobody watches stays in memory, before and after its
    match is over; an online match that nobody is connected to leaves after
    ``away_seconds`` (or ``idle_seconds``, if shorter).
    """

    def __init__(self, storage: Storage, dice: DiceSource | None = None, bot_delay: float = 0.0,
                 think: Think = think_here, clock: Clock = time.monotonic,
                 idle_seconds: float = 15 * 60, finished_seconds: float = 60, away_seconds: float = 120) -> None:
        self.storage = storage
        self.store = AsyncStore(storage)
        self.dice = dice or SecretDice()
        self.bot_delay = bot_delay
        self.think = think
        self.clock = clock
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self.away_seconds = away_seconds
        self._rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        # Sockets opening (a room loaded, a hello answered) take turns, GREETING at a time: after a
        # restart every client comes back at once, and thousands of openings queued on the event
        # loop would hold up every move of the games already open behind them.
        self.greeting = asyncio.Semaphore(GREETING)
        # Online tables give the rooms of their games an Extension as they load (table.server.online.service).
        self.attach: Callable[[Room], Awaitable[None]] | None = None
        # With several server processes (table.server.cluster) this process serves only the games
        # ``owns`` admits, and makes new ids among them.
        self.owns: Callable[[str], bool] = lambda game_id: True
        self.new_id: Callable[[], str] = new_game_id

    def __len__(self) -> int:
        """How many rooms are in memory."""
        return len(self._rooms)

    def _room(self, game_id: str, game: Game, seat_hashes: list[str | None], keep: bool = True) -> Room:
        room = Room(game_id, game, seat_hashes, self.store, self.dice, self.think, self.bot_delay, self.clock)
        if keep:
            self._rooms[game_id] = room
        return room

    def add(self, room: Room) -> None:
        """Keep a room made elsewhere (an online table's, once its extension is attached)."""
        self._rooms[room.id] = room

    def loaded(self) -> list[Room]:
        """The rooms in memory now."""
        return list(self._rooms.values())

    async def create(self, request: object) -> tuple[Room, str]:
        """Open a room for a new match; return it and the creator's secret token."""
        config = GameConfig.from_json(request)
        game_id = self.new_id()
        token = secrets.token_urlsafe(24)
        h = _hash(token)
        seat_hashes: list[str | None] = (
            [h, h] if config.mode == "local"
            else [h if i == config.human_seat else None for i in (0, 1)])
        try:
            await self.store.create(game_id, config.to_json(), {"hashes": seat_hashes})
        except Exception as exc:
            log.exception("could not store a new game")
            raise RoomError("the server could not save the new game: try again", "storage_failed") from exc
        room = self._room(game_id, Game(config, self.dice), seat_hashes)
        await self.settle(room)
        return room, token

    async def settle(self, room: Room) -> None:
        """Let the server take its steps; if one cannot be stored the game waits, as stored, for a retry."""
        if not room.busy and not room.waits_on_server():
            return  # the game, as stored, waits on a player: no run to start (every action asks)
        try:
            await room.advance()
        except RoomError as exc:
            log.warning("room %s: the server's step is postponed: %s", room.id, exc)

    async def get(self, game_id: str) -> Room:
        """The room of ``game_id``, from memory or storage (``not_found`` if there is none)."""
        room = self._rooms.get(game_id)
        if room is None:
            if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
                raise RoomError(f"there is no game {game_id!r}", "not_found")
            if not self.owns(game_id):
                raise RoomError(MOVED, "moved")
            loading = self._loading.get(game_id)
            if loading is None:  # one load per game, however many ask at once
                loading = self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
                loading.add_done_callback(lambda _: self._loading.pop(game_id, None))
            room = await asyncio.shield(loading)
        room.touched = self.clock()
        if room.waits_on_server() and not room.busy:
            await self.settle(room)
        return room

    async def _load(self, game_id: str) -> Room:
        try:
            config_json, seats, entries = await self.store.load(game_id)
        except StorageError as exc:
            raise RoomError(str(exc), "not_found") from exc
        except Exception as exc:
            log.exception("could not load game %s", game_id)
            raise RoomError("the server could not read this game: try again", "storage_failed") from exc
        game = Game.replay(GameConfig.from_json(config_json, online=True), entries, self.dice)
        room = self._room(game_id, game, list(seats["hashes"]), keep=False)
        if game.config.mode == "online":
            if self.attach is None:
                raise RoomError(f"game {game_id!r} is an online game and this server has no online tables",
                                "not_found")
            await self.attach(room)
        self._rooms[game_id] = room
        return room

    def retire(self, which: Callable[[str], bool]) -> list[Room]:
        """Let go of the rooms whose ids ``which`` selects (another worker serves them now):
        they change no more, their timers stop and their sockets close with ``MOVED_CODE``,
        so that their clients reconnect to the new owner. Call it with no change in flight
        (no room busy) where that matters."""
        gone = [room for game_id, room in self._rooms.items() if which(game_id)]
        for room in gone:
            del self._rooms[room.id]
            room.retired = True
            if room.online is not None:
                room.online.retire()
            for w in list(room.watchers):
                w.outbox.finish(MOVED_CODE, "moved")
            room.watchers.clear()
        return gone

    def sweep(self) -> list[str]:
        """Forget rooms nobody watches that are idle (or over) long enough; return their ids.

        What they held is freed by reference counts; the memory they leave is given back
        by the server's ``MemoryKeeper`` (``table.server.edge.memory``) once the load falls.
        """
        now = self.clock()
        gone = []
        for game_id, room in list(self._rooms.items()):
            if room.watchers or room.sockets or room.busy:
                continue
            playing_online = room.online is not None and not room.game.is_over
            if room.online is not None and playing_online and not room.online.evictable():
                continue  # a step of the server's own is due (the next game): its timer lives in memory
            idle = now - room.touched
            if (idle >= self.idle_seconds or (room.game.is_over and idle >= self.finished_seconds)
                    or (playing_online and idle >= self.away_seconds)):
                del self._rooms[game_id]
                gone.append(game_id)
                if room.online is not None:
                    room.online.retire()  # its timer goes with it: the stored deadline ends the match
        return gone

    async def keep_tidy(self, period: float | None = None) -> None:
        """Sweep every ``period`` seconds and retry server steps that could not be stored (runs until cancelled).

        By default every 30 s, or every half of ``finished_seconds`` when that is shorter (but not
        under half a second), so that a finished room leaves soon after its window.
        """
        if period is None:
            period = tidy_period(self.finished_seconds)
        while True:
            await asyncio.sleep(period)
            self.sweep()
            for room in list(self._rooms.values()):
                if room.waits_on_server() and not room.busy:
                    await self.settle(room)
