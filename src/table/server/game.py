"""One match as the server runs it: wire actions in, per-seat views out.

This is the only module that knows the match state machine's API; everything
above it (rooms, the app) deals in JSON-ready dicts.  A match is its action
log: ``Game.replay`` rebuilds the state from the stored log.

Points in views and client actions are absolute, numbered from seat 0's side
(seat 0 moves from 24 down to 1, seat 1 from 1 up to 24); 25 is the mover's
bar and 0 the mover's tray.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from table.errors import TableError
from table.rules.dice import DiceSource, opening_roll, roll
from table.server.interim import ActionError, InterimMatch
from table.server.moves import MoveGraph, move_graph

JSON = dict[str, Any]


class GameConfigError(TableError):
    """A new-game request with settings that are not allowed."""


MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21)
LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class GameConfig:
    """How a match was set up: who sits where, length, cube."""

    mode: str                  # "computer" or "local" (two players on one device)
    length: int = 1
    cube: bool = True
    level: str = "medium"
    human_seat: int = 0        # vs the computer: the seat the person plays
    names: tuple[str, str] = ("", "")

    @classmethod
    def from_json(cls, data: object) -> GameConfig:
        """Read and check a new-game request.

        >>> GameConfig.from_json({"mode": "local", "length": 5}).length
        5
        >>> GameConfig.from_json({"mode": "local", "length": 4})
        Traceback (most recent call last):
        ...
        table.server.game.GameConfigError: length must be one of 1, 3, 5, ..., 21 (got 4)
        """
        if not isinstance(data, dict):
            raise GameConfigError("a new game is described by a JSON object")
        unknown = set(data) - {"mode", "length", "cube", "level", "seat", "names"}
        if unknown:
            raise GameConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        mode = data.get("mode")
        if mode not in ("computer", "local"):
            raise GameConfigError(f"mode must be 'computer' or 'local' (got {mode!r})")
        length = data.get("length", 1)
        if not isinstance(length, int) or isinstance(length, bool) or length not in MATCH_LENGTHS:
            raise GameConfigError(f"length must be one of 1, 3, 5, ..., 21 (got {length!r})")
        cube = data.get("cube", True)
        if not isinstance(cube, bool):
            raise GameConfigError(f"cube must be true or false (got {cube!r})")
        level = data.get("level", "medium")
        if level not in LEVELS:
            raise GameConfigError(f"level must be one of easy, medium, hard (got {level!r})")
        seat = data.get("seat", 0)
        if seat not in (0, 1) or isinstance(seat, bool):
            raise GameConfigError(f"seat must be 0 or 1 (got {seat!r})")
        names = data.get("names", ["", ""])
        if (not isinstance(names, list) or len(names) != 2
                or not all(isinstance(n, str) and len(n) <= 40 for n in names)):
            raise GameConfigError("names must be a list of two strings of at most 40 characters")
        return cls(mode, length, cube, level, seat, (names[0], names[1]))

    def to_json(self) -> JSON:
        return {"mode": self.mode, "length": self.length, "cube": self.cube, "level": self.level,
                "seat": self.human_seat, "names": list(self.names)}

    def is_bot(self, seat: int) -> bool:
        return self.mode == "computer" and seat != self.human_seat


def to_abs(seat: int, point: int) -> int:
    """A point in ``seat``'s numbering as an absolute point (bar and tray unchanged)."""
    if seat == 0 or point in (0, 25):
        return point
    return 25 - point


class Game:
    """The match of one room, built from (and extending) its action log."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.match = InterimMatch(config.length)
        self.log: list[JSON] = []
        self._graph: MoveGraph | None = None
        self.last: JSON | None = None

    @classmethod
    def replay(cls, config: GameConfig, log: Sequence[JSON]) -> Game:
        game = cls(config)
        for entry in log:
            game._apply_entry(entry)
        return game

    # Who acts -----------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the match waits for, None when the server acts or it is over."""
        m = self.match
        if m.is_over or m.turn is None or m.dice is None:
            return None
        return m.turn

    def automatic(self, dice: DiceSource) -> JSON | None:
        """The next action the server takes by itself (rolls, passes), or None."""
        m = self.match
        if m.is_over:
            return None
        if m.turn is None:
            starter, first = opening_roll(dice)
            return {"type": "opening", "seat": starter, "dice": list(first)}
        if m.dice is None:
            return {"type": "roll", "seat": m.turn, "dice": list(roll(dice))}
        if not self.graph.plays:
            return {"type": "move", "seat": m.turn, "steps": []}
        return None

    @property
    def graph(self) -> MoveGraph:
        m = self.match
        if m.dice is None:
            raise ActionError("there is no roll to play")
        if self._graph is None:
            self._graph = move_graph(m.position, m.dice)
        return self._graph

    # Actions ------------------------------------------------------------------

    def act(self, seat: int, action: JSON) -> JSON:
        """Check a player's wire action, apply it, and return its log entry.

        Raises a ``TableError`` saying what is wrong; then nothing changes.
        """
        if self.to_act != seat:
            raise ActionError("it is not your turn to act")
        kind = action.get("type")
        if kind == "move":
            steps = action.get("steps")
            if (not isinstance(steps, list) or len(steps) > 4 or not all(
                    isinstance(s, list) and len(s) == 2
                    and all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 25 for p in s)
                    for s in steps)):
                raise ActionError("steps must be a list of at most four [from, to] pairs of points 0..25")
            own = [[to_abs(seat, s[0]), to_abs(seat, s[1])] for s in steps]
            self.graph.play_for(own)  # raises when illegal
            entry: JSON = {"type": "move", "seat": seat, "steps": own}
        else:
            raise ActionError(f"unknown or unavailable action {kind!r}")
        self._apply_entry(entry)
        return entry

    def apply_automatic(self, entry: JSON) -> None:
        self._apply_entry(entry)

    def _apply_entry(self, entry: JSON) -> None:
        m = self.match
        kind = entry["type"]
        if kind == "opening":
            self.match = m.opening(entry["seat"], (entry["dice"][0], entry["dice"][1]))
        elif kind == "roll":
            self.match = m.roll((entry["dice"][0], entry["dice"][1]))
        elif kind == "move":
            play = self.graph.play_for(entry["steps"]) if entry["steps"] else None
            self.last = {"seat": m.turn, "dice": list(m.dice or ()), "play": str(play) if play else "",
                         "steps": [[to_abs(entry["seat"], a), to_abs(entry["seat"], b)]
                                   for a, b in entry["steps"]]}
            self.match = m.move(play)
        else:
            raise ActionError(f"unknown log entry {kind!r}")
        self._graph = None
        self.log.append(entry)

    # Views --------------------------------------------------------------------

    def view(self, seats: frozenset[int]) -> JSON:
        """The match as the holder of ``seats`` may see it, with what they may do."""
        m = self.match
        points = [0] * 25
        bar = [0, 0]
        off = [0, 0]
        turn = m.turn if m.turn is not None else 0
        b = m.position.board
        for i in range(1, 25):
            a = to_abs(turn, i)
            points[a] = b[i] if turn == 0 else -b[i]
        bar[turn] = b[25]
        bar[1 - turn] = -b[0]
        on_board = [sum(v for v in points if v > 0) + bar[0], -sum(v for v in points if v < 0) + bar[1]]
        off = [15 - on_board[0], 15 - on_board[1]]
        pips = m.position.pip_counts()
        view: JSON = {
            "points": points[1:],
            "bar": bar,
            "off": off,
            "pips": [pips[0], pips[1]] if turn == 0 else [pips[1], pips[0]],
            "turn": m.turn,
            "dice": list(m.dice) if m.dice else None,
            "cube": {"value": 1, "owner": None, "enabled": False},
            "score": list(m.score),
            "length": m.length,
            "crawford": False,
            "over": m.is_over,
            "winner": m.winner,
            "last": self.last,
            "result": ({"seat": m.game_winner, "points": m.game_result}
                       if m.game_winner is not None else None),
            "to_act": self.to_act,
            "actions": [],
            "moves": None,
        }
        act = self.to_act
        if act is not None and act in seats:
            g = self.graph
            view["actions"] = ["move"]
            view["moves"] = {
                "depth": g.depth,
                "nodes": [[[to_abs(act, s), to_abs(act, d), die, int(hit), c] for s, d, die, hit, c in edges]
                          for edges in g.nodes],
                "finals": {str(k): str(g.plays[v]) for k, v in g.finals.items()},
            }
        return view
