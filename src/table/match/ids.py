"""A match state as GNU Backgammon's Match ID, and a state set up from Position ID + Match ID.

>>> from table.match.state import Settings, initial_state
>>> info = match_info(initial_state(Settings(length=5, cube=True, jacoby=False)))
>>> info.game_state.name, info.match_length, info.score
('NO_GAME', 5, (0, 0))
"""

from __future__ import annotations

from dataclasses import replace

from table.errors import MatchSettingsError
from table.match.state import MAX_LENGTH, Phase, Settings, State, initial_state, turn
from table.notation.matchid import GameState, MatchInfo
from table.rules.position import Position


def match_info(state: State) -> MatchInfo:
    """The Match ID fields of ``state``."""
    phase = state.phase
    length = state.settings.length
    game_state = GameState.PLAYING
    if phase == Phase.OPENING:
        game_state = GameState.NO_GAME
    elif phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        # A match set up from a finished match's ID does not know how its last game ended.
        how = "checkers" if state.result is None else state.result.how
        # Plakoto's pinned mother and draw end the game on the board, as borne-off checkers do.
        game_state = {"drop": GameState.DROPPED, "resign": GameState.RESIGNED}.get(how, GameState.OVER)
    who = turn(state)
    return MatchInfo(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        player_on_roll=state.on_roll,
        crawford=state.crawford,
        game_state=game_state,
        turn=state.on_roll if who is None else who,
        double_offered=phase == Phase.TAKE,
        resignation=state.resign_level if phase == Phase.RESIGN else 0,
        dice=state.dice or (0, 0),
        match_length=length,
        score=state.score,
    )


def state_from_ids(position: Position, info: MatchInfo, cube: bool, jacoby: bool) -> State:
    """The state that ``position`` (seen from ``info.player_on_roll``) and ``info`` describe.

    The ID of a finished game sets up the match between games: the next
    game's opening roll, or the finished match once a score has reached the
    length.  ``MatchSettingsError`` says what does not fit.
    """
    length = info.match_length
    if not 0 <= length <= MAX_LENGTH:
        raise MatchSettingsError(f"a match is 1 to {MAX_LENGTH} points (0 for money play), the Match ID says {length}")
    if not cube and (info.cube_value != 1 or info.cube_owner is not None or info.double_offered):
        raise MatchSettingsError("the Match ID shows the cube in use, but the match is set up without a cube")
    if length and jacoby:
        raise MatchSettingsError("the Jacoby rule is for money play only")
    settings = Settings(length=length, cube=cube, jacoby=jacoby and length == 0,
                        variant=position.variant)
    base = initial_state(settings, info.score)
    crawford_done = info.crawford or (length > 0 and length - 1 in info.score)
    base = replace(base, crawford=info.crawford, crawford_done=crawford_done)
    gs = info.game_state
    if gs == GameState.NO_GAME:
        if position != Position.initial(position.variant):
            raise MatchSettingsError("before a game starts the checkers are in the starting position")
        if info.dice == (0, 0):
            return base
        # The opening roll, as GNU Backgammon writes it: its winner is to play these dice.
        if info.turn != info.player_on_roll:
            raise MatchSettingsError(
                f"the Match ID gives player {info.player_on_roll} the opening roll, "
                f"but says it is player {info.turn}'s turn")
        return replace(base, phase=Phase.MOVE, on_roll=info.player_on_roll, dice=info.dice)
    if gs != GameState.PLAYING:
        if length and max(info.score) >= length:
            # The last game's cube and roller are kept so that the ID reads back the same.
            return replace(base, phase=Phase.MATCH_OVER, on_roll=info.player_on_roll,
                           cube_value=info.cube_value, cube_owner=info.cube_owner)
        # Between games.  The ID does not say whether a player at match point got
        # there in this game; like GNU Backgammon's next game, the next is no Crawford game.
        return replace(base, crawford=False, crawford_done=crawford_done)
    if position.result() != 0:
        raise MatchSettingsError("the position is already won, but the Match ID says the game goes on")
    me = info.player_on_roll
    state = replace(base, position=position, on_roll=me, cube_value=info.cube_value,
                    cube_owner=info.cube_owner,
                    moves_played=0 if position == Position.initial(position.variant) else 1)
    if info.dice != (0, 0):
        if info.double_offered:
            raise MatchSettingsError("a double cannot be pending once the dice are rolled")
        state = replace(state, phase=Phase.MOVE, dice=info.dice)
        if info.resignation:
            # Only the player who rolled may resign with the dice on the board.
            state = replace(state, phase=Phase.RESIGN, resign_level=info.resignation,
                            resume_phase=Phase.MOVE)
    elif info.resignation:
        offered_by = 1 - info.turn
        state = replace(state, phase=Phase.RESIGN, resign_level=info.resignation,
                        resume_phase=Phase.ROLL if offered_by == me else Phase.TAKE)
    elif info.double_offered:
        state = replace(state, phase=Phase.TAKE)
    else:
        state = replace(state, phase=Phase.ROLL)
    expected = turn(state)
    if expected != info.turn:
        raise MatchSettingsError(
            f"the Match ID says it is player {info.turn}'s turn, but in that state player {expected} must act")
    return state
