"""Which partition a table belongs to, when tables are spread over several workers.

Every worker must compute the same answer from the id alone, on any machine and
in any process, so the hash is a fixed one (BLAKE2b), never Python's ``hash``,
which changes with each process.

>>> partition_of("t42", 64) == partition_of("t42", 64)
True
>>> 0 <= partition_of("any table", 8) < 8
True
>>> partition_of("t1", 0)
Traceback (most recent call last):
...
ValueError: the number of partitions must be at least 1, not 0
"""

from __future__ import annotations

import hashlib


def stable_hash(name: str) -> int:
    """A signed 64-bit hash of ``name``, the same in every process (fits PostgreSQL's bigint).

    >>> stable_hash("a") == stable_hash("a") and stable_hash("a") != stable_hash("b")
    True
    >>> -2**63 <= stable_hash("partition:3") < 2**63
    True
    """
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def partition_of(table_id: str, partitions: int) -> int:
    """The partition (0 .. ``partitions`` - 1) that owns ``table_id``."""
    if partitions < 1:
        raise ValueError(f"the number of partitions must be at least 1, not {partitions}")
    return stable_hash(table_id) % partitions


def partition_lock(partition: int) -> str:
    """The name of the ownership lock that guards ``partition``.

    >>> partition_lock(3)
    'partition:3'
    """
    return f"partition:{partition}"
