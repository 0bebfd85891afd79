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

It is made of one class per concern (each module says what it owns):
``base`` (shared state, storage calls, ``OnlineError``), ``guests``,
``lobby``, ``timers``, ``tables``, ``sweep``, ``claims``, ``rematch``, ``chat``;
``state`` holds ``TableState``, the room's online part.
"""

from __future__ import annotations

import time

from table.server.edge.limits import Limits
from table.server.online.base import Now
from table.server.online.chat import Chat
from table.server.online.claims import Claims
from table.server.online.push import Push
from table.server.online.rematch import Rematch
from table.server.online.sweep import Sweep
from table.server.play.rooms import Rooms
from table.server.store import SqlStorage


class Online(Chat, Rematch, Claims, Sweep):
    """Guests, tables and the online rooms' clocks, presence and chat, for one app."""

    def __init__(self, storage: SqlStorage, rooms: Rooms, now: Now = time.time, push: Push | None = None,
                 limits: Limits = Limits()) -> None:
        super().__init__(storage, rooms, now, push, limits)
        rooms.attach = self._attach
