"""The state of a match between two actions, and the one function that advances it.

``step(state, action, dice)`` checks the action against the rules and returns
the next state together with the action as it will be logged (dice filled in,
the play in canonical notation).  States are frozen values, so a rejected
action leaves nothing half-changed.

>>> from table.rules.dice import SeededDice
>>> s = initial_state(Settings(length=3, cube=True, jacoby=False))
>>> s.phase, turn(s)
(<Phase.OPENING: 'opening'>, None)
>>> s, logged = step(s, OpeningRoll((3, 1)), SeededDice(1))
>>> s.phase, s.on_roll, s.dice
(<Phase.MOVE: 'move'>, 0, (3, 1))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import lru_cache

from table.errors import IllegalActionError, TableError
from table.match.actions import (
    LEVEL_NAMES,
    AcceptResignation,
    Action,
    Double,
    Drop,
    Move,
    NameDouble,
    NextGame,
    OpeningRoll,
    RecordedResult,
    RejectResignation,
    Resign,
    Roll,
    Take,
    is_die,
    is_level,
)
from table.match.series import Series, greek_flow
from table.rules import aceydeucey
from table.rules.dice import Dice, DiceSource, check_dice, opening_roll, roll
from table.rules.position import Play, Position
from table.rules.variant import STANDARD, Variant

MAX_CUBE = 64
MAX_LENGTH = 64  # the longest match GNU Backgammon's Match ID holds and its set matchid accepts


class Phase(str, enum.Enum):
    """What the match is waiting for."""

    OPENING = "opening"        # the opening roll (either player, or the server)
    ROLL = "roll"              # the player on roll: roll, double or resign
    MOVE = "move"              # the player on roll has rolled: play or resign
    NAME_DOUBLE = "name_double"  # Acey-Deucey: the 1 and 2 are played; the same player names a double
    TAKE = "take"              # the opponent of the doubler: take, drop or resign
    RESIGN = "resign"          # the opponent of the resigner: accept or reject
    GAME_OVER = "game_over"    # the next game may start
    MATCH_OVER = "match_over"  # nothing more to do


@dataclass(frozen=True)
class Settings:
    """What stays fixed for the whole match.  ``length`` 0 is money play; every game starts
    from ``variant``'s start (``table.rules.variant``), or, in a ``series`` (the Tavli
    match, ``table.match.series``), from the start of its game's variant: ``variant`` is
    then the first game's."""

    length: int
    cube: bool
    jacoby: bool
    variant: Variant = STANDARD
    series: Series | None = None

    def game(self, number: int) -> Variant:
        """The variant game ``number`` plays."""
        return self.variant if self.series is None else self.series.game(number)


@dataclass(frozen=True)
class GameResult:
    """How a game ended: ``how`` is ``"checkers"``, ``"drop"``, ``"resign"`` or ``"record"``;
    in Plakoto also ``"mother"`` (a pinned mother checker lost it) or ``"draw"``.

    ``level`` is 1, 2 or 3 (single, gammon, backgammon) as scored, after the
    Jacoby rule; ``points`` is what the variant scores for ``level`` (1, 2 or 3 in
    backgammon and Nackgammon) times ``cube``.  In Acey-Deucey ``level`` is 1 and
    ``points`` is ``checkers``, the loser's checkers not borne off (docs/variants.md).
    A draw (Plakoto: both mothers pinned) scores nothing: ``points`` and ``level`` are 0
    and ``winner`` is only the player who made the last move (``is_draw``).
    """

    winner: int
    points: int
    level: int
    cube: int
    how: str
    checkers: int = 0  # Acey-Deucey: the checkers the loser pays for; 0 in other games

    @property
    def is_draw(self) -> bool:
        """Whether the game ended without a winner (and scored nothing)."""
        return self.how == "draw"

    def describe(self) -> str:
        """A short English description, e.g. ``'gammon (2 points)'``."""
        if self.is_draw:
            return "a draw: both mothers pinned (0 points)"
        level = (f"{self.checkers} checker{'s' if self.checkers != 1 else ''} not borne off"
                 if self.checkers else LEVEL_NAMES[self.level])
        what = {"drop": "double dropped", "resign": f"resigned {level}",
                "record": "as the record states",
                "mother": f"{level}: the mother checker pinned"}.get(self.how, level)
        return f"{what} ({self.points} point{'s' if self.points != 1 else ''})"


@dataclass(frozen=True)
class State:
    """Everything the rules need to know about a match at one moment.

    ``position`` is seen from ``on_roll``, the player whose turn it is to roll
    or move (the doubler while a double awaits an answer).
    """

    settings: Settings
    score: tuple[int, int]
    game_number: int
    crawford: bool             # this game is the Crawford game
    crawford_done: bool        # a Crawford game has been played (or is being)
    phase: Phase
    position: Position
    on_roll: int
    dice: Dice | None
    cube_value: int
    cube_owner: int | None
    moves_played: int          # plays made in this game
    resign_level: int = 0      # the resignation on offer, 0 for none
    resume_phase: Phase | None = None  # what the resigner was deciding (ROLL, MOVE or TAKE)
    resign_refused: bool = False       # a resignation was refused at this decision
    result: GameResult | None = None
    stage: str = ""  # Acey-Deucey's 1-2 turn: "named" (the dice are a named double), "extra" (its roll)


def initial_state(settings: Settings, score: tuple[int, int] = (0, 0)) -> State:
    """The state before the opening roll of the first game."""
    return State(
        settings=settings, score=score, game_number=1, crawford=False, crawford_done=False,
        phase=Phase.OPENING, position=Position.initial(settings.variant), on_roll=0, dice=None,
        cube_value=1, cube_owner=None, moves_played=0,
    )


def resigner(state: State) -> int:
    """Who offered the resignation on the table (meaningful in ``Phase.RESIGN``).

    The player on roll resigns before or after rolling; the opponent only
    instead of answering a double.
    """
    return 1 - state.on_roll if state.resume_phase == Phase.TAKE else state.on_roll


def acey_deucey_stage(state: State) -> str | None:
    """Where an Acey-Deucey turn is in the staged 1-2 turn (docs/variants.md), or ``None``:

    ``"one_two"`` (the 1 and the 2 to play), ``"name_double"`` (a double to name),
    ``"named_double"`` (the named double to play), ``"extra_roll"`` (the roll it earned).
    """
    if not aceydeucey.plays_acey_deucey(state.settings.variant):
        return None
    phase = state.resume_phase if state.phase == Phase.RESIGN else state.phase
    if phase == Phase.NAME_DOUBLE:
        return "name_double"
    if phase == Phase.MOVE:
        if state.stage == "named":
            return "named_double"
        return "one_two" if state.dice is not None and aceydeucey.is_acey_deucey(state.dice) else None
    if phase == Phase.ROLL and state.stage == "extra":
        return "extra_roll"
    return None


def turn(state: State) -> int | None:
    """The player who must act, or ``None`` when the next action is nobody's in particular."""
    if state.phase in (Phase.ROLL, Phase.MOVE, Phase.NAME_DOUBLE):
        return state.on_roll
    if state.phase == Phase.TAKE:
        return 1 - state.on_roll
    if state.phase == Phase.RESIGN:
        return 1 - resigner(state)
    return None


def why_no_double(state: State) -> str | None:
    """Why the player on roll may not double now, or ``None`` if they may."""
    s = state.settings
    player = state.on_roll
    if state.phase != Phase.ROLL:
        return "a double is offered only by the player on roll, before rolling"
    if not s.cube:
        return "this match is played without the doubling cube"
    if state.moves_played == 0:
        return "nobody may double before the first move of the game has been played"
    if state.crawford:
        return "nobody may double in the Crawford game"
    if state.cube_owner is not None and state.cube_owner != player:
        return "your opponent owns the cube: only the owner may redouble"
    if state.cube_value >= MAX_CUBE:
        return f"the cube is at {MAX_CUBE}, its highest value"
    if s.length:
        if state.score[player] == s.length - 1:
            return "you need only one point to win the match, so you may not double"
        if state.score[player] + state.cube_value >= s.length:
            return f"the cube at {state.cube_value} already wins you the match, so you may not double"
    return None


@lru_cache(maxsize=256)
def plays_by_text(position: Position, dice: Dice) -> dict[str, Play]:
    """The legal plays of ``dice``, keyed by their standard notation."""
    return {str(p): p for p in position.legal_plays(dice)}


def _one_level(state: State) -> bool:
    """Whether a resignation can only give up the game as it stands (one offer, level 1):
    under Jacoby, and in Acey-Deucey, which has no gammons but pays per checker."""
    return _jacoby_applies(state) or aceydeucey.plays_acey_deucey(state.settings.variant)


def _resigns(state: State) -> list[Action]:
    levels = [1] if _one_level(state) else [1, 2] if _no_backgammon(state) else list(LEVEL_NAMES)
    return [] if state.resign_refused else [Resign(level) for level in levels]


def _no_backgammon(state: State) -> bool:
    """Whether the game scores a backgammon as a gammon (the Greek games): no resignation of 3."""
    scoring = state.position.variant.scoring
    return scoring[2] == scoring[1]


def legal_kinds(state: State) -> frozenset[str]:
    """The kinds of action allowed now, as ``legal_actions`` gives them, without writing out every play."""
    if state.phase == Phase.MOVE:  # a roll is always answered by a move (maybe the empty one)
        return frozenset({"move", *(a.kind for a in _resigns(state))})
    return frozenset(a.kind for a in legal_actions(state))


def legal_actions(state: State) -> list[Action]:
    """Every action allowed now; rolls carry no dice (the source rolls them when applied)."""
    phase = state.phase
    resigns = _resigns(state)
    if phase == Phase.OPENING:
        return [OpeningRoll()]
    if phase == Phase.ROLL:
        cube: list[Action] = [] if why_no_double(state) else [Double()]
        return [Roll(), *cube, *resigns]
    if phase == Phase.MOVE:
        assert state.dice is not None
        texts = list(plays_by_text(state.position, state.dice))
        return [*([Move(t) for t in texts] if texts else [Move("")]), *resigns]
    if phase == Phase.NAME_DOUBLE:
        return [*(NameDouble(n) for n in range(1, 7)), *resigns]
    if phase == Phase.TAKE:
        return [Take(), Drop(), *resigns]
    if phase == Phase.RESIGN:
        return [AcceptResignation(), RejectResignation()]
    if phase == Phase.GAME_OVER:
        return [NextGame()]
    return []


def _expect(state: State, action: Action, *phases: Phase) -> None:
    if state.phase not in phases:
        raise IllegalActionError(f"{_name(action)} is not possible now: {_waiting_for(state)}")


def _name(action: Action) -> str:
    return {
        "opening_roll": "the opening roll", "roll": "rolling", "move": "moving",
        "double": "doubling", "take": "taking", "drop": "dropping", "resign": "resigning",
        "accept_resignation": "accepting a resignation",
        "reject_resignation": "rejecting a resignation", "next_game": "starting the next game",
        "recorded_result": "ending the game as a record states",
        "name_double": "naming a double",
    }[action.kind]


def _waiting_for(state: State) -> str:
    who = turn(state)
    p = f"player {who}" if who is not None else ""
    return {
        Phase.OPENING: "the game waits for the opening roll",
        Phase.ROLL: f"{p} is to roll or double",
        Phase.MOVE: f"{p} is to play the roll or resign",
        Phase.NAME_DOUBLE: f"{p} is to name a double (or resign)",
        Phase.TAKE: f"{p} is to take or drop the double",
        Phase.RESIGN: f"{p} is to accept or reject the resignation",
        Phase.GAME_OVER: "the game is over; the next game may start",
        Phase.MATCH_OVER: "the match is over",
    }[state.phase]


def _jacoby_applies(state: State) -> bool:
    """Jacoby: in money play gammons count only once the cube has been turned."""
    s = state.settings
    return s.length == 0 and s.jacoby and state.cube_value == 1


def _finish(state: State, winner: int, level: int, how: str, points: int | None = None) -> State:
    """The game won by ``winner`` at ``level``; a record may state other ``points`` than the rules give."""
    s = state.settings
    checkers = 0
    if _one_level(state):
        level = 1
    if level == 3 and _no_backgammon(state):
        level = 2  # the Greek games: a backgammon is a gammon (docs/variants.md)
    if points is None:
        if aceydeucey.plays_acey_deucey(s.variant):
            # The loser pays for every checker not borne off (docs/variants.md).
            left = aceydeucey.checkers_left(state.position)
            checkers = left[0] if 1 - winner == state.on_roll else left[1]
            points = checkers * state.cube_value
        else:
            points = state.position.variant.scoring[level - 1] * state.cube_value
    score = list(state.score)
    score[winner] += points
    new_score = (score[0], score[1])
    over = s.length > 0 and max(new_score) >= s.length
    return replace(
        state, score=new_score, dice=None, resign_level=0, resume_phase=None,
        resign_refused=False, stage="",
        phase=Phase.MATCH_OVER if over else Phase.GAME_OVER,
        result=GameResult(winner=winner, points=points, level=level,
                          cube=state.cube_value, how=how, checkers=checkers),
    )


def _draw(state: State) -> State:
    """The game over without a winner (Plakoto: both mothers pinned): nobody scores."""
    return replace(
        state, dice=None, resign_level=0, resume_phase=None, resign_refused=False, stage="",
        phase=Phase.GAME_OVER,
        result=GameResult(winner=1 - state.on_roll, points=0, level=0, cube=state.cube_value,
                          how="draw"),
    )


def _next_game(state: State) -> State:
    s = state.settings
    number = state.game_number + 1
    variant = s.game(number)
    # Without a cube the Greek games have no Crawford game (docs/variants.md, "Tavli").
    crawford = (s.length > 0 and not state.crawford_done and s.length - 1 in state.score
                and (s.cube or not greek_flow(variant)))
    # In a series the last game's winner starts the next one; after a draw the dice decide.
    starter = state.result.winner if (s.series is not None and state.result is not None
                                      and not state.result.is_draw) else None
    return replace(
        state, game_number=number, crawford=crawford,
        crawford_done=state.crawford_done or crawford,
        phase=Phase.OPENING if starter is None else Phase.ROLL,
        position=Position.initial(variant), on_roll=0 if starter is None else starter, dice=None, cube_value=1,
        cube_owner=None, moves_played=0, resign_level=0, resume_phase=None, resign_refused=False,
        result=None, stage="",
    )


def _find_play(state: State, move: Move) -> Play | None:
    assert state.dice is not None
    held = move.resolved
    if held is not None and held.generated and held.before == state.position and sorted(held.dice) == sorted(state.dice):
        return held  # a play of this very roll, made by the move generator: legal as it stands
    text = move.play
    plays = plays_by_text(state.position, state.dice)
    dice = f"{state.dice[0]}-{state.dice[1]}"
    if not text.strip():
        if plays:
            raise IllegalActionError(f"the roll {dice} must be played; for example {next(iter(plays))}")
        return None
    if not plays:
        raise IllegalActionError(f"no move is possible with {dice}: play an empty move")
    found = plays.get(text)
    if found is not None:
        return found
    try:
        return state.position.parse_play(text, state.dice)
    except TableError as exc:
        raise IllegalActionError(str(exc)) from None


def step(state: State, action: Action, dice: DiceSource) -> tuple[State, Action]:
    """Apply ``action``; return the new state and the action as logged.

    Raises ``IllegalActionError`` (nothing changes, no dice are rolled) when
    the action is not allowed now.
    """
    after, logged = _step(state, action, dice)
    if after.resign_refused and not isinstance(action, RejectResignation):
        # A refusal bars a new offer at that decision only; any other action starts a new one.
        after = replace(after, resign_refused=False)
    return after, logged


def _step(state: State, action: Action, dice: DiceSource) -> tuple[State, Action]:
    if isinstance(action, OpeningRoll):
        _expect(state, action, Phase.OPENING)
        if action.dice is None:
            starter, played = opening_roll(dice)
            pair = (played[0], played[1]) if starter == 0 else (played[1], played[0])
        else:
            pair = _checked(action.dice)
            if pair[0] == pair[1]:
                raise IllegalActionError(f"an opening roll needs two different dice, got {pair[0]}-{pair[1]}")
        starter = 0 if pair[0] > pair[1] else 1
        if greek_flow(state.position.variant):  # the higher die starts, rolling both afresh
            return replace(state, phase=Phase.ROLL, on_roll=starter, dice=None), OpeningRoll(pair)
        played = (pair[starter], pair[1 - starter])
        return (replace(state, phase=Phase.MOVE, on_roll=starter, dice=played),
                OpeningRoll(pair))
    if isinstance(action, Roll):
        _expect(state, action, Phase.ROLL)
        rolled = roll(dice) if action.dice is None else _checked(action.dice)
        return replace(state, phase=Phase.MOVE, dice=rolled, stage=""), Roll(rolled)
    if isinstance(action, Move):
        _expect(state, action, Phase.MOVE)
        if not isinstance(action.play, str):
            raise IllegalActionError(f"a move is written as text, got {action.play!r}")
        play = _find_play(state, action)
        after = state.position.swapped() if play is None else play.position
        moved = replace(state, position=after, on_roll=1 - state.on_roll, dice=None,
                        phase=Phase.ROLL, moves_played=state.moves_played + 1, stage="")
        logged = Move("" if play is None else str(play))
        outcome = after.result()
        if outcome < 0:  # seen from the new player on roll: the mover has won
            # Plakoto: a win with checkers still on the board is the pinned mother's.
            how = "checkers" if after.borne_off()[1] == after.variant.checkers else "mother"
            return _finish(moved, state.on_roll, -outcome, how), logged
        if outcome == 0 and not after.variant.hitting and after.is_draw:
            return _draw(moved), logged
        goes_on = _goes_on(state, play)
        if goes_on is not None:  # Acey-Deucey: the same player stays on roll for the next stage
            assert play is not None
            return replace(moved, position=aceydeucey.still_on_roll(play), on_roll=state.on_roll,
                           phase=goes_on, stage="extra" if goes_on == Phase.ROLL else ""), logged
        return moved, logged
    if isinstance(action, NameDouble):
        _expect(state, action, Phase.NAME_DOUBLE)
        if not is_die(action.number):
            raise IllegalActionError(f"a named double is a die's number, 1 to 6, got {action.number!r}")
        n = action.number
        return replace(state, phase=Phase.MOVE, dice=(n, n), stage="named"), action
    if isinstance(action, Double):
        reason = why_no_double(state)
        if reason:
            raise IllegalActionError(reason)
        return replace(state, phase=Phase.TAKE), action
    if isinstance(action, Take):
        _expect(state, action, Phase.TAKE)
        return replace(state, phase=Phase.ROLL, cube_value=state.cube_value * 2,
                       cube_owner=1 - state.on_roll), action
    if isinstance(action, Drop):
        _expect(state, action, Phase.TAKE)
        return _finish(state, state.on_roll, 1, "drop"), action
    if isinstance(action, Resign):
        _expect(state, action, Phase.ROLL, Phase.MOVE, Phase.NAME_DOUBLE, Phase.TAKE)
        if not is_level(action.level):
            raise IllegalActionError(f"a resignation is 1 (single), 2 (gammon) or 3 (backgammon), got {action.level!r}")
        if action.level == 3 and _no_backgammon(state):
            raise IllegalActionError(f"{state.position.variant.title} has no backgammon: resign a "
                                     "single game (1) or a gammon (2)")
        if action.level > 1 and aceydeucey.plays_acey_deucey(state.settings.variant):
            raise IllegalActionError("Acey-Deucey has no gammons: a resignation (level 1) gives up "
                                     "the game at one point per checker not borne off")
        if state.resign_refused:
            raise IllegalActionError("a resignation was just refused: make your decision first "
                                     "(roll, play or answer the double), then you may offer again")
        # Under Jacoby an unturned cube makes every resignation a single game: log it so.
        level = 1 if _one_level(state) else action.level
        return (replace(state, phase=Phase.RESIGN, resume_phase=state.phase, resign_level=level),
                Resign(level))
    if isinstance(action, AcceptResignation):
        _expect(state, action, Phase.RESIGN)
        loser = resigner(state)
        return _finish(state, 1 - loser, state.resign_level, "resign"), action
    if isinstance(action, RejectResignation):
        _expect(state, action, Phase.RESIGN)
        assert state.resume_phase is not None
        return replace(state, phase=state.resume_phase, resume_phase=None, resign_level=0,
                       resign_refused=True), action
    if isinstance(action, NextGame):
        _expect(state, action, Phase.GAME_OVER)
        return _next_game(state), action
    if isinstance(action, RecordedResult):
        _expect(state, action, Phase.ROLL, Phase.MOVE, Phase.NAME_DOUBLE, Phase.TAKE, Phase.RESIGN)
        if action.winner not in (0, 1) or isinstance(action.winner, bool):
            raise IllegalActionError(f"a recorded result's winner is player 0 or 1, got {action.winner!r}")
        if not isinstance(action.points, int) or isinstance(action.points, bool) or action.points < 1:
            raise IllegalActionError(f"a recorded result is worth 1 point or more, got {action.points!r}")
        level, rest = divmod(action.points, state.cube_value)
        level = level if not rest and level in LEVEL_NAMES else 1
        return _finish(state, action.winner, level, "record", action.points), action
    raise IllegalActionError(f"{action!r} is not a match action")


def _goes_on(state: State, play: Play | None) -> Phase | None:
    """After ``play`` of Acey-Deucey's staged turn, the phase the same player goes on to:
    naming a double after both the 1 and the 2, the extra roll after a named double played
    in full; ``None`` when the turn passes (docs/variants.md)."""
    if play is None or not aceydeucey.plays_acey_deucey(state.settings.variant):
        return None
    if state.stage == "named":
        return Phase.ROLL if aceydeucey.double_played_in_full(play) else None
    return Phase.NAME_DOUBLE if aceydeucey.played_both(play) else None


def _checked(dice: tuple[int, ...]) -> Dice:
    if not isinstance(dice, (tuple, list)):
        raise IllegalActionError(f"a roll is two dice, got {dice!r}")
    try:
        return check_dice(tuple(dice))
    except TableError as exc:
        raise IllegalActionError(str(exc)) from None
