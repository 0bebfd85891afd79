"""The points ledger's amounts: what each finished online game is worth.

Pure functions; storage keeps the entries (``Storage.add_ledger``) and a
player's points are always the sum of their entries, never a counter.

For a game that ends on the board (or by a dropped double or an accepted
resignation) the winner gets +20 / +40 / +60 and the loser -10 / -20 / -30
for a single game, gammon or backgammon, times the cube's value.  An
Acey-Deucey game is paid per checker (docs/variants.md, "Matches and the points
ledger"): +20·k / -10·k, k the loser's checkers not borne off
(``GameResult.checkers``), under the reason of a single game, its only level.
Race and Dutch backgammon are paid by levels, as backgammon is.  A player
who leaves the table or whose time runs out gets -100, and the opponent,
who ends the game there, gets 0.  A drawn game (Plakoto: both mothers pinned,
``GameResult.is_draw``, level 0) pays nothing: each player gets an entry of 0
under ``draw``, so the game is on both players' ledgers.

>>> from table.match.state import GameResult
>>> for e in game_entries(GameResult(winner=1, points=4, level=2, cube=2, how="checkers"), (7, 9), "g1"):
...     print(e.player_id, e.amount, e.reason)
9 80 win:gammon
7 -40 loss:gammon
>>> [e.amount for e in game_entries(GameResult(winner=0, points=7, level=1, cube=1, how="checkers", checkers=7), (7, 9), "g2")]
[140, -70]
>>> [(e.player_id, e.amount, e.reason) for e in game_entries(GameResult(winner=1, points=0, level=0, cube=1, how="draw"), (7, 9), "g3")]
[(7, 0, 'draw'), (9, 0, 'draw')]
>>> [(e.player_id, e.amount, e.reason) for e in forfeit_entries(7, 9, "g1", "timeout")]
[(7, -100, 'timeout'), (9, 0, 'opponent-timeout')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from table.errors import TableError
from table.match.state import GameResult

WIN = {1: 20, 2: 40, 3: 60}
"""Points for winning a single game, a gammon, a backgammon (times the cube)."""
LOSS = {1: -10, 2: -20, 3: -30}
"""Points for losing one (times the cube)."""
FORFEIT = -100
"""Points for leaving the table or running out of time; the opponent gets 0."""
LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}
MAX_CHECKERS = 15
"""The most checkers a loser can pay for in a game paid per checker (Acey-Deucey)."""

Forfeit = Literal["left", "timeout"]


class LedgerError(TableError):
    """A result that cannot be turned into ledger entries."""


@dataclass(frozen=True)
class Entry:
    """One line of the ledger: ``amount`` points to ``player_id`` for ``reason``."""

    player_id: int
    amount: int
    reason: str
    game_id: str | None = None


def game_entries(result: GameResult, players: tuple[int, int], game_id: str) -> list[Entry]:
    """The winner's and the loser's entries for a game that ended with ``result``.

    ``players`` are the player ids in seats 0 and 1; ``result.winner`` is a seat.  A result
    with ``checkers`` (Acey-Deucey) pays that many units of a single game; a draw pays 0 to each.
    """
    if result.how == "draw" or result.level == 0:
        if not (result.how == "draw" and result.level == 0 and result.points == 0 and not result.checkers):
            raise LedgerError("a drawn game is level 0 for 0 points, and only a draw is level 0: got "
                              f"level {result.level!r}, {result.points!r} points, how {result.how!r}")
        return [Entry(players[0], 0, "draw", game_id), Entry(players[1], 0, "draw", game_id)]
    if result.checkers and (result.level != 1 or not 1 <= result.checkers <= MAX_CHECKERS):
        raise LedgerError(f"a game paid per checker is won by one level for 1 to {MAX_CHECKERS} checkers, "
                          f"got level {result.level!r} and {result.checkers!r} checkers")
    if result.level not in WIN:
        raise LedgerError(f"a game is won by 1, 2 or 3 levels (single, gammon, backgammon), got {result.level!r}")
    if result.cube < 1 or result.cube & (result.cube - 1):
        raise LedgerError(f"the cube's value is a power of two, got {result.cube!r}")
    if result.winner not in (0, 1):
        raise LedgerError(f"the winner is seat 0 or 1, got {result.winner!r}")
    name = LEVELS[result.level]
    units = result.cube * (result.checkers or 1)
    winner, loser = players[result.winner], players[1 - result.winner]
    return [Entry(winner, WIN[result.level] * units, f"win:{name}", game_id),
            Entry(loser, LOSS[result.level] * units, f"loss:{name}", game_id)]


def forfeit_entries(loser: int, opponent: int, game_id: str, why: Forfeit) -> list[Entry]:
    """Entries when player ``loser`` leaves (``"left"``) or runs out of time (``"timeout"``)."""
    if why not in ("left", "timeout"):
        raise LedgerError(f"a game is forfeited by leaving ('left') or on time ('timeout'), got {why!r}")
    return [Entry(loser, FORFEIT, why, game_id), Entry(opponent, 0, f"opponent-{why}", game_id)]
