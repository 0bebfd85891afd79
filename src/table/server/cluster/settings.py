"""How the processes of one server share their work: where the shared state is, how often they beat.

>>> s = ClusterSettings(database="postgresql://db/table", redis="redis://cache/0", workers=4)
>>> s.partitions, s.prefix, s.alive_for > s.beat
(64, 'table', True)
"""

from __future__ import annotations

from dataclasses import dataclass

PARTITIONS = 64


@dataclass(frozen=True)
class ClusterSettings:
    """Where the shared state lives and how the processes keep in touch.

    ``workers`` is how many processes start together: each takes its share of
    the partitions at once rather than one taking them all (after a few beats
    the share follows the processes actually alive).
    """

    database: str
    redis: str
    workers: int = 1
    partitions: int = PARTITIONS
    prefix: str = "table"
    beat: float = 1.0  # seconds between heartbeats (and rebalancing)
    alive_for: float = 3.0  # a process silent this long is taken for dead
    answer_within: float = 30.0  # how long a carried request waits for its owner
