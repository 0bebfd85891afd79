"""Scoring in the reserve variants (docs/variants.md): Acey-Deucey's loser pays per checker not
borne off, in money play and matches; Race has no cube and counts a waiting checker as on the bar
for the backgammon; Dutch plays the cube and gammons as standard backgammon."""

from __future__ import annotations

import pytest

from table.errors import IllegalActionError, MatchSettingsError
from table.match import AcceptResignation, Match, Move, Phase, Resign
from table.match.actions import Double, NextGame, Roll, Take
from table.match.state import GameResult
from table.rules.dice import SeededDice

from tests.match.helpers import reserve_setup

AD = "acey-deucey"


@pytest.mark.parametrize("opponent, pays", [
    ({5: 3, 26: 2}, 5),     # three on the board, two still waiting, ten borne off
    ({5: 1}, 1),            # one left: the least a game is worth
    ({25: 1, 20: 4}, 5),    # a checker on the bar counts too
    ({26: 15}, 15),         # none entered: the most
    ({6: 15}, 15),          # all home but none off: no gammon on top, one point a checker
])
def test_the_acey_deucey_loser_pays_one_point_per_checker_not_borne_off(opponent, pays):
    m = reserve_setup(AD, {1: 1}, opponent, (6, 5), dice_source=SeededDice(1))
    m.apply(Move("1/off"))
    assert m.game_result == GameResult(winner=0, points=pays, level=1, cube=1, how="checkers",
                                       checkers=pays)
    assert m.score == (pays, 0)
    assert m.game_result.describe() == f"{pays} checker{'s' if pays > 1 else ''} not borne off ({pays} point{'s' if pays > 1 else ''})"


def test_an_acey_deucey_game_ends_in_the_middle_of_the_staged_turn():
    # The last checker goes off with the 2 of a 1-2: no double is named.
    m = reserve_setup(AD, {2: 1}, {20: 3}, (2, 1), dice_source=SeededDice(1))
    assert [a.play for a in m.legal_actions() if isinstance(a, Move)] == ["2/off"]
    m.apply(Move("2/off"))
    assert m.phase == Phase.GAME_OVER and m.game_result.points == 3


def test_in_an_acey_deucey_match_the_winner_scores_the_count_and_may_end_it_at_once():
    m = reserve_setup(AD, {1: 1}, {5: 3, 26: 4}, (6, 5), length=5, dice_source=SeededDice(1))
    m.apply(Move("1/off"))
    assert m.is_over and m.score == (7, 0) and m.winner == 0


def test_a_short_acey_deucey_match_goes_on_below_its_length():
    m = reserve_setup(AD, {1: 1}, {5: 2}, (6, 5), length=3, dice_source=SeededDice(1))
    m.apply(Move("1/off"))
    assert m.phase == Phase.GAME_OVER and m.score == (2, 0)
    m.apply(NextGame())
    assert m.phase == Phase.OPENING and m.position == Match(variant=AD, cube=False).position


def test_an_acey_deucey_resignation_gives_up_the_checkers_left_now():
    m = reserve_setup(AD, {6: 4, 26: 3}, {1: 2}, None, dice_source=SeededDice(1))
    assert [a for a in m.legal_actions() if isinstance(a, Resign)] == [Resign(1)]
    with pytest.raises(IllegalActionError, match="Acey-Deucey has no gammons"):
        m.apply(Resign(3))
    m.apply(Resign(1))
    m.apply(AcceptResignation())
    assert m.game_result == GameResult(winner=1, points=7, level=1, cube=1, how="resign", checkers=7)


def test_acey_deucey_and_race_are_played_without_the_cube_and_without_jacoby():
    for variant in ("race", AD):
        with pytest.raises(MatchSettingsError, match="without the doubling cube"):
            Match(variant=variant)
        with pytest.raises(MatchSettingsError, match="Jacoby"):
            Match(variant=variant, cube=False, jacoby=True)
        m = Match(variant=variant, cube=False)
        assert not m.jacoby and not m.cube_enabled


@pytest.mark.parametrize("loser, level", [
    ({6: 14}, 1),           # one borne off: a single game
    ({6: 15}, 2),           # none off, all home: a gammon
    ({6: 14, 26: 1}, 3),    # none off and one still waiting: counted as on the bar, a backgammon
    ({6: 14, 20: 1}, 3),    # none off and one in the winner's home board: a backgammon
])
def test_race_scores_single_gammon_backgammon_with_waiting_checkers_as_on_the_bar(loser, level):
    m = reserve_setup("race", {1: 1}, loser, (3, 2), dice_source=SeededDice(1))
    assert not m.cube_enabled and "double" not in m.legal_kinds()
    m.apply(Move("1/off"))
    assert (m.game_result.level, m.game_result.points, m.game_result.checkers) == (level, level, 0)


def test_dutch_plays_the_cube_and_a_gammon_counts_twice_its_value():
    m = reserve_setup("dutch", {1: 1, 2: 1}, {6: 15}, None, dice_source=SeededDice(3))
    assert m.cube_enabled
    m2 = reserve_setup("dutch", {1: 1}, {6: 15}, None, cube=2, owner=1, dice_source=SeededDice(3))
    m2.apply(Roll((4, 3)))
    m2.apply(Move("1/off"))
    assert (m2.game_result.level, m2.game_result.points) == (2, 4)
    # The player on roll doubles; the opponent takes: the cube is played in Dutch.
    m.apply(Double())
    m.apply(Take())
    assert m.cube_value == 2 and m.cube_owner == 1
