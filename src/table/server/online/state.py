"""The online part of one room (``TableState``, the room's ``Extension``) and the clock's rules
between log entries: what each entry stores with it (clock, ledger, result) and who is here."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from table.match.state import Phase, acey_deucey_stage
from table.server.online.base import JSON
from table.server.online.ledger import Entry, forfeit_entries, game_entries
from table.server.online.results import Outcome, outcome
from table.server.play.clock import Clock
from table.server.play.game import Game
from table.server.play.rooms import Room
from table.server.play.turns import keeps_running
from table.server.protocol import Presence
from table.server.store import OnlineTable, OnlineWrite, Player

if TYPE_CHECKING:
    from table.server.online.timers import Timers

AWAY_CLAIM = 90.0
"""Seconds a player must have been away before the opponent may claim the match."""


def decider(game: Game) -> int | None:
    """The seat whose decision is timing now: None while the server acts, between games, at the end."""
    if game.is_over or game.match.phase == Phase.GAME_OVER or game.automatic() is not None:
        return None
    return game.to_act


STAGED = frozenset({"name_double", "named_double", "extra_roll"})
"""The stages of Acey-Deucey's 1-2 turn after the 1 and the 2 are played (``acey_deucey_stage``)."""


def goes_on(clock: Clock, game: Game, entry: JSON, after: int | None) -> bool:
    """Whether the running decision goes on after ``entry`` on a turn-based clock, where a move
    is the whole turn: the roll and its play (``turns.keeps_running``) and, in Acey-Deucey, the 1-2,
    the double named, its play and the extra roll, all the same player's.  On a live clock each of
    them is a decision with its own delay, as a roll is."""
    if keeps_running(clock, entry, after):
        return True
    return (clock.turn_based and after is not None and after == clock.running == entry.get("seat")
            and acey_deucey_stage(game.match.state) in STAGED)


def next_clock(clock: Clock, game: Game, entry: JSON, now: float) -> Clock:
    """The clock after ``entry`` (already applied to ``game``): the decision it made is charged,
    and the next one starts with a fresh delay.

    A decision the server takes (an opening roll, a forced or impossible move)
    never runs the clock, so it costs nothing.  Offering to resign only
    interrupts the offerer's decision: refused, it goes on where it stood.
    Acey-Deucey's staged turn is timed as ``goes_on`` says.
    """
    after, kind = decider(game), entry.get("type")
    if clock.running is not None and (entry.get("seat") == clock.running or after != clock.running
                                      or kind == "forfeit") and not goes_on(clock, game, entry, after):
        clock = clock.stop(now, hold=kind == "resign" and entry.get("seat") == clock.running)
    if kind == "reject_resignation" and clock.held is not None and clock.held[0] == after and clock.running is None:
        clock = clock.carry_on(now)
    elif kind != "resign":
        clock = clock.drop_held()
    if after is not None and clock.running is None:
        clock = clock.start(after, now)
    return clock


def stored_deadline(clock: Clock) -> float | None:
    """The deadline kept with a clock: when the match ends by itself (never, on an untimed table)."""
    return None if clock.claim_only else clock.deadline()


def ended_game(game: Game, entry: JSON) -> bool:
    """Whether ``entry`` (just applied) ended a game on the board, by a drop or an accepted resignation."""
    return (entry.get("type") not in ("next_game", "forfeit") and game.match.game_result is not None
            and game.match.phase in (Phase.GAME_OVER, Phase.MATCH_OVER))


@dataclass(frozen=True)
class Write:
    """What goes into storage with one log entry of an online game."""

    clock: Clock
    ledger: tuple[Entry, ...]
    finished: bool
    match: Outcome | None = None  # the entry ends the match: its result, rated or not


@dataclass(eq=False)
class TableState:
    """The online part of one room: its table, players, clock, presence and points (an ``Extension``)."""

    service: Timers
    table: OnlineTable
    game_id: str
    players: tuple[Player, Player]
    points: list[int]
    clock: Clock
    ledger: list[JSON]
    away_since: list[float | None]
    sockets: list[int] = field(default_factory=lambda: [0, 0])
    timer: asyncio.TimerHandle | None = None
    between_since: float | None = None  # when the pause between two games began
    rematch: set[int] = field(default_factory=set)  # seats that asked for a rematch
    turn_to: int | None = None  # turn-based: the seat whose move the last entry started (to notify)

    @property
    def player_ids(self) -> tuple[int, int]:
        return self.players[0].id, self.players[1].id

    # Extension ---------------------------------------------------------------

    def prepare(self, game: Game, entry: JSON) -> object:
        now = self.service.now()
        ledger: list[Entry] = []
        if entry.get("type") == "forfeit":
            loser = entry["loser"]
            ledger = forfeit_entries(self.player_ids[loser], self.player_ids[1 - loser], self.game_id,
                                     "timeout" if entry["why"] == "timeout" else "left")
        elif ended_game(game, entry):
            result = game.match.game_result
            assert result is not None
            ledger = game_entries(result, self.player_ids, self.game_id)
        match = None
        if game.is_over:  # rated between people only, and only when the table says so
            rated = bool(self.table.settings.get("rated", True)) and not any(p.is_bot for p in self.players)
            match = outcome(game, self.game_id, self.table.id, self.player_ids, rated=rated)
        return Write(next_clock(self.clock, game, entry, now), tuple(ledger), game.is_over, match)

    async def store(self, game_id: str, seq: int, entry: JSON, write: object) -> None:
        assert isinstance(write, Write)
        await self.service.writer.write(OnlineWrite(
            game_id, seq, entry, clock=(write.clock.to_json(), stored_deadline(write.clock)), ledger=write.ledger,
            table=(self.table.id, "finished") if write.finished else None, match=write.match, now=self.service.now()))

    def adopt(self, write: object) -> None:
        assert isinstance(write, Write)
        started = write.clock.running
        self.turn_to = started if write.clock.turn_based and started != self.clock.running else None
        self.clock = write.clock
        ids = self.player_ids
        for e in write.ledger:
            seat = ids.index(e.player_id)
            self.points[seat] += e.amount
            self.ledger.append({"seat": seat, "amount": e.amount, "reason": e.reason})
        if write.finished:
            self.table = replace(self.table, status="finished")

    def view(self) -> JSON:
        now = self.service.now()
        left = [self.clock.remaining(s, now) for s in (0, 1)]
        fields: JSON = {
            "clock": {"preset": self.clock.preset, "delay": self.clock.delay,
                      "reserve": [left[0][1], left[1][1]], "delay_left": [left[0][0], left[1][0]],
                      "running": self.clock.running, "deadline": self.clock.deadline(), "now": now,
                      "claim_only": self.clock.claim_only},
            "presence": self.presence_list(),
            "table": self.service.table_json(self.table, self.players, self.points),
        }
        if self.ledger:
            fields["ledger"] = list(self.ledger)
        return fields

    def presence_list(self) -> list[JSON]:
        return [{"connected": self.sockets[s] > 0, "away_since": None if self.sockets[s] else self.away_since[s]}
                for s in (0, 1)]

    def presence(self, seats: frozenset[int], change: int) -> Presence | None:
        now = self.service.now()
        before = [n > 0 for n in self.sockets]
        left = self.left_by_both(now)
        for s in seats:
            self.sockets[s] = max(0, self.sockets[s] + change)
            if self.sockets[s] == 0 and before[s]:
                self.away_since[s] = now
        if before == [n > 0 for n in self.sockets]:
            return None
        if left:  # back to a match both had left: the lobby shows it again
            self.service.lobby_changed()
        elif not any(self.sockets) and not self.clock.turn_based:  # both gone: the lobby drops it in a while
            self.service.lobby_changed_in(AWAY_CLAIM)
        return Presence(self.game_id, self.presence_list(), now)

    def left_by_both(self, now: float) -> bool:
        """Whether both players have been away for ``AWAY_CLAIM`` s or more on a real-time table: the
        lobby no longer lists the match as being played (it goes on, its clock too, should they return).
        A turn-based match is played by people who come and go: it is never left."""
        if self.clock.turn_based or any(self.sockets):
            return False
        return all(a is not None and now - a >= AWAY_CLAIM for a in self.away_since)

    def evictable(self) -> bool:
        """Whether the room may leave memory while the match goes on: no step of the server's own is
        due but the clock's deadline, which is kept in the database (``check_all`` ends the match from
        there), so not between games; it comes back, clock and all, when asked for."""
        return self.between_since is None

    def retire(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def changed(self, room: Room) -> None:
        self.service.arm(room, self)
        if self.turn_to is not None:
            if self.sockets[self.turn_to] == 0:  # not watching: tell their devices
                self.service.push.turn(self.player_ids[self.turn_to], self.players[1 - self.turn_to].name, self.game_id)
            else:  # watching as their turn comes: they have opened it, so their dice roll (after this change)
                self.service._spawn(self.service.opened, room, frozenset({self.turn_to}))
        self.turn_to = None
        if room.game.is_over:
            self.service.lobby_changed()
