"""Rooms: one room owns one match, its seats, its watchers and its version.

Every change is one log entry; the room's version is the number of entries,
so each event a watcher receives carries the version it brings the game to.
Seats are held by secret tokens (only their hashes are stored); a watcher
without a token is a spectator and sees the board with no legal moves.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from table.errors import TableError
from table.rules.dice import DiceSource, SecretDice
from table.server.computer import choose_action
from table.server.game import Game, GameConfig
from table.server.storage import Storage, StorageError

JSON = dict[str, Any]
Send = Callable[[JSON], Awaitable[None]]


class RoomError(TableError):
    """A request a room refuses: wrong token, stale version, bad action."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Watcher:
    send: Send
    seats: frozenset[int]


@dataclass(eq=False)
class Room:
    id: str
    game: Game
    seat_hashes: list[str | None]
    storage: Storage
    dice: DiceSource
    bot_delay: float = 0.0
    watchers: set[Watcher] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def version(self) -> int:
        return len(self.game.log)

    def seats_for(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds (empty for a spectator); a wrong token is refused."""
        if token is None or token == "":
            return frozenset()
        if not isinstance(token, str):
            raise RoomError("the token must be a string", "bad_token")
        h = _hash(token)
        seats = frozenset(i for i, s in enumerate(self.seat_hashes) if s is not None and hmac.compare_digest(s, h))
        if not seats:
            raise RoomError("this token does not hold a seat in this game", "bad_token")
        return seats

    def message(self, seats: frozenset[int]) -> JSON:
        return {"type": "state", "game": self.id, "version": self.version, "seats": sorted(seats),
                "config": self.game.config.to_json(), "view": self.game.view(seats)}

    async def _record(self, entry: JSON) -> None:
        self.storage.append(self.id, self.version - 1, entry)
        await self._broadcast()

    async def _broadcast(self) -> None:
        for w in list(self.watchers):
            try:
                await w.send(self.message(w.seats))
            except Exception:  # a closed socket: forget it, the others still get the event
                self.watchers.discard(w)

    async def act(self, seats: frozenset[int], action: object, version: object = None) -> None:
        """Apply a player's action (refused with a ``RoomError`` and no change if wrong)."""
        if not isinstance(action, dict):
            raise RoomError("an action is a JSON object such as {\"type\": \"move\", ...}")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise RoomError("version must be a whole number")
        async with self.lock:
            if version is not None and version != self.version:
                raise RoomError(f"the game has moved on: it is at version {self.version}, "
                                f"the action was for version {version}", "stale")
            if not self.game.may_act(seats):
                raise RoomError("it is not your turn to act", "not_your_turn")
            try:
                entry = self.game.act(seats, action)
            except TableError as exc:
                raise RoomError(str(exc), "illegal") from exc
            await self._record(entry)

    async def advance(self) -> None:
        """Take every step that needs no person: rolls, passes and the computer's turns."""
        while True:
            async with self.lock:
                auto = self.game.automatic()
                if auto is not None:
                    await self._record(self.game.apply_automatic(auto))
                    continue
                seat = self.game.to_act
                if seat is None or not self.game.config.is_bot(seat):
                    return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if self.game.to_act != seat:  # pragma: no cover - someone else acted meanwhile
                    continue
                # In the event loop, not a worker thread: the engine and the bot keep
                # per-process scratch buffers that two threads must not share.
                action = choose_action(self.game, seat)
                await self._record(self.game.act(frozenset({seat}), action))


class Rooms:
    """Every open room, loaded from storage on first use."""

    def __init__(self, storage: Storage, dice: DiceSource | None = None, bot_delay: float = 0.0) -> None:
        self.storage = storage
        self.dice = dice or SecretDice()
        self.bot_delay = bot_delay
        self._rooms: dict[str, Room] = {}

    async def create(self, request: object) -> tuple[Room, str]:
        """Open a room for a new match; return it and the creator's secret token."""
        config = GameConfig.from_json(request)
        game_id = secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(24)
        h = _hash(token)
        seat_hashes: list[str | None] = (
            [h, h] if config.mode == "local"
            else [h if i == config.human_seat else None for i in (0, 1)])
        self.storage.create(game_id, config.to_json(), {"hashes": seat_hashes})
        room = Room(game_id, Game(config, self.dice), seat_hashes, self.storage, self.dice, self.bot_delay)
        self._rooms[game_id] = room
        await room.advance()
        return room, token

    async def get(self, game_id: str) -> Room:
        room = self._rooms.get(game_id)
        if room is not None:
            return room
        try:
            config_json, seats, log = self.storage.load(game_id)
        except StorageError as exc:
            raise RoomError(str(exc), "not_found") from exc
        config = GameConfig.from_json(config_json)
        game = Game.replay(config, log, self.dice)
        room = Room(game_id, game, list(seats["hashes"]), self.storage,
                    self.dice, self.bot_delay)
        self._rooms[game_id] = room
        await room.advance()
        return room
