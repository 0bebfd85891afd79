"""Game clocks for online play: a fresh delay for each decision, then a reserve for the match.

Each decision (roll or double, the move, take or drop, answering a
resignation) starts with a fresh ``delay``; only the time beyond it comes off
the player's ``reserve``, which lasts the whole match (no time is ever added
per move, unlike a Fischer clock).  A player whose delay and reserve are both
used up has *flagged*.  Forced and impossible moves cost nothing: the server
does not start the clock for them (or stops it with ``charge=False``).

Everything here is pure: every call takes ``now``, the current time in
seconds since the epoch (``time.time()``; wall-clock, because deadlines are
stored and compared by other processes), and returns a new ``Clock``.

>>> c = new_clock("rapid", length=3)          # 8 s a decision, 3 x 20 s reserve
>>> c = c.start(0, now=1000.0)
>>> c.deadline()
1068.0
>>> c = c.stop(now=1010.0)                    # 10 s: the 8 s delay, then 2 s of reserve
>>> c.reserve
(58.0, 60.0)
>>> c.start(1, now=1010.0).flagged(now=1078.0)
True

Turn-based (correspondence) tables use the same arithmetic in days: ``daysN``
gives N days for each move and a bank of N more days for the whole match
(``DAY`` seconds each, every day alike: weekends are not special).

>>> d = new_clock("days3", length=5).start(0, now=0.0)
>>> d.deadline() / DAY                          # 3 days for the move, then the 3-day bank
6.0
>>> d.stop(now=4 * DAY).reserve[0] / DAY        # a move that took 4 days spent one day of the bank
2.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from table.errors import TableError

DAY = 86_400.0
"""Seconds in a day: a turn-based clock counts whole days of wall-clock time."""
TURN_DAYS = (1, 2, 3, 5, 7)
"""The days per move a turn-based table may give (``days1`` ... ``days7``)."""

GRACE = 5.0
"""Seconds both players get back when a server restarts in the middle of a match."""


class ClockError(TableError):
    """A clock used the wrong way (stopping one that is not running, ...) or a bad saved clock."""


@dataclass(frozen=True)
class Preset:
    """A time control: ``delay`` seconds per decision, ``per_point`` seconds of reserve per match point.

    ``claim_only``: running out does not lose by itself; the opponent may
    claim the game against a player who has done nothing for that long.
    """

    name: str
    delay: float
    per_point: float
    claim_only: bool = False
    bank: float = 0.0  # seconds of reserve for the whole match, on top of per_point's
    turn_based: bool = False  # days per move: no presence rules, dice rolled when the turn is opened


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("rapid", 8.0, 20.0),
    Preset("normal", 12.0, 60.0),
    Preset("tournament", 12.0, 120.0),
    Preset("relaxed", 15.0, 180.0),
    # Untimed: no reserve, but ten minutes without a decision lets the opponent claim.
    Preset("untimed", 600.0, 0.0, claim_only=True),
    # Turn-based: N days for each move and a bank of N more days for the whole match.
    *(Preset(f"days{n}", n * DAY, 0.0, bank=n * DAY, turn_based=True) for n in TURN_DAYS),
)}


@dataclass(frozen=True)
class Clock:
    """Both players' reserves and, while a decision is timing, whose it is and when it began."""

    preset: str
    delay: float
    reserve: tuple[float, float]
    running: int | None = None
    started: float = 0.0

    @property
    def claim_only(self) -> bool:
        """Whether running out only lets the opponent claim the game (untimed play)."""
        return PRESETS[self.preset].claim_only

    @property
    def turn_based(self) -> bool:
        """Whether this is a turn-based (days per move) clock."""
        return PRESETS[self.preset].turn_based

    def start(self, seat: int, now: float) -> Clock:
        """Start ``seat``'s next decision, with a fresh delay."""
        if seat not in (0, 1):
            raise ClockError(f"a seat is 0 or 1, got {seat!r}")
        if self.running is not None:
            raise ClockError(f"seat {self.running}'s decision is still timing: stop the clock first")
        return replace(self, running=seat, started=now)

    def charge(self, now: float) -> float:
        """What the running decision has cost the reserve by ``now`` (the time beyond the delay)."""
        if self.running is None:
            return 0.0
        over = (now - self.started) - self.delay
        return min(max(0.0, over), self.reserve[self.running])

    def stop(self, now: float, *, charge: bool = True) -> Clock:
        """End the running decision at ``now``; ``charge=False`` for a move that was forced."""
        if self.running is None:
            raise ClockError("no decision is timing")
        cost = self.charge(now) if charge else 0.0
        reserve = list(self.reserve)
        reserve[self.running] -= cost
        return replace(self, reserve=(reserve[0], reserve[1]), running=None, started=0.0)

    def switch(self, seat: int, now: float) -> Clock:
        """End the running decision (if any) and start ``seat``'s."""
        return (self if self.running is None else self.stop(now)).start(seat, now)

    def deadline(self) -> float | None:
        """When the running decision runs out (None when nothing is timing)."""
        if self.running is None:
            return None
        return self.started + self.delay + self.reserve[self.running]

    def flagged(self, now: float) -> bool:
        """Whether the running decision has used its delay and the whole reserve by ``now``."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def remaining(self, seat: int, now: float) -> tuple[float, float]:
        """``(delay, reserve)`` seconds ``seat`` has left at ``now`` (for showing the clock)."""
        if seat != self.running:
            return self.delay, self.reserve[seat]
        used = max(0.0, now - self.started)
        return max(0.0, self.delay - used), self.reserve[seat] - self.charge(now)

    def resume(self, now: float, grace: float = GRACE) -> Clock:
        """After a server restart: both reserves get ``grace`` seconds, and a running decision restarts at ``now``."""
        if grace < 0:
            raise ClockError(f"grace is a number of seconds, 0 or more, got {grace!r}")
        started = now if self.running is not None else 0.0
        return replace(self, reserve=(self.reserve[0] + grace, self.reserve[1] + grace), started=started)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``Clock.from_json`` reads it back)."""
        return {"preset": self.preset, "delay": self.delay, "reserve": list(self.reserve),
                "running": self.running, "started": self.started}

    @classmethod
    def from_json(cls, data: object) -> Clock:
        """Read a saved clock, checking every field."""
        if not isinstance(data, dict) or set(data) != {"preset", "delay", "reserve", "running", "started"}:
            raise ClockError("a saved clock has exactly preset, delay, reserve, running and started")
        preset, delay, reserve, running, started = (data[k] for k in
                                                    ("preset", "delay", "reserve", "running", "started"))
        if preset not in PRESETS:
            raise ClockError(f"unknown clock preset {preset!r}")
        if (not isinstance(reserve, list) or len(reserve) != 2
                or not all(_seconds(x) for x in (delay, started, *reserve))):
            raise ClockError("a saved clock's delay, reserve and start are numbers of seconds, 0 or more")
        if not (running is None or (type(running) is int and running in (0, 1))):
            raise ClockError(f"a saved clock runs for seat 0, 1 or none, got {running!r}")
        return cls(preset, float(delay), (float(reserve[0]), float(reserve[1])), running, float(started))


def _seconds(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0


def new_clock(preset: str, length: int) -> Clock:
    """A stopped clock for a match of ``length`` points (money play, 0, counts as 1).

    >>> new_clock("days7", 11).reserve == (7 * DAY, 7 * DAY)   # the bank does not grow with the length
    True
    """
    if preset not in PRESETS:
        raise ClockError(f"the clock is one of {', '.join(PRESETS)}, got {preset!r}")
    if not isinstance(length, int) or isinstance(length, bool) or length < 0:
        raise ClockError(f"a match length is a whole number of points, got {length!r}")
    p = PRESETS[preset]
    reserve = p.per_point * max(length, 1) + p.bank
    return Clock(p.name, p.delay, (reserve, reserve))
