"""Shared set-ups for the match tests: positions from IDs, scripted dice, quick game endings."""

from __future__ import annotations

import random
from typing import Iterable, Mapping

from table.match import AcceptResignation, Match, Move, OpeningRoll, Phase, Resign, Roll
from table.match.actions import Action, Double, Drop, NextGame, Take
from table.notation.matchid import GameState, MatchInfo, encode_match_id
from table.rules.position import Position


class ScriptedDice:
    """Dice that come from a list, counting how many were rolled."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.rolled = 0

    def roll_die(self) -> int:
        self.rolled += 1
        return self.values.pop(0)


def setup(
    mover: Mapping[int, int],
    opponent: Mapping[int, int],
    *,
    length: int = 5,
    score: tuple[int, int] = (0, 0),
    cube: int = 1,
    owner: int | None = None,
    on_roll: int = 0,
    crawford: bool = False,
    cube_enabled: bool = True,
    jacoby: bool | None = None,
    double_offered: bool = False,
) -> Match:
    """A match whose player ``on_roll`` is to roll in the given position (their own numbering)."""
    position = Position.from_checkers(mover, opponent)
    info = MatchInfo(cube_value=cube, cube_owner=owner, player_on_roll=on_roll, crawford=crawford,
                     game_state=GameState.PLAYING,
                     turn=1 - on_roll if double_offered else on_roll,
                     double_offered=double_offered, match_length=length, score=score)
    return Match.from_ids(position.id, encode_match_id(info), cube=cube_enabled, jacoby=jacoby)


def reserve_setup(variant: str, mover: Mapping[int, int], opponent: Mapping[int, int],
                  dice: tuple[int, int] | None, *, length: int = 0, cube: int = 1,
                  owner: int | None = None, dice_source: object = None) -> Match:
    """A game of a reserve variant (26: the waiting checkers) where player 0 is to play
    ``dice`` (to roll when ``None``) in the given position."""
    position = Position.from_checkers(mover, opponent, variant)
    info = MatchInfo(cube_value=cube, cube_owner=owner, player_on_roll=0,
                     game_state=GameState.PLAYING, turn=0, dice=dice or (0, 0), match_length=length)
    return Match.from_ids(position.id, encode_match_id(info), cube=position.variant.cube,
                          variant=variant, dice=dice_source)  # type: ignore[arg-type]


# A player with one checker left on their 1 point: any roll bears it off.
LAST_CHECKER = {1: 1}
# The opponent has borne off some checkers: a single game.
SINGLE_LOSER = {6: 3}
# The opponent has borne off none, all in their home board: a gammon.
GAMMON_LOSER = {6: 15}
# The opponent has a checker in the winner's home board: a backgammon.
BACKGAMMON_LOSER = {6: 14, 23: 1}


def bear_off_last(m: Match) -> None:
    """The player on roll (to roll) bears off their last checker from the 1 point."""
    m.apply(Roll((2, 1)))
    m.apply(Move("1/off"))


def first_move(m: Match) -> None:
    """Play the first legal play of the current roll."""
    m.apply(m.legal_actions()[0])


def opening_for(m: Match, starter: int) -> None:
    """Opening roll won by ``starter``, who plays the first legal play."""
    m.apply(OpeningRoll((6, 5) if starter == 0 else (5, 6)))
    first_move(m)


def resign_game(m: Match, loser: int, level: int = 1) -> None:
    """From the opening roll, ``loser`` resigns at their first decision and it is accepted."""
    if m.phase == Phase.OPENING:
        opening_for(m, 1 - loser)
    while not (m.turn == loser and m.phase == Phase.ROLL):
        if m.phase == Phase.ROLL:
            m.apply(Roll((3, 1)))
        first_move(m)
    m.apply(Resign(level))
    m.apply(AcceptResignation())


def random_player(rng: random.Random, cube_rate: float = 0.05, resign_rate: float = 0.01):  # type: ignore[no-untyped-def]
    """A chooser that mostly plays on, sometimes doubles, rarely resigns."""

    def choose(actions: list[Action]) -> Action:
        resigns = [a for a in actions if isinstance(a, Resign)]
        cube = [a for a in actions if isinstance(a, (Double, Drop))]
        plain = [a for a in actions if not isinstance(a, (Resign, Double, Drop))]
        r = rng.random()
        if resigns and r < resign_rate:
            return rng.choice(resigns)
        if cube and r < cube_rate + resign_rate:
            return rng.choice(cube)
        return rng.choice(plain or actions)

    return choose


__all__ = ["ScriptedDice", "setup", "Take", "NextGame", "Double", "Drop"]
