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

Two pauses never give time away: a decision interrupted to offer a
resignation goes on, once the offer is refused, where it stood
(``stop(hold=True)``, then ``carry_on``), and after a server stopped (a
restart, a worker's death or handover) the running decision goes on from
where it stood when a server last served it (``resume``): only the time no
server served the game is given back.
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
    held: tuple[int, float] | None = None  # (seat, delay used) of a decision interrupted by ``stop(hold=True)``

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

    def stop(self, now: float, *, charge: bool = True, hold: bool = False) -> Clock:
        """End the running decision at ``now``; ``charge=False`` for a move that was forced.

        ``hold=True`` only interrupts it (its player offered to resign): what it
        used of its delay is kept, and ``carry_on`` starts it again from there.

        >>> c = new_clock("rapid", 1).start(0, now=0.0).stop(now=5.0, hold=True)
        >>> c.held, c.remaining(0, now=9.0)
        ((0, 5.0), (3.0, 20.0))
        >>> c.start(1, now=5.0).stop(now=7.0).carry_on(now=7.0).deadline()   # 3 s of delay left, then the reserve
        30.0
        """
        if self.running is None:
            raise ClockError("no decision is timing")
        cost = self.charge(now) if charge else 0.0
        reserve = list(self.reserve)
        reserve[self.running] -= cost
        held = (self.running, min(max(0.0, now - self.started), self.delay)) if hold else self.held
        return replace(self, reserve=(reserve[0], reserve[1]), running=None, started=0.0, held=held)

    def carry_on(self, now: float) -> Clock:
        """Start again, at ``now``, the decision ``stop(hold=True)`` interrupted, with what it had left."""
        if self.held is None:
            raise ClockError("no decision is held")
        seat, used = self.held
        return replace(self.start(seat, now), started=now - used, held=None)

    def drop_held(self) -> Clock:
        """Forget an interrupted decision that will not go on (the resignation was accepted, the match ended)."""
        return self if self.held is None else replace(self, held=None)

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
            used = self.held[1] if self.held is not None and self.held[0] == seat else 0.0
            return self.delay - used, self.reserve[seat]
        used = max(0.0, now - self.started)
        return max(0.0, self.delay - used), self.reserve[seat] - self.charge(now)

    def resume(self, now: float, served: float | None) -> Clock:
        """After no server served the match for a while: the running decision goes on at ``now``
        from where it stood at ``served``, the last time a server was known to serve it.

        Nothing else changes: the time nobody could play is all that is given back.
        ``served=None`` (not known: a database from before servers kept it) starts
        the decision again with a fresh delay.

        >>> c = new_clock("rapid", 1).start(0, now=100.0)       # 8 s of delay, 20 s of reserve
        >>> r = c.resume(now=160.0, served=110.0)               # 10 s used, then 50 s down
        >>> r.remaining(0, now=160.0), r.deadline()
        ((0.0, 18.0), 178.0)
        """
        if self.running is None:
            return self
        used = 0.0 if served is None else min(max(0.0, served - self.started), max(0.0, now - self.started))
        return replace(self, started=now - used)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``Clock.from_json`` reads it back)."""
        data: dict[str, Any] = {"preset": self.preset, "delay": self.delay, "reserve": list(self.reserve),
                                "running": self.running, "started": self.started}
        if self.held is not None:
            data["held"] = list(self.held)
        return data

    @classmethod
    def from_json(cls, data: object) -> Clock:
        """Read a saved clock, checking every field (``held`` is absent from clocks saved before it was kept)."""
        if not isinstance(data, dict) or set(data) - {"held"} != {"preset", "delay", "reserve", "running", "started"}:
            raise ClockError("a saved clock has exactly preset, delay, reserve, running, started and, "
                             "when a decision is held, held")
        preset, delay, reserve, running, started = (data[k] for k in
                                                    ("preset", "delay", "reserve", "running", "started"))
        held = data.get("held")
        if held is not None and not (isinstance(held, list) and len(held) == 2 and type(held[0]) is int
                                     and held[0] in (0, 1) and _seconds(held[1])):
            raise ClockError(f"a saved clock's held decision is [seat, seconds], got {held!r}")
        if preset not in PRESETS:
            raise ClockError(f"unknown clock preset {preset!r}")
        if (not isinstance(reserve, list) or len(reserve) != 2
                or not all(_seconds(x) for x in (delay, started, *reserve))):
            raise ClockError("a saved clock's delay, reserve and start are numbers of seconds, 0 or more")
        if not (running is None or (type(running) is int and running in (0, 1))):
            raise ClockError(f"a saved clock runs for seat 0, 1 or none, got {running!r}")
        return cls(preset, float(delay), (float(reserve[0]), float(reserve[1])), running, float(started),
                   None if held is None else (held[0], float(held[1])))


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
