"""What storage hands out and takes in: its records, its errors and the names of its states.

Plain values with no database behind them, so that code that only reads them
(rooms, the online service, push) need not know how they are kept.

>>> Player(1, "Ana", False, 0.0, 0.0).name
'Ana'
>>> issubclass(ConflictError, StorageError) and issubclass(StorageError, ValueError)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from table.errors import TableError
from table.server.online.ledger import Entry
from table.server.online.ratings import Rating
from table.server.online.results import Outcome

JSON = dict[str, Any]

TableStatus = Literal["open", "playing", "finished", "abandoned"]
TABLE_STATUSES: tuple[TableStatus, ...] = ("open", "playing", "finished", "abandoned")
Channel = Literal["players", "spectators"]
CHANNELS: tuple[Channel, ...] = ("players", "spectators")
CHAT_MAX = 500
"""The longest chat message, in characters."""


class StorageError(TableError):
    """A storage location that cannot be used, or something asked for that is not there."""


class ConflictError(StorageError):
    """Something that must be unique is taken already: a game id, a log place, a name, a seat."""


class Storage(Protocol):
    """What a room needs: a game's settings and seats, and its log, one entry at a time."""

    def create(self, game_id: str, config: JSON, seats: JSON) -> None: ...
    def append(self, game_id: str, seq: int, entry: JSON) -> None: ...
    def load(self, game_id: str) -> tuple[JSON, JSON, list[JSON]]: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class Player:
    """A guest (or a bot) with a nickname; the device token's hash is not carried around."""

    id: int
    name: str
    is_bot: bool
    created: float
    last_seen: float


@dataclass(frozen=True)
class OnlineTable:
    """A table in the lobby; ``seats`` holds the player id in seat 0 and seat 1 (None: free)."""

    id: str
    game_id: str | None
    creator: int
    settings: JSON
    status: TableStatus
    invite: str | None
    created: float
    updated: float
    seats: tuple[int | None, int | None]


@dataclass(frozen=True)
class LedgerLine:
    """A stored ledger entry with its id and time."""

    id: int
    player_id: int
    game_id: str | None
    amount: int
    reason: str
    created: float


@dataclass(frozen=True)
class TableRoom:
    """What an online game's room needs from storage as it loads (``SqlStorage.table_room``):
    its table, both players (those that exist), their points, the stored clock
    (state, deadline) if any, and the game's ledger lines (newest first)."""

    table: OnlineTable
    players: dict[int, Player]
    points: dict[int, int]
    clock: tuple[JSON, float | None] | None
    ledger: list[LedgerLine]


@dataclass(frozen=True)
class ChatMessage:
    """A chat message kept at a table; ``id`` grows with every message (use it to page)."""

    id: int
    table_id: str
    channel: Channel
    player_id: int
    text: str
    created: float


@dataclass(frozen=True)
class MatchResult:
    """A stored match result: the outcome, both players' ratings before and after, and when."""

    id: int
    outcome: Outcome
    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]
    created: float


@dataclass(frozen=True)
class PushSubscription:
    """Where the browser of one of a player's devices takes Web Push notices, and its language."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str


Board = Literal["rating", "points"]


def public_id(nbytes: int) -> str:
    """A random URL-safe id of ``nbytes`` random bytes that never starts with ``-``.

    Ids are typed after command-line options (``table online --join ID``), where a leading
    ``-`` would read as an option.

    >>> all(not public_id(6).startswith("-") for _ in range(200))
    True
    """
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


@dataclass(frozen=True)
class OnlineWrite:
    """The arguments of one ``append_online`` call, for ``append_online_many``."""

    game_id: str
    seq: int
    entry: JSON
    clock: tuple[JSON, float | None] | None = None
    ledger: Sequence[Entry] = ()
    table: tuple[str, TableStatus] | None = None
    match: Outcome | None = None
    now: float | None = None
