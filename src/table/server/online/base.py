"""What every part of ``Online`` shares: its state, its storage calls, its error.

``Online`` (service.py) is made of one class per concern, each in its own
module and each building on the ones below it: ``Base`` (here), ``Guests``,
``Lobby``, ``Timers``, ``Tables``, then ``Sweep``, ``Claims``, ``Rematch`` and ``Chat``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable

from table.errors import VariantError
from table.match.series import find_game
from table.server.edge.limits import Limits
from table.server.edge.outbox import Outbox
from table.server.online.push import Push
from table.server.online.results import PLAYED_ONLINE
from table.server.play.rooms import RoomError, Rooms
from table.server.store import ConflictError, Player, SqlStorage, StorageError
from table.server.store.writer import GroupWriter

JSON = dict[str, Any]
Now = Callable[[], float]

log = logging.getLogger("table.server.online")


class OnlineError(RoomError):
    """A refused online request: ``code`` for the client's catalogue, ``status`` for HTTP."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message, code)
        self.status = status


def variant_named(raw: object) -> str:
    """The name of the variant ``raw`` names (any of its names, any case), or ``unknown_variant``
    naming the variants online tables play (``results.PLAYED_ONLINE``).

    >>> variant_named("NackGammon"), variant_named("Acey-Deucey"), variant_named("RACE")
    ('nackgammon', 'acey-deucey', 'race')
    >>> variant_named("Plakoto"), variant_named("tavli")  # the Greek games, the Tavli match by its kind
    ('plakoto', 'tavli')
    >>> variant_named("fly")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    table.server.online.base.OnlineError: unknown variant 'fly': Table plays standard, nackgammon, ...
    """
    # A name is short: anything else is cut before it is quoted back.
    name = raw[:40] if isinstance(raw, str) else repr(raw)[:40]
    played = ", ".join(PLAYED_ONLINE)
    try:
        variant = find_game(name)
    except VariantError:
        raise OnlineError(f"unknown variant {name!r}: Table plays {played} at online tables",
                          "unknown_variant") from None
    if variant.name not in PLAYED_ONLINE:
        raise OnlineError(f"{variant.title} is not played at online tables yet: Table plays {played} there",
                          "unknown_variant")
    return variant.name


class Base:
    """The state the parts of ``Online`` share, and how they call storage and start timers' work."""

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
        # Games being played whose server stopped (a restart, another worker's death or handover), with
        # when one last served them: their running decision goes on from there as they load.
        self._stopped: dict[str, float | None] = {}
        # A single server notes when it serves (``note_served``); several keep the note in Redis.
        self.notes_served = True
        # With several server processes: tells the others that the lobby changed (table.server.cluster).
        self.tell_others: Callable[[], None] | None = None

    async def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A storage call in a worker thread; a database failure is ``storage_failed``."""
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except ConflictError:
            raise
        except StorageError as exc:
            raise OnlineError(str(exc), "storage_failed", 503) from exc

    def _spawn(self, work: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Start ``work(*args)`` from a timer, keeping the task until it ends."""
        task = asyncio.ensure_future(work(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
