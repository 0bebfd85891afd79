"""``Match``: a game or a match of backgammon as a log of actions.

The state is derived by applying the actions in order; ``legal_actions()``
says what may happen next, and ``apply`` refuses anything else with an
``IllegalActionError`` that changes nothing.

>>> import random
>>> m = Match(length=3, cube=True, seed=1)
>>> rng = random.Random(1)
>>> while not m.is_over:
...     _ = m.apply(rng.choice(m.legal_actions()))
>>> m.winner in (0, 1), max(m.score) >= 3
(True, True)
>>> Match.from_mat(m.to_mat()).score == m.score
True
>>> Match.from_json(m.to_json()).actions == m.actions
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any, Sequence, Union

from table.errors import MatchSettingsError, RecordError, TableError
from table.match.actions import Action, action_from_json
from table.match.series import Series, find_game
from table.match.state import (
    MAX_LENGTH,
    GameResult,
    Phase,
    Settings,
    State,
    initial_state,
    legal_actions,
    legal_kinds,
    step,
    turn,
    why_no_double,
)
from table.rules.dice import Dice, DiceSource, SecretDice, SeededDice
from table.rules.position import Position
from table.rules.variant import STANDARD, Variant

JSON_FORMAT = "table-match"
JSON_VERSION = 1
DEFAULT_PLAYERS = ("Player 1", "Player 2")


RecordSource = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]
"""A record's text, the path of a file holding it, or an open file."""


def read_record(source: RecordSource) -> str:
    """The text of a record given as text, a path or an open file.

    A string is the record itself when it holds a line break or starts with
    ``(`` (SGF) or ``{`` (JSON); any other string, like a ``pathlib.Path``, names a file.
    """
    if isinstance(source, str) and ("\n" in source or source.lstrip()[:1] in ("(", "{")):
        return source
    if isinstance(source, (str, os.PathLike)):
        try:
            data: str | bytes = Path(source).read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {os.fspath(source)}: {exc.strerror or exc}") from None
    elif hasattr(source, "read"):
        data = source.read()
    else:
        raise RecordError(f"a record is text, a file path or an open file, "
                          f"not {type(source).__name__}")
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("latin-1")  # older Windows programs write their code page
    return data


def _check_names(players: Sequence[str]) -> tuple[str, str]:
    if isinstance(players, str) or len(players) != 2:
        raise MatchSettingsError(f"a match has two players, got {players!r}")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise MatchSettingsError(f"a player's name is a non-empty string, got {name!r}")
        name = name.strip()
        if any(ord(c) < 32 for c in name) or ":" in name:
            raise MatchSettingsError(f"a player's name may not hold ':' or control characters: {name!r}")
        if len(name) > 40:
            raise MatchSettingsError(f"a player's name is at most 40 characters: {name!r}")
        names.append(name)
    return (names[0], names[1])


def _settings(length: int, cube: bool, jacoby: bool | None, variant: Variant | Series | str) -> Settings:
    if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length <= MAX_LENGTH:
        raise MatchSettingsError(
            f"a match is 1 to {MAX_LENGTH} points, or 0 for money play; got {length!r}")
    kind = find_game(variant)
    series = kind if isinstance(kind, Series) else None
    if series is not None and length not in series.lengths:
        allowed = ", ".join(map(str, series.lengths[:-1])) + f" or {series.lengths[-1]}"
        raise MatchSettingsError(f"a {series.title} match is played to {allowed} points, not {length!r}")
    game = kind.games[0] if isinstance(kind, Series) else kind
    if jacoby is None:
        # Jacoby counts gammons only once the cube is turned: without a cube it would never count them.
        jacoby = length == 0 and game.cube
    if jacoby and length:
        raise MatchSettingsError("the Jacoby rule is for money play only (length 0)")
    if cube and not game.cube:
        raise MatchSettingsError(f"{kind.title} is played without the doubling cube")
    if jacoby and not game.cube:
        raise MatchSettingsError(f"{game.title} is played without the doubling cube, so the "
                                 "Jacoby rule (gammons count once the cube is turned) cannot apply")
    return Settings(length=length, cube=bool(cube), jacoby=bool(jacoby), variant=game, series=series)


def _saved_variant(name: object) -> Variant | Series:
    if not isinstance(name, str):
        raise RecordError(f"'variant' is a variant's name, not {name!r}")
    try:
        return find_game(name)
    except TableError as exc:
        raise RecordError(f"the saved match's variant: {exc}") from None


class Match:
    """A match to ``length`` points (0 = money play), with or without the doubling cube.

    ``variant`` (a ``Variant`` or its name, see ``table.rules.variant``) is the
    game played: every game starts from its start.  A ``Series`` or its name
    (``"tavli"``, ``table.match.series``) plays its variants in turn, one a game.  Dice come from ``dice`` (any ``DiceSource``); by default from ``seed``
    (reproducible) or, without one, the operating system's secret generator.
    Players are 0 and 1; ``players`` gives their names.
    """

    def __init__(
        self,
        length: int = 0,
        cube: bool = True,
        seed: int | None = None,
        *,
        dice: DiceSource | None = None,
        jacoby: bool | None = None,
        players: Sequence[str] = DEFAULT_PLAYERS,
        variant: Variant | Series | str = STANDARD,
    ) -> None:
        settings = _settings(length, cube, jacoby, variant)
        self._players = _check_names(players)
        self._dice: DiceSource = dice if dice is not None else (
            SeededDice(seed) if seed is not None else SecretDice())
        self._setup: tuple[str, str] | None = None
        self._start = initial_state(settings)
        self._state = self._start
        self._history: list[tuple[State, Action]] = []
        self._results: list[GameResult] = []
        self._match_id: tuple[State, str] | None = None

    # Construction from other forms -------------------------------------------

    @classmethod
    def from_ids(
        cls,
        position_id: str,
        match_id: str,
        *,
        cube: bool = True,
        jacoby: bool | None = None,
        seed: int | None = None,
        dice: DiceSource | None = None,
        players: Sequence[str] = DEFAULT_PLAYERS,
        variant: Variant | str = STANDARD,
    ) -> Match:
        """Start from a GNU Backgammon Position ID (seen from the player on roll) and Match ID.

        The IDs do not say which game is played: ``variant`` does.

        >>> m = Match.from_ids("4HPwATDgc/ABMA", "cIkSAAAAAAAA")
        >>> m.phase, m.turn, m.dice, m.length
        (<Phase.MOVE: 'move'>, 1, (5, 4), 0)
        """
        from table.match.ids import state_from_ids
        from table.notation.matchid import decode_match_id

        if isinstance(find_game(variant), Series):
            raise MatchSettingsError("a Tavli match starts from its first game's opening: IDs set "
                                     "up one game of one variant (portes, plakoto or fevga)")
        position = Position.from_id(position_id, variant)
        info = decode_match_id(match_id)
        if jacoby is None:
            jacoby = info.match_length == 0 and position.variant.cube
        state = state_from_ids(position, info, cube, jacoby)
        m = cls(state.settings.length, cube, seed, dice=dice, jacoby=state.settings.jacoby,
                players=players, variant=position.variant)
        m._setup = (position.id, match_id.strip())
        m._start = m._state = state
        return m

    @classmethod
    def from_json(cls, data: RecordSource | dict[str, Any], *, seed: int | None = None,
                  dice: DiceSource | None = None) -> Match:
        """Restore a match saved by ``to_json``: the dict, its JSON text, a file path or an open file.

        Future dice come from ``dice`` or ``seed`` (by default the secret generator).
        """
        if not isinstance(data, dict):
            try:
                data = json.loads(read_record(data))
            except json.JSONDecodeError as exc:
                raise RecordError(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError("a saved match is a JSON object")
        if data.get("format") != JSON_FORMAT:
            raise RecordError(f"not a saved match: 'format' must be {JSON_FORMAT!r}")
        if data.get("version") != JSON_VERSION:
            raise RecordError(f"saved match version {data.get('version')!r} is not supported "
                              f"(this is version {JSON_VERSION})")
        try:
            kwargs: dict[str, Any] = dict(cube=data["cube"], jacoby=data["jacoby"],
                                          players=data["players"], seed=seed, dice=dice,
                                          variant=_saved_variant(data.get("variant", "standard")))
            setup = data.get("setup")
            if setup is None:
                m = cls(data["length"], **kwargs)
            else:
                m = cls.from_ids(setup["position_id"], setup["match_id"], **kwargs)
                if m.length != data["length"]:
                    raise RecordError("the saved length differs from the set-up Match ID's")
            actions = data["actions"]
        except KeyError as exc:
            raise RecordError(f"a saved match needs the field {exc.args[0]!r}") from None
        except TypeError as exc:
            raise RecordError(f"a field of the saved match has the wrong type: {exc}") from None
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list")
        for i, raw in enumerate(actions):
            try:
                m.apply(action_from_json(raw))
            except TableError as exc:
                raise RecordError(f"action {i + 1} ({raw!r}): {exc}") from None
        return m

    @classmethod
    def from_mat(cls, source: RecordSource, *, seed: int | None = None,
                 dice: DiceSource | None = None) -> Match:
        """Read a match in the Jellyfish/GNU Backgammon ``.mat`` text format.

        ``source`` is the record's text, a file path or an open file.  Every
        game, move and cube action is replayed and checked; a bad record raises
        ``RecordError`` naming the line.
        """
        from table.match.records import match_from_mat

        return match_from_mat(read_record(source), seed=seed, dice=dice)

    @classmethod
    def from_sgf(cls, source: RecordSource, *, seed: int | None = None,
                 dice: DiceSource | None = None) -> Match:
        """Read a match in SGF for backgammon (``GM[6]``), as GNU Backgammon writes it.

        ``source`` is the record's text, a file path or an open file.  Every
        move is replayed and checked, as for ``from_mat``.

        >>> m = Match(length=3, seed=2)
        >>> while not m.is_over:
        ...     _ = m.apply(m.legal_actions()[0])
        >>> Match.from_sgf(m.to_sgf()).score == m.score
        True
        """
        from table.match.records import match_from_sgf

        return match_from_sgf(read_record(source), seed=seed, dice=dice)

    # Writing -----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything needed to restore this match exactly, as a JSON-ready dict."""
        setup = None if self._setup is None else {
            "position_id": self._setup[0], "match_id": self._setup[1]}
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "length": self.length,
            "cube": self.cube_enabled,
            "jacoby": self.jacoby,
            "players": list(self._players),
            "variant": self.kind,
            "setup": setup,
            "actions": [a.to_json() for a in self.actions],
        }

    def to_mat(self) -> str:
        """The match in the ``.mat`` text format (GNU Backgammon, eXtreme Gammon, Jellyfish)."""
        from table.match.records import match_to_mat

        return match_to_mat(self)

    def to_sgf(self) -> str:
        """The match as SGF for backgammon (``GM[6]``), one game tree per game."""
        from table.match.records import match_to_sgf

        return match_to_sgf(self)

    # Playing -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action allowed now: one ``Move`` per legal play, cube actions and resignations.

        Rolls appear without dice; the dice source rolls them when applied.
        """
        return legal_actions(self._state)

    def apply(self, action: Action) -> Action:
        """Apply ``action`` and return it as logged (dice filled in, play in standard notation).

        Raises ``IllegalActionError`` and changes nothing when it is not allowed.
        """
        before = self._state
        after, logged = step(before, action, self._dice)
        self._state = after
        self._history.append((before, logged))
        if after.result is not None and before.result is None:
            self._results.append(after.result)
        return logged

    def legal_kinds(self) -> frozenset[str]:
        """The kinds of action allowed now (``"roll"``, ``"move"``, ``"double"``...), without listing every play.

        >>> sorted(Match(length=3).legal_kinds())
        ['opening_roll']
        """
        return legal_kinds(self._state)

    def may_double(self) -> bool:
        """Whether the player on roll may double right now."""
        return why_no_double(self._state) is None

    def why_no_double(self) -> str | None:
        """Why the player on roll may not double now (``None`` if they may)."""
        return why_no_double(self._state)

    # State -------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current state as a frozen value (for bots and servers)."""
        return self._state

    @property
    def length(self) -> int:
        """Points to win the match; 0 for money play."""
        return self._state.settings.length

    @property
    def cube_enabled(self) -> bool:
        """Whether the doubling cube is in play."""
        return self._state.settings.cube

    @property
    def jacoby(self) -> bool:
        """Whether the Jacoby rule applies (money play only)."""
        return self._state.settings.jacoby

    @property
    def variant(self) -> Variant:
        """The game played now (``table.rules.variant``): in a Tavli match, the current game's."""
        return self._state.position.variant

    @property
    def series(self) -> Series | None:
        """The match's rotation of variants (``table.match.series.TAVLI``), or ``None``."""
        return self._state.settings.series

    @property
    def kind(self) -> str:
        """What the match plays, by name: its series' (``"tavli"``) or its variant's."""
        series = self._state.settings.series
        return series.name if series is not None else self._state.settings.variant.name

    @property
    def players(self) -> tuple[str, str]:
        """The players' names, player 0 first."""
        return self._players

    @property
    def phase(self) -> Phase:
        """What the match waits for (``Phase.ROLL``, ``Phase.TAKE``, ...)."""
        return self._state.phase

    decision = phase

    @property
    def turn(self) -> int | None:
        """The player who must act now; ``None`` for the opening roll and the next game."""
        return turn(self._state)

    @property
    def on_roll(self) -> int:
        """The player on roll (the doubler while a double awaits an answer)."""
        return self._state.on_roll

    @property
    def position(self) -> Position:
        """The board seen from the player on roll."""
        return self._state.position

    def position_for(self, player: int) -> Position:
        """The board seen from ``player``."""
        p = self._state.position
        return p if player == self._state.on_roll else p.swapped()

    @property
    def dice(self) -> Dice | None:
        """The dice the player on roll has to play, or ``None``."""
        return self._state.dice

    @property
    def cube_value(self) -> int:
        return self._state.cube_value

    @property
    def cube_owner(self) -> int | None:
        """The player who owns the cube, or ``None`` while it is centred."""
        return self._state.cube_owner

    @property
    def crawford(self) -> bool:
        """Whether this game is the Crawford game (no doubling)."""
        return self._state.crawford

    @property
    def game_number(self) -> int:
        return self._state.game_number

    @property
    def score(self) -> tuple[int, int]:
        """Points won so far: (player 0, player 1)."""
        return self._state.score

    def away(self, player: int) -> int:
        """Points ``player`` still needs to win the match (0 in money play)."""
        length = self.length
        return max(length - self._state.score[player], 0) if length else 0

    @property
    def is_over(self) -> bool:
        """True once a player has reached the match length (never in money play)."""
        return self._state.phase == Phase.MATCH_OVER

    @property
    def winner(self) -> int | None:
        """The match's winner once it is over, else ``None``."""
        if not self.is_over:
            return None
        return 0 if self._state.score[0] > self._state.score[1] else 1

    @property
    def results(self) -> tuple[GameResult, ...]:
        """How each finished game ended, in order."""
        return tuple(self._results)

    @property
    def game_result(self) -> GameResult | None:
        """How the current game ended, or ``None`` while it goes on."""
        return self._state.result

    @property
    def resignation(self) -> int:
        """The resignation on offer (1, 2, 3) or 0."""
        return self._state.resign_level if self._state.phase == Phase.RESIGN else 0

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied, as logged."""
        return tuple(a for _, a in self._history)

    @property
    def history(self) -> tuple[tuple[State, Action], ...]:
        """Each logged action with the state it was applied to."""
        return tuple(self._history)

    @property
    def start(self) -> State:
        """The state the log starts from."""
        return self._start

    @property
    def setup_ids(self) -> tuple[str, str] | None:
        """(Position ID, Match ID) the match was set up from, or ``None`` for a fresh match."""
        return self._setup

    @property
    def match_id(self) -> str:
        """GNU Backgammon's Match ID of the current state."""
        from table.match.ids import match_info
        from table.notation.matchid import encode_match_id

        # A server shows the same state to every watcher: encode it once per state.
        if self._match_id is not None and self._match_id[0] is self._state:
            return self._match_id[1]
        text = encode_match_id(match_info(self._state))
        self._match_id = (self._state, text)
        return text

    @property
    def gnubg_id(self) -> str:
        """``PositionID:MatchID`` as GNU Backgammon shows it."""
        return f"{self._state.position.id}:{self.match_id}"

    def __repr__(self) -> str:
        length = f"{self.length}-point match" if self.length else "money session"
        if self.series is not None:
            length = f"{self.series.title} {length} ({self.variant.title})"
        elif self.variant != STANDARD:
            length = f"{self.variant.title} {length}"
        return (f"<Match {length}, game {self.game_number}, score {self.score[0]}-{self.score[1]}, "
                f"{self.phase.value}>")
