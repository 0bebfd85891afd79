"""The time online game clocks read: seconds since the epoch that never step.

``time.time()`` follows the system clock, which an administrator or NTP may
step, backwards or forwards, at any moment.  Game clocks compare it with
deadlines, so a step backwards of an hour would give the player to move an
hour (the deadline moves an hour away, and the time spent meanwhile costs
nothing), and a step forwards would flag players who still had time.
``SteadyWallClock`` reads the system clock once and from then on advances
with the monotonic clock, which never steps: a step reaches the game clocks
only when the server restarts, and a restart gives back only the time no
server served a match (``Clock.resume``), whichever way the clock moved.

Several processes sharing a database each read the system clock when they
start; they agree as long as it did not step between their starts.

>>> wall, mono = [1_000_000.0], [5.0]
>>> now = SteadyWallClock(lambda: wall[0], lambda: mono[0])
>>> now()
1000000.0
>>> wall[0] -= 3600; mono[0] += 30        # the system clock steps back an hour; 30 s pass
>>> now(), now.step()
(1000030.0, -3630.0)
"""

from __future__ import annotations

import time
from typing import Callable


class SteadyWallClock:
    """Seconds since the epoch as the system clock gave them once, advanced by the monotonic clock."""

    def __init__(self, wall: Callable[[], float] = time.time, mono: Callable[[], float] = time.monotonic) -> None:
        self._wall = wall
        self._mono = mono
        self._offset = wall() - mono()

    def __call__(self) -> float:
        return self._offset + self._mono()

    def step(self) -> float:
        """How far the system clock has moved from this one since it was read (negative: behind)."""
        return self._wall() - self()
