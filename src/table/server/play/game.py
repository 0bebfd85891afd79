"""One match as the server runs it: wire actions in, per-seat views out.

This is the only module that knows the match state machine's API; everything
above it (rooms, the app) deals in JSON-ready dicts.  A match is its action
log: ``Game.replay`` rebuilds the state from the stored log.

Points in views and client actions are absolute, numbered from seat 0's side
(seat 0 moves from 24 down to 1, seat 1 from 1 up to 24); 25 is the mover's
bar and 0 the mover's tray.  In Race, Dutch and Acey-Deucey, whose checkers
start off the board, 26 is the mover's waiting checkers (a step ``[26, 19]``
enters one) and views add ``waiting``, each seat's count; an Acey-Deucey view
adds ``stage`` (``table.match.state.acey_deucey_stage``: ``one_two``,
``name_double``, ``named_double``, ``extra_roll`` or None).  The server plays
the games Table offers (``table.rules.variant.VARIANTS``, which the web app's
forms and lobby list from their own variants.json) and the Greek games
(``GREEK_SERVED``: Plakoto, Fevga, Portes and the Tavli match; their views'
extras are ``table.server.play.greekview``'s).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from table.bot.bot import LEVELS
from table.errors import IllegalActionError, TableError
from table.match import Match, Move, NextGame, OpeningRoll, Phase, action_from_json
from table.match.actions import Action, NameDouble, Resign
from table.match.state import acey_deucey_stage
from table.notation.matchid import MatchInfo, decode_match_id, encode_match_id
from table.notation.xgid import BOTTOM, CubeOffer, from_xgid
from table.rules.dice import DiceSource, SecretDice
from table.rules.movetext import format_steps
from table.rules.position import Play
from table.rules.reserve import RESERVE, THEIR_RESERVE, format_reserve_steps
from table.rules.variant import FEVGA, PLAKOTO, PORTES, STANDARD, VARIANTS, find_variant
from table.match.series import TAVLI, Series, find_game, match_games
from table.rules.movegraph import MoveGraph, move_graph
from table.server.play.greekview import greek_game, greek_graph, is_round, pinned_json, round_abs
from table.server.protocol import Decision, MoveSteps, PlayerAction, parse_action

JSON = dict[str, Any]


class GameConfigError(TableError):
    """A new-game request with settings that are not allowed (``code``: the reply's, docs/protocol.md)."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21)


@dataclass(frozen=True)
class GameConfig:
    """How a match was set up: who sits where, length, cube."""

    mode: str                  # "computer", "local" (two players on one device) or "online" (two guests)
    length: int = 1
    cube: bool = True
    level: str = "medium"
    human_seat: int = 0        # vs the computer: the seat the person plays
    names: tuple[str, str] = ("", "")
    table: str = ""            # online: the table the match is played at
    clock: str = ""            # online: the clock preset
    start: tuple[str, str] | None = None  # set up from (Position ID, Match ID) instead of the opening
    variant: str = STANDARD.name  # the game played (table.rules.variant), by its name

    @classmethod
    def from_json(cls, data: object, *, online: bool = False) -> GameConfig:
        """Read and check a new-game request.

        >>> GameConfig.from_json({"mode": "local", "length": 5}).length
        5
        >>> GameConfig.from_json({"mode": "local", "length": 4})
        Traceback (most recent call last):
        ...
        table.server.play.game.GameConfigError: length must be one of 1, 3, 5, ..., 21 (got 4)

        Online games are made by the server for a table, never by a request:
        ``online=True`` reads their stored settings.
        """
        if not isinstance(data, dict):
            raise GameConfigError("a new game is described by a JSON object")
        unknown = set(data) - {"mode", "length", "cube", "level", "seat", "names", "start", "variant"} - (
            {"table", "clock"} if online else set())
        if unknown:
            raise GameConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        mode = data.get("mode")
        if mode not in ("computer", "local") + (("online",) if online else ()):
            raise GameConfigError(f"mode must be 'computer' or 'local' (got {mode!r})")
        start = None
        if data.get("start") is not None:
            if mode == "online":
                raise GameConfigError("an online game starts from the opening position")
            named = _variant_name(data.get("variant", STANDARD.name))
            if named == TAVLI.name:
                raise GameConfigError("a Tavli match starts from the opening: set up a position of one "
                                      "of its games (portes, plakoto or fevga) instead")
            start = _start_ids(data["start"], named)
            # The Match ID holds the length: a money game (0) or a 1-point match is a single game here.
            data = {**data, "length": max(1, decode_match_id(start[1]).match_length)}
        variant = _variant_name(data.get("variant", STANDARD.name))
        series = find_game(variant)
        length = data.get("length", series.lengths[0] if isinstance(series, Series) else 1)
        if isinstance(series, Series):
            if length not in series.lengths or isinstance(length, bool):
                allowed = ", ".join(map(str, series.lengths[:-1])) + f" or {series.lengths[-1]}"
                raise GameConfigError(f"a {series.title} match is played to {allowed} points (got {length!r})")
        elif not isinstance(length, int) or isinstance(length, bool) or (
                length not in MATCH_LENGTHS and not (start and 1 <= length <= MAX_SET_UP_LENGTH)):
            raise GameConfigError(f"length must be one of 1, 3, 5, ..., 21 (got {length!r})")
        played_with_cube = match_games(series)[0].cube
        cube = data.get("cube", played_with_cube)  # Race, Acey-Deucey and the Greek games have none
        if not isinstance(cube, bool):
            raise GameConfigError(f"cube must be true or false (got {cube!r})")
        if cube and not played_with_cube:
            raise GameConfigError(f"{series.title} is played without the doubling cube: "
                                  "cube must be false")
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
        table, clock = data.get("table", ""), data.get("clock", "")
        if not isinstance(table, str) or not isinstance(clock, str):
            raise GameConfigError("an online game's table and clock are strings")
        return cls(mode, length, cube, level, seat, (names[0], names[1]), table, clock, start, variant)

    def to_json(self) -> JSON:
        data: JSON = {"mode": self.mode, "length": self.length, "cube": self.cube, "level": self.level,
                      "seat": self.human_seat, "names": list(self.names)}
        if self.start is not None:
            data["start"] = {"position": self.start[0], "match": self.start[1]}
        if self.mode == "online":
            data.update(table=self.table, clock=self.clock)
        if self.variant != STANDARD.name:  # a config without one plays standard backgammon
            data["variant"] = self.variant
        return data

    def is_bot(self, seat: int) -> bool:
        return self.mode == "computer" and seat != self.human_seat


MAX_SET_UP_LENGTH = 64
"""The longest match a set-up position may come from."""


GREEK_SERVED: tuple[str, ...] = (PLAKOTO.name, FEVGA.name, PORTES.name, TAVLI.name)
"""The Greek games the server plays (against the computer, on one device, online), and the Tavli
match (``table.match.series``, by its kind's name): kept apart from ``VARIANTS`` because their
rules are not the backgammon family's (``table.rules.greek``), and the web app's forms list them
apart."""

SERVED = (*VARIANTS, *GREEK_SERVED)
"""The games a match on the server may play, by name: those Table offers (``VARIANTS``) and the
Greek games (``GREEK_SERVED``)."""


def _variant_name(raw: object) -> str:
    """The name of the variant a ``variant`` setting names (any of its names, any case).

    >>> _variant_name("NackGammon"), _variant_name("Acey-Deucey")
    ('nackgammon', 'acey-deucey')
    >>> _variant_name("Tavli"), _variant_name("plakoto")
    ('tavli', 'plakoto')
    >>> _variant_name("fly")
    Traceback (most recent call last):
    ...
    table.server.play.game.GameConfigError: variant: unknown variant 'fly': Table plays standard, nackgammon, hypergammon, race, dutch, acey-deucey, plakoto, fevga, portes, tavli
    """
    if not isinstance(raw, str) or len(raw) > 40:
        raise GameConfigError(f"variant must be the name of a variant (got {raw!r})")
    try:
        variant = find_game(raw)
    except TableError:
        raise GameConfigError(f"variant: unknown variant {raw!r}: Table plays {', '.join(SERVED)}") from None
    if variant.name not in SERVED:
        raise GameConfigError(f"variant: {variant.title} is not played on the server yet; "
                              f"it plays {', '.join(SERVED)}")
    return variant.name


def _start_ids(raw: object, variant: str = STANDARD.name) -> tuple[str, str]:
    """(Position ID, Match ID) of a ``start`` setting: ``{"position", "match"}`` or ``{"xgid"}``,
    read as a position of ``variant`` (Race, Dutch and Acey-Deucey: the Position ID with the waiting
    checkers, ``table.rules.reserve``; an XGID cannot hold those).

    The position must be one a game can go on from (not over, not waiting on a resignation).

    >>> m = Match.from_ids(*_start_ids({"xgid": "XGID=-C-----------------ba-----:1:1:-1:62:3:4:0:7:10"}))
    >>> m.turn, m.dice, m.length, m.score, m.cube_value, m.cube_owner
    (1, (6, 2), 7, (3, 4), 2, 0)
    >>> _start_ids({"position": "4HPwATDgc/ABMA"})
    Traceback (most recent call last):
    ...
    table.server.play.game.GameConfigError: start is {"position": POSITION_ID, "match": MATCH_ID} or {"xgid": XGID}
    """
    if not isinstance(raw, dict) or not (set(raw) in ({"position", "match"}, {"xgid"})
                                         and all(isinstance(v, str) and len(v) <= 100 for v in raw.values())):
        raise GameConfigError('start is {"position": POSITION_ID, "match": MATCH_ID} or {"xgid": XGID}')
    if "xgid" in raw and find_variant(variant).entry == "reserve":
        raise GameConfigError(f"an XGID cannot hold the checkers of {find_variant(variant).title} waiting off the "
                              'board: start from {"position": POSITION_ID, "match": MATCH_ID}')
    try:
        if "xgid" in raw:
            x = from_xgid(raw["xgid"].strip())
            on_roll = 0 if x.turn == BOTTOM else 1
            owner = None if x.cube_owner is None else (0 if x.cube_owner == BOTTOM else 1)
            offered = x.double_offered != CubeOffer.NONE
            info = MatchInfo(cube_value=x.cube_value, cube_owner=owner, player_on_roll=on_roll,
                             crawford=x.crawford, turn=1 - on_roll if offered else on_roll,
                             double_offered=offered, dice=x.dice or (0, 0), match_length=x.match_length,
                             score=x.score)
            ids = (x.position.id, encode_match_id(info))
        else:
            ids = (raw["position"].strip(), raw["match"].strip())
        m = Match.from_ids(*ids, variant=variant, cube=find_variant(variant).cube)
    except TableError as exc:
        raise GameConfigError(f"the position to start from cannot be read: {exc}") from None
    if m.phase not in (Phase.ROLL, Phase.MOVE, Phase.TAKE):
        raise GameConfigError("the position to start from must be one where the game goes on: "
                              f"this one is at {m.phase.value}")
    return ids


def to_abs(seat: int, point: int, same_way: bool = False) -> int:
    """A point in ``seat``'s numbering as an absolute point (bar, tray and waiting checkers unchanged);
    ``same_way``: both sides move the same way round (Fevga, ``greekview.round_abs``).

    >>> to_abs(1, 24), to_abs(1, 24, same_way=True)
    (1, 12)
    """
    if seat == 0 or point in (0, 25, RESERVE):
        return point
    return round_abs(seat, point) if same_way else 25 - point


def board_json(board: Sequence[int], checkers: int = STANDARD.checkers) -> JSON:
    """Seat 0's board as views give it: points 1..24 (+ seat 0, - seat 1) and bar/off per seat
    (``checkers``: each side's, the variant's); a 28-entry board (checkers waiting off the
    board: Race, Dutch, Acey-Deucey) adds ``waiting`` per seat, a Plakoto board ``pinned``
    (``greekview.pinned_json``: pinned checkers count as on the board).

    >>> from table.rules.position import Position
    >>> b = board_json(Position.initial().board)
    >>> b["points"][23], b["points"][0], b["bar"], b["off"], "waiting" in b
    (2, -2, [0, 0], [0, 0], False)
    >>> r = board_json(Position.from_checkers({19: 2, 26: 13}, {26: 10}, "race").board)
    >>> r["points"][18], r["waiting"], r["off"]
    (2, [13, 10], [0, 5])
    """
    points = list(board[1:25])
    bar = [board[25], -board[0]]
    pinned = pinned_json(board)  # Plakoto's 50 entries: past the 26th, pins, not waiting checkers
    reserve = pinned is None and len(board) > RESERVE
    waiting = [board[RESERVE], -board[THEIR_RESERVE]] if reserve else [0, 0]
    on_board = [sum(v for v in points if v > 0) + bar[0] + waiting[0],
                -sum(v for v in points if v < 0) + bar[1] + waiting[1]]
    if pinned is not None:
        on_board = [on_board[0] + sum(v > 0 for v in pinned), on_board[1] + sum(v < 0 for v in pinned)]
    view: JSON = {"points": points, "bar": bar, "off": [checkers - on_board[0], checkers - on_board[1]]}
    if reserve:
        view["waiting"] = waiting
    if pinned is not None:
        view["pinned"] = pinned
    return view


def steps_json(seat: int, play: Play | None, doubles: bool, reserve: bool = False, same_way: bool = False) -> JSON:
    """A play of ``seat``'s as absolute steps and hits (Plakoto: pins), and its text from each seat's
    side (``same_way``: Fevga's numbering, ``to_abs``).

    >>> from table.rules.position import Position
    >>> play = Position.initial().legal_plays((3, 1))[0]
    >>> steps_json(1, play, False)["text"] == [format_steps([(25 - a, 25 - b) for a, b in play.steps], play.hits, False), str(play)]
    True
    """
    steps = [] if play is None else [[to_abs(seat, a, same_way), to_abs(seat, b, same_way)] for a, b in play.steps]
    hits = [] if play is None else list(play.hits)
    write = format_reserve_steps if reserve else format_steps  # reserve: a step from 26 is written in/
    text = [write([(to_abs(s, a, same_way), to_abs(s, b, same_way)) for a, b in steps], hits, doubles)
            for s in (0, 1)]
    return {"steps": steps, "hits": hits, "text": text}


FORFEITS = ("left", "timeout", "away")
"""Why a match can be forfeited: a player left, ran out of time, or was claimed against while away."""



class Game:
    """The match of one room, built from (and extending) its action log.

    A single game is money play without the Jacoby rule, so the cube and
    gammons count; a match of N points is ``Match(length=N)`` with Crawford.
    """

    def __init__(self, config: GameConfig, dice: DiceSource | None = None) -> None:
        self.config = config
        single = config.length == 1
        if config.start is None:
            self.match = Match(length=0 if single else config.length, cube=config.cube,
                               dice=dice or SecretDice(), jacoby=False if single else None,
                               variant=config.variant)
        else:
            self.match = Match.from_ids(*config.start, cube=config.cube, dice=dice or SecretDice(),
                                        jacoby=False if single else None, variant=config.variant)
        self.log: list[JSON] = []
        self._graph: MoveGraph | None = None
        self.last: JSON | None = None
        self.moves: list[JSON] = []  # the move list: games, plays, cube actions, results (see _note)
        if config.start is not None:
            self.moves.append({"kind": "game", "game": 1, "score": list(self.match.score)})
        self.forfeit: JSON | None = None  # online: {"seat": loser, "why": ...} once a seat forfeited

    @classmethod
    def replay(cls, config: GameConfig, log: Sequence[JSON], dice: DiceSource | None = None) -> Game:
        """Rebuild a game from its stored log; ``dice`` rolls what comes after it."""
        game = cls(config, dice)
        for entry in log:
            if entry.get("type") == "forfeit":
                game.forfeit_match(entry["loser"], entry["why"])
                continue
            game._apply(entry.get("seat"), action_from_json({k: v for k, v in entry.items() if k != "seat"}))
        return game

    # Who acts -----------------------------------------------------------------

    @property
    def single(self) -> bool:
        return self.config.length == 1

    @property
    def is_over(self) -> bool:
        """The match is over (for a single game: its only game is), or forfeited."""
        if self.forfeit is not None:
            return True
        if self.single:
            return self.match.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
        return self.match.is_over

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the match waits for; None when the server acts or nobody must."""
        if self.is_over:
            return None
        return self.match.turn

    def may_act(self, seats: frozenset[int]) -> bool:
        """Whether the holder of ``seats`` has a decision to make now."""
        if self.is_over:
            return False
        if self.match.phase == Phase.GAME_OVER:  # either player may start the next game
            return any(not self.config.is_bot(s) for s in seats)
        return self.to_act in seats

    def automatic(self) -> Action | None:
        """The next action the server takes by itself (opening rolls, empty moves), or None."""
        m = self.match
        if self.is_over:
            return None
        if m.phase == Phase.OPENING:
            return OpeningRoll()
        if m.phase == Phase.MOVE and not self.graph.plays:
            return Move("")
        if m.phase == Phase.MOVE and self.config.mode == "online" and len(self.graph.plays) == 1:
            return Move.of(self.graph.plays[0])  # a forced move costs no time: the server plays it
        return None

    @property
    def graph(self) -> MoveGraph:
        m = self.match
        if m.phase != Phase.MOVE or m.dice is None:
            raise IllegalActionError("there is no roll to play now")
        if self._graph is None:
            greek = greek_game(m.variant) is not None
            self._graph = greek_graph(m.position, m.dice) if greek else move_graph(m.position, m.dice)
        return self._graph

    # Actions ------------------------------------------------------------------

    def act(self, seats: frozenset[int], action: PlayerAction | object) -> JSON:
        """Apply a player's action (typed, or as the wire carries it: read by
        ``protocol.parse_action``) and return its log entry.

        Raises a ``TableError`` saying what is wrong; then nothing changes.
        """
        if not isinstance(action, (MoveSteps, Decision)):
            action = parse_action(action)
        if not self.may_act(seats):
            raise IllegalActionError("it is not your turn to act")
        wanted = action.action if isinstance(action, Decision) else None
        if self.match.phase == Phase.GAME_OVER:
            if not isinstance(wanted, NextGame) or self.single:
                raise IllegalActionError("the game is over: the only action now is next_game")
            return self._apply(min(s for s in seats if not self.config.is_bot(s)), NextGame())
        seat = self.to_act
        assert seat is not None
        if isinstance(action, MoveSteps):
            same_way = is_round(self.match.variant)
            own = [[to_abs(seat, a, same_way), to_abs(seat, b, same_way)] for a, b in action.steps]
            play = self.graph.play_for(own)  # raises when illegal
            return self._apply(seat, Move.of(play))
        assert wanted is not None
        if isinstance(wanted, NextGame):
            raise IllegalActionError("the game is not over yet")
        legal = self.match.legal_actions()
        if wanted not in legal:
            reason = self.match.why_no_double() if wanted.kind == "double" else None
            levels = [str(a.level) for a in legal if isinstance(a, Resign)]
            if levels and isinstance(wanted, Resign):  # e.g. the Greek games have no backgammon
                reason = f"{self.match.variant.title} may be resigned at level {' or '.join(levels)} only"
            raise IllegalActionError(reason or f"{wanted.kind} is not possible now")
        return self._apply(seat, wanted)

    def forfeit_match(self, loser: int, why: str) -> JSON:
        """End the match with ``loser`` forfeiting it (left, timeout, away); return the log entry."""
        if self.is_over:
            raise IllegalActionError("the match is over already")
        if loser not in (0, 1) or why not in FORFEITS:
            raise IllegalActionError(f"a forfeit is by seat 0 or 1 for one of {', '.join(FORFEITS)}")
        self.forfeit = {"seat": loser, "why": why}
        entry: JSON = {"seat": None, "type": "forfeit", "loser": loser, "why": why}
        self.log.append(entry)
        return entry

    def apply_automatic(self, action: Action) -> JSON:
        return self._apply(None, action)

    def _apply(self, seat: int | None, action: Action) -> JSON:
        m = self.match
        before_turn = m.state.on_roll
        actor = m.turn
        dice = m.dice
        play = None
        if isinstance(action, Move) and action.play:
            play = action.resolved or self.graph.by_text[action.play]
        logged = m.apply(action)
        if isinstance(action, Move):
            # "play" is in the mover's numbering; "steps" are absolute (seat 0's numbering, 25 the
            # mover's bar, 0 off) and "text" is the play written from each seat's side, so that
            # every reader sees it numbered as their board is.
            moved = steps_json(before_turn, play, dice is not None and dice[0] == dice[1],
                               m.variant.entry == "reserve", is_round(m.variant))
            self.last = {"seat": before_turn, "dice": list(dice or ()), "play": logged.to_json()["play"], **moved}
        elif isinstance(action, (OpeningRoll, NextGame)):
            self.last = None
        self._graph = None
        self._note(action, actor)
        entry: JSON = {"seat": seat, **logged.to_json()}
        self.log.append(entry)
        return entry

    def _note(self, action: Action, actor: int | None) -> None:
        """Extend the move list after ``action`` (by ``actor``) was applied.

        Its entries: ``{"kind": "game", "game", "score"}`` when a game starts,
        ``{"kind": "move", "seat", "dice" (high first), "text" (from each
        seat's side), "steps", "hits", "board"}`` for a play (as ``last``;
        ``board`` is the position after it, as the view gives it), ``{"kind": "double"|"take"|"drop"|"resign",
        "seat", "cube"}``, ``{"kind": "name_double", "seat", "number"}`` (Acey-Deucey) and
        ``{"kind": "result", "winner", "points", "score"}``.
        """
        m = self.match
        if isinstance(action, OpeningRoll):
            self.moves.append({"kind": "game", "game": m.game_number, "score": list(m.score)})
        if isinstance(action, Move) and self.last is not None:
            self.moves.append({"kind": "move", "seat": self.last["seat"],
                               "dice": sorted(self.last["dice"], reverse=True),
                               "text": self.last["text"], "steps": self.last["steps"], "hits": self.last["hits"],
                               "board": self._board()})
        elif action.kind in ("double", "take", "drop", "resign"):
            self.moves.append({"kind": action.kind, "seat": actor, "cube": m.cube_value})
        elif isinstance(action, NameDouble):
            self.moves.append({"kind": "name_double", "seat": actor, "number": action.number})
        result = m.game_result
        if result is not None and m.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and (
                not self.moves or self.moves[-1]["kind"] != "result"):
            self.moves.append({"kind": "result", "winner": result.winner, "points": result.points,
                               "score": list(m.score)})

    def _board(self) -> JSON:
        return board_json(self.match.position_for(0).board, self.match.variant.checkers)

    # Views --------------------------------------------------------------------

    def view(self, seats: frozenset[int], shared: JSON | None = None) -> JSON:
        """The match as the holder of ``seats`` may see it, with what they may do.

        ``shared``: this state's ``shared_view()``, when several seats' views of it are made
        (it is copied, not changed).
        """
        view = dict(self.shared_view() if shared is None else shared)
        m = self.match
        if self.may_act(seats):
            kinds = sorted(m.legal_kinds())
            if m.phase == Phase.GAME_OVER and self.single:
                kinds = []
            if self.automatic() is not None:
                kinds = []  # the server takes this step itself (an empty move; online, a forced one too)
            view["actions"] = kinds
            if kinds and m.phase == Phase.MOVE:
                act = m.state.on_roll
                g = self.graph
                # to_abs, written out: a doubles' graph has hundreds of edges
                if act == 0:
                    nodes = [[[s, d, die, int(hit), c] for s, d, die, hit, c in edges] for edges in g.nodes]
                elif is_round(m.variant):
                    nodes = [[[round_abs(1, s), round_abs(1, d), die, int(hit), c] for s, d, die, hit, c in edges]
                             for edges in g.nodes]
                else:
                    nodes = [[[s if s in (0, 25, 26) else 25 - s, d if d in (0, 25) else 25 - d, die, int(hit), c]
                              for s, d, die, hit, c in edges] for edges in g.nodes]
                view["moves"] = {
                    "depth": g.depth,
                    "nodes": nodes,
                    "finals": {str(k): v for k, v in g.finals.items()},
                }
        return view

    def shared_view(self) -> JSON:
        """What every seat's view of the match holds alike: everything but what the seat may do
        (``actions`` empty, ``moves`` None: a spectator's view)."""
        m = self.match
        pips = m.position_for(0).pip_counts()
        board = self._board()
        phase = m.phase
        playing = phase in (Phase.ROLL, Phase.MOVE, Phase.TAKE, Phase.RESIGN, Phase.NAME_DOUBLE)
        result = m.game_result
        # A drawn single game (Plakoto: both mothers pinned) has no winner.
        winner = m.winner if not self.single else (result.winner if result and not result.is_draw else None)
        if self.forfeit is not None:
            winner = 1 - self.forfeit["seat"]
            playing = False
        view: JSON = {
            "phase": phase.value,
            "variant": m.variant.name,  # in a Tavli match, the current game's
            **board,
            "pips": [pips[0], pips[1]],
            "turn": m.state.on_roll if playing else None,
            "dice": list(m.dice) if m.dice else None,
            "cube": {"value": m.cube_value, "owner": m.cube_owner, "enabled": m.cube_enabled},
            "score": list(m.score),
            "length": self.config.length,
            "game_number": m.game_number,
            "crawford": m.crawford,
            "over": self.is_over,
            "winner": winner,
            "last": self.last,
            "resignation": ({"level": m.resignation, "by": 1 - (m.turn or 0)} if phase == Phase.RESIGN else None),
            "result": ({"winner": result.winner, "points": result.points, "level": result.level,
                        "cube": result.cube, "how": result.how} if result else None),
            "to_act": self.to_act,
            "actions": [],
            "moves": None,
        }
        if m.variant.turn_flow == "acey-deucey":
            view["stage"] = acey_deucey_stage(m.state)
        if m.series is not None:  # the Tavli match: its kind and the games it plays in turn
            view["kind"] = m.series.name
            view["series"] = [v.name for v in m.series.games]
        if self.config.mode == "online":
            # The state as GNU Backgammon IDs lets a bot client decide exactly as the server's computer does.
            view["forfeit"] = self.forfeit
            view["ids"] = {"position": m.position.id, "match": m.match_id}
        return view
