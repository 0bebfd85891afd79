"""Events to every worker and commands to a table's owner, over Redis Streams.

Three kinds of stream (see docs/scaling.md for why Streams and not pub/sub):

- ``<prefix>:events:<table id>``: a table's events, each stored under the
  entry id ``<version>-1``, so Redis keeps them in version order, refuses an
  event whose version is not newer than the last, and a reader asks for
  "everything after version v" directly. The stream is capped (``MAXLEN ~``);
  a reader asking for versions older than the oldest kept gets
  :class:`NotOnBus` and must load the table from storage instead.
- ``<prefix>:live:<partition>``: every event of a partition's tables as well,
  written in the same atomic step; a worker follows the live streams of the
  partitions where it has watchers (at most as many keys as partitions: one
  ``XREAD`` over hundreds of table streams costs as much CPU as a move).
- ``<prefix>:commands:<partition>``: commands for the tables of one partition,
  read by the partition's owner through the consumer group ``owners``. A
  command is delivered to one consumer; it stays pending until acknowledged
  (after it has been applied and persisted), and a command whose consumer died
  is claimed by the next owner.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from table.server.partitions import partition_of

JSON = dict[str, Any]
GROUP = "owners"

# One atomic step: the table's stream (which refuses a version not newer than
# its last, and then nothing is written) and its partition's live stream.
_PUBLISH = """
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], ARGV[1], 'e', ARGV[2], 'a', ARGV[3])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], '*', 't', ARGV[5], 'v', ARGV[1], 'a', ARGV[3], 'e', ARGV[2])
"""


class StaleVersion(ValueError):
    """An event was published with a version not newer than the table's last one."""


class NotOnBus(LookupError):
    """Some events after the version asked for are not on the bus (trimmed, or never
    published because their owner died between persisting and publishing): load
    the table from storage instead."""


@dataclass(frozen=True)
class Event:
    """One table event and the table version it produced."""

    table_id: str
    version: int
    body: JSON
    after: int  # the version the event was applied to; one less, unless it took several steps


@dataclass(frozen=True)
class Command:
    """A command for a table's owner, with the stream entry id to acknowledge."""

    entry_id: str
    table_id: str
    body: JSON


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _version(entry_id: bytes | str) -> int:
    return int(_text(entry_id).split("-", 1)[0])


def _event(table_id: str, entry_id: bytes | str, fields: dict[Any, Any]) -> Event:
    return Event(table_id, _version(entry_id), _field(fields, "e"), int(_field(fields, "a")))


def _field_raw(fields: dict[Any, Any], name: str) -> Any:
    return fields[name.encode()] if name.encode() in fields else fields[name]


def _field(fields: dict[Any, Any], name: str) -> Any:
    """A stream entry's field, whether the client decodes replies or not."""
    return json.loads(_field_raw(fields, name))


class EventBus:
    """Publishes and reads table events and commands on one Redis server.

    ``maxlen`` bounds each table's event stream (approximately: Redis trims
    whole nodes, so somewhat more may be kept, never fewer), each live stream
    to ten times that and each command stream to a hundred times;
    ``partitions`` is how many live and command streams the tables are
    spread over.
    """

    def __init__(self, redis: Redis, *, prefix: str = "table", maxlen: int = 1000,
                 partitions: int = 64) -> None:
        if maxlen < 1:
            raise ValueError(f"maxlen must be at least 1, not {maxlen}")
        if partitions < 1:
            raise ValueError(f"the number of partitions must be at least 1, not {partitions}")
        self.redis = redis
        self.client: Any = redis  # the same, untyped: redis-py's replies are unions of every RESP shape
        self.prefix = prefix
        self.maxlen = maxlen
        self.partitions = partitions

    # Events ----------------------------------------------------------------

    def live_key(self, partition: int) -> str:
        """The stream of every event of ``partition``'s tables, for live delivery."""
        return f"{self.prefix}:live:{partition}"

    def events_key(self, table_id: str) -> str:
        """The stream that holds ``table_id``'s events."""
        return f"{self.prefix}:events:{table_id}"

    async def publish(self, table_id: str, version: int, event: JSON, *, after: int | None = None) -> None:
        """Append ``event``, which took ``table_id`` from version ``after`` (default:
        ``version`` - 1) to ``version``, to the table's stream.

        Raises :class:`StaleVersion` (and stores nothing) unless ``version`` is
        newer than the last one published: two writers cannot interleave.
        """
        after = version - 1 if after is None else after
        if not 0 <= after < version:
            raise ValueError(f"an event goes from a version to a newer one, 0 or more, not {after} to {version}")
        try:
            await self.client.eval(_PUBLISH, 2, self.events_key(table_id),
                               self.live_key(partition_of(table_id, self.partitions)),
                               f"{version}-1", json.dumps(event), after, self.maxlen, table_id,
                               self.maxlen * 10)
        except ResponseError as e:
            if "equal or smaller" not in str(e):
                raise
            raise StaleVersion(f"table {table_id!r} already has an event at version {version} "
                               "or later; events must be published in version order") from None

    async def read(self, table_id: str, since: int, count: int | None = None) -> list[Event]:
        """The events of ``table_id`` after version ``since``, oldest first (at most ``count``).

        Raises :class:`NotOnBus` when some events after ``since`` are missing
        (trimmed away, or never published), so the caller loads the table from
        storage instead.
        An empty list means the client is up to date (or the table has no
        events on the bus yet).
        """
        entries = await self.client.xrange(self.events_key(table_id), min=f"({since}-1", max="+", count=count)
        events = [_event(table_id, i, f) for i, f in entries]
        reached = since
        for e in events:  # each event must start where the one before ended
            if e.after != reached:
                raise NotOnBus(f"table {table_id!r} has no events from version {reached} to {e.after} "
                               "on the bus; load it from storage")
            reached = e.version
        return events

    # Commands --------------------------------------------------------------

    def commands_key(self, partition: int) -> str:
        """The stream of commands for the tables of ``partition``."""
        return f"{self.prefix}:commands:{partition}"

    async def ensure_group(self, partition: int) -> None:
        """Create the owners' consumer group of ``partition``'s command stream if missing."""
        try:
            await self.client.xgroup_create(self.commands_key(partition), GROUP, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def send(self, table_id: str, command: JSON) -> str:
        """Queue ``command`` for the owner of ``table_id``; its entry id.

        The stream is capped: a command still unread when a hundred times
        ``maxlen`` newer ones have come (an owner gone for minutes) is dropped,
        like a message lost with a socket; the player, who got no answer,
        sends it again.
        """
        partition = partition_of(table_id, self.partitions)
        body = json.dumps({"table": table_id, "c": command})
        return _text(await self.client.xadd(self.commands_key(partition), {"b": body},
                                           maxlen=self.maxlen * 100, approximate=True))

    async def receive(self, partition: int, consumer: str, *, count: int = 100,
                      block_ms: int | None = None, pending: bool = False) -> list[Command]:
        """New commands of ``partition`` for ``consumer`` (one of the owners' group).

        With ``pending``, the commands already delivered to ``consumer`` and not
        acknowledged instead (what a restarted worker of the same name redoes).
        """
        reply = await self.client.xreadgroup(GROUP, consumer, {self.commands_key(partition): "0" if pending else ">"},
                                            count=count, block=block_ms)
        return [self._command(i, f) for _, entries in reply or [] for i, f in entries if f]

    async def receive_many(self, partitions: list[int], consumer: str, *, count: int = 100,
                           block_ms: int | None = None) -> list[tuple[int, Command]]:
        """New commands of several partitions at once (one blocking read), each with its partition."""
        if not partitions:
            return []
        reply = await self.client.xreadgroup(GROUP, consumer, {self.commands_key(p): ">" for p in partitions},
                                            count=count, block=block_ms)
        return [(int(_text(key).rsplit(":", 1)[1]), self._command(i, f))
                for key, entries in reply or [] for i, f in entries if f]

    async def claim(self, partition: int, consumer: str, *, idle_ms: int, count: int = 100) -> list[Command]:
        """Take over commands of ``partition`` delivered to another consumer and left
        unacknowledged for ``idle_ms`` or more (its worker died)."""
        reply = await self.client.xautoclaim(self.commands_key(partition), GROUP, consumer,
                                            min_idle_time=idle_ms, start_id="0-0", count=count)
        return [self._command(i, f) for i, f in reply[1] if f]

    async def ack(self, partition: int, *entry_ids: str) -> int:
        """Acknowledge commands once applied and persisted; how many were pending."""
        return int(await self.client.xack(self.commands_key(partition), GROUP, *entry_ids))

    @staticmethod
    def _command(entry_id: bytes | str, fields: dict[Any, Any]) -> Command:
        body = _field(fields, "b")
        return Command(_text(entry_id), body["table"], body["c"])


class Subscriber:
    """Follows several tables and hands each new event, in version order, to a callback.

    It reads the live streams of the followed tables' partitions with one
    blocking ``XREAD`` and keeps those of the tables it follows; a table it
    starts following first gets what it missed after ``since`` from the
    table's own stream. Tables added or removed while it blocks take effect
    on the next round (at most ``block_ms`` later). When events of a table are
    not on the bus (trimmed, or never published), ``on_missing(table_id,
    version)`` is called instead, with the last version handed on: the
    receiver loads that table from storage and follows it again from there.
    """

    def __init__(self, bus: EventBus, on_event: Callable[[Event], Awaitable[None]], *,
                 on_missing: Callable[[str, int], Awaitable[None]] | None = None,
                 block_ms: int = 500) -> None:
        self.bus = bus
        self.on_event = on_event
        self.on_missing = on_missing
        self.block_ms = block_ms
        self._after: dict[str, int] = {}  # table id -> last version handed on
        self._live: dict[int, str] = {}  # partition -> last live entry id read
        self._stopping = asyncio.Event()

    async def follow(self, table_id: str, since: int) -> None:
        """Hand on ``table_id``'s events after version ``since``, those already on the bus first.

        Raises :class:`NotOnBus` (and follows nothing) when some of those are
        not on the bus: load the table from storage and follow it from there.
        """
        partition = partition_of(table_id, self.bus.partitions)
        if partition not in self._live:
            # Where the live stream ends now, before reading the past: nothing falls between.
            last = await self.bus.client.xrevrange(self.bus.live_key(partition), count=1)
            self._live[partition] = _text(last[0][0]) if last else "0-0"
        try:
            missed = await self.bus.read(table_id, since)
        except NotOnBus:
            self._drop_unused(partition)
            raise
        self._after[table_id] = since
        for e in missed:
            await self._hand_on(e)

    def forget(self, table_id: str) -> None:
        """Stop following ``table_id``."""
        if self._after.pop(table_id, None) is not None:
            self._drop_unused(partition_of(table_id, self.bus.partitions))

    def following(self) -> dict[str, int]:
        """Each followed table and the last version handed on."""
        return dict(self._after)

    def stop(self) -> None:
        """Make :meth:`run` return after its current round."""
        self._stopping.set()

    async def run(self) -> None:
        """Read and hand on events until :meth:`stop` is called."""
        while not self._stopping.is_set():
            if not self._live:
                try:
                    await asyncio.wait_for(self._stopping.wait(), self.block_ms / 1000)
                except TimeoutError:
                    pass
                continue
            await self.poll(self.block_ms)

    async def poll(self, block_ms: int | None = None) -> int:
        """One round: hand on the events that arrived (waiting up to ``block_ms``); how many."""
        if not self._live:
            return 0
        streams = {self.bus.live_key(p): entry for p, entry in self._live.items()}
        reply = await self.bus.client.xread(streams, block=block_ms)
        handed = 0
        for key, entries in reply or []:
            partition = int(_text(key).rsplit(":", 1)[1])
            for entry_id, fields in entries:
                if partition in self._live:
                    self._live[partition] = _text(entry_id)
                table_id = _text(_field_raw(fields, "t"))
                if table_id in self._after:
                    handed += await self._hand_on(_event(table_id, _field_raw(fields, "v"), fields))
        return handed

    async def _hand_on(self, e: Event) -> int:
        """Hand ``e`` on if it is the next one of its table; how many were handed on."""
        last = self._after.get(e.table_id)
        if last is None or e.version <= last:
            return 0  # forgotten meanwhile, or already handed on
        if e.after != last:
            try:  # a live entry was trimmed before we read it: the table's stream may have it
                missed = await self.bus.read(e.table_id, last)
            except NotOnBus:
                self._after[e.table_id] = e.version  # what follows goes on from here, once reloaded
                if self.on_missing is not None:
                    await self.on_missing(e.table_id, last)
                return 0
            handed = 0
            for m in missed:
                handed += await self._hand_on(m)
            return handed
        await self.on_event(e)
        self._after[e.table_id] = e.version
        return 1

    def _drop_unused(self, partition: int) -> None:
        if not any(partition_of(t, self.bus.partitions) == partition for t in self._after):
            self._live.pop(partition, None)
