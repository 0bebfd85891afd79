"""Commands to a partition's owner, over Redis Streams (see docs/scaling.md).

``<prefix>:commands:<partition>`` holds the commands for the games of one
partition, read by the partition's owner through the consumer group
``owners``: a command is delivered to one consumer, stays pending until
acknowledged, and may be claimed by another consumer (which is how a new
owner clears what a dead one left). Streams rather than pub/sub: a command
sent while a partition changes hands waits for the next owner instead of
being lost, and one blocking read serves every partition a process owns.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from table.server.cluster.partitions import partition_of

JSON = dict[str, Any]
GROUP = "owners"


@dataclass(frozen=True)
class Command:
    """A command for a table's owner, with the stream entry id to acknowledge."""

    entry_id: str
    table_id: str
    body: JSON


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _field_raw(fields: dict[Any, Any], name: str) -> Any:
    return fields[name.encode()] if name.encode() in fields else fields[name]


def _field(fields: dict[Any, Any], name: str) -> Any:
    """A stream entry's field, whether the client decodes replies or not."""
    return json.loads(_field_raw(fields, name))


class CommandBus:
    """Sends, reads and acknowledges commands on one Redis server.

    ``partitions`` is how many command streams the games are spread over;
    each stream is capped at about ``maxlen`` commands (an unread command that
    old is dropped, like a message lost with a socket).
    """

    def __init__(self, redis: Redis, *, prefix: str = "table", maxlen: int = 100_000,
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

        The stream is capped: a command still unread when ``maxlen`` newer
        ones have come (an owner gone for minutes) is dropped, like a message
        lost with a socket; the player, who got no answer, sends it again.
        """
        key, fields = self.entry(table_id, command)
        return _text(await self.client.xadd(key, fields, maxlen=self.maxlen, approximate=True))

    def entry(self, table_id: str, command: JSON) -> tuple[str, dict[str, str]]:
        """The stream and the fields that :meth:`send` adds (for a caller that batches its writes)."""
        body = json.dumps({"table": table_id, "c": command}, separators=(",", ":"))
        return self.commands_key(partition_of(table_id, self.partitions)), {"b": body}

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
