"""Matches and money games of Plakoto, Fevga and Portes, and the Tavli match (docs/variants.md,
"Plakoto", "Fevga", "Portes and the Tavli match"): the Greek opening, no cube, gammon 2 and no
backgammon, the pinned mother, draws, the Tavli rotation and who starts each game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table.errors import IllegalActionError, MatchSettingsError
from table.match import (AcceptResignation, Double, Match, Move, NextGame, OpeningRoll, Phase, Resign,
                         Roll)
from table.match.series import TAVLI
from table.match.state import Settings, initial_state, step
from table.notation.matchid import GameState, MatchInfo, encode_match_id
from table.rules.dice import SeededDice
from table.rules.position import Position
from table.rules.variant import FEVGA, PLAKOTO, PORTES

GREEK = ("plakoto", "fevga", "portes")


def greek_setup(variant: str, mover: dict[int, int], opponent: dict[int, int], dice: tuple[int, int],
                *, pins_of_mover: tuple[int, ...] = (), length: int = 5,
                score: tuple[int, int] = (0, 0)) -> Match:
    """A game of ``variant`` where player 0 is to play ``dice`` in the given position
    (each side in its own numbering; ``pins_of_mover``: Plakoto points where player 0 is pinned)."""
    position = Position.from_checkers(mover, opponent, variant)
    position_id = position.id + (f":{','.join(map(str, pins_of_mover))}:" if pins_of_mover else "")
    info = MatchInfo(player_on_roll=0, game_state=GameState.PLAYING, turn=0, dice=dice,
                     match_length=length, score=score)
    return Match.from_ids(position_id, encode_match_id(info), cube=False, variant=variant)


def resign_game(m: Match, level: int = 1) -> None:
    """The player to act resigns at ``level`` and the other accepts."""
    m.apply(Resign(level))
    m.apply(AcceptResignation())


@pytest.mark.parametrize("variant", GREEK)
def test_the_greek_opening_the_higher_die_starts_and_rolls_both_dice_afresh(variant):
    m = Match(length=3, cube=False, variant=variant, seed=1)
    assert m.apply(OpeningRoll((2, 5))) == OpeningRoll((2, 5))
    assert (m.phase, m.turn, m.dice) == (Phase.ROLL, 1, None)
    assert m.legal_kinds() == {"roll", "resign"}
    m.apply(Roll((4, 4)))  # a double may start the game
    assert (m.phase, m.dice, m.turn) == (Phase.MOVE, (4, 4), 1)
    first = Match(length=3, cube=False, variant=variant, seed=1)
    first.apply(OpeningRoll((6, 1)))
    assert (first.turn, first.phase) == (0, Phase.ROLL)
    with pytest.raises(IllegalActionError, match="two different dice"):
        Match(length=3, cube=False, variant=variant).apply(OpeningRoll((3, 3)))


def test_standard_play_still_plays_the_opening_dice():
    m = Match(length=3, seed=1)
    m.apply(OpeningRoll((2, 5)))
    assert (m.phase, m.turn, m.dice) == (Phase.MOVE, 1, (5, 2))


@pytest.mark.parametrize("variant", (*GREEK, "tavli"))
def test_no_cube_a_cube_is_refused_and_a_double_changes_nothing(variant):
    with pytest.raises(MatchSettingsError, match="without the doubling cube"):
        Match(length=5, variant=variant)
    m = Match(length=5, cube=False, variant=variant, seed=3)
    m.apply(OpeningRoll((5, 3)))
    before = m.state
    assert Double() not in m.legal_actions() and not m.may_double()
    with pytest.raises(IllegalActionError, match="without the doubling cube"):
        m.apply(Double())
    assert m.state is before and m.actions == (OpeningRoll((5, 3)),)


@pytest.mark.parametrize("variant", GREEK)
def test_a_money_game_of_each_greek_game(variant):
    m = Match(length=0, cube=False, variant=variant, seed=4)
    assert not m.jacoby
    m.apply(OpeningRoll((3, 1)))
    resign_game(m, 2)
    assert m.phase == Phase.GAME_OVER and m.score == (0, 2) and not m.is_over
    m.apply(NextGame())
    assert m.phase == Phase.OPENING and m.variant.name == variant  # a new opening roll each game


def test_portes_scores_a_backgammon_as_a_gammon():
    # The opponent still has a checker in the mover's home board (the opponent's 20 is the mover's 5).
    portes = greek_setup("portes", {1: 1}, {20: 1, 6: 14}, (2, 1))
    standard_position = Position.from_checkers({1: 1}, {20: 1, 6: 14})
    assert standard_position.legal_plays((2, 1))[0].position.result() == -3  # a backgammon by the board
    portes.apply(Move("1/off"))
    result = portes.game_result
    assert result is not None and (result.winner, result.points, result.level) == (0, 2, 2)
    assert portes.score == (2, 0)


@pytest.mark.parametrize("variant", ("plakoto", "fevga"))
def test_a_single_game_scores_one_and_a_gammon_two(variant):
    single = greek_setup(variant, {1: 1}, {6: 3}, (2, 1))
    single.apply(Move("1/off"))
    assert single.game_result is not None and single.game_result.points == 1
    gammon = greek_setup(variant, {1: 1}, {12: 15}, (2, 1))
    gammon.apply(Move("1/off"))
    assert gammon.game_result is not None
    assert (gammon.game_result.points, gammon.game_result.level, gammon.game_result.how) == (2, 2, "checkers")


@pytest.mark.parametrize("variant", GREEK)
def test_a_backgammon_resignation_is_refused_a_gammon_resignation_scores_two(variant):
    m = Match(length=5, cube=False, variant=variant, seed=2)
    m.apply(OpeningRoll((6, 2)))
    before = m.state
    assert Resign(3) not in m.legal_actions() and Resign(2) in m.legal_actions()
    with pytest.raises(IllegalActionError, match="no backgammon"):
        m.apply(Resign(3))
    assert m.state is before
    resign_game(m, 2)
    assert m.game_result is not None and (m.game_result.winner, m.game_result.points) == (1, 2)


def test_pinning_the_mother_wins_two_points_with_checkers_still_on_the_board():
    # The opponent's last checker on its 24-point is the mover's 1-point; the mover has left its own 24.
    m = greek_setup("plakoto", {3: 1, 6: 14}, {24: 1, 10: 14}, (2, 1))
    m.apply(Move("6/5 3/1*"))
    result = m.game_result
    assert result is not None and (result.winner, result.points, result.how) == (0, 2, "mother")
    assert m.score == (2, 0) and m.position.borne_off() == (0, 0)


def test_the_mother_exception_play_goes_on_while_the_pinner_still_has_checkers_at_home():
    m = greek_setup("plakoto", {3: 1, 6: 13, 24: 1}, {24: 1, 10: 14}, (2, 1))
    m.apply(Move("6/5 3/1*"))
    assert m.game_result is None and (m.phase, m.turn) == (Phase.ROLL, 1)
    leaving = greek_setup("plakoto", {3: 1, 6: 13, 24: 1}, {24: 1, 10: 14}, (2, 1))
    leaving.apply(Move("24/23 3/1*"))  # the pinner's own 24-point is cleared as it pins
    assert leaving.game_result is not None and leaving.game_result.how == "mother"


def draw_position() -> Position:
    """The mover's mother is pinned on its 24-point; its checker on 3 can pin the opponent's."""
    base = Position.from_checkers({3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, "plakoto")
    return Position.from_id(base.id + ":24:", "plakoto")


def test_both_mothers_pinned_is_a_draw_that_scores_nothing():
    m = greek_setup("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pins_of_mover=(24,),
                    score=(1, 3))
    assert m.position == draw_position()
    m.apply(Move("6/5 3/1*"))
    result = m.game_result
    assert result is not None and result.is_draw and (result.points, result.level) == (0, 0)
    assert "draw" in result.describe()
    assert m.score == (1, 3) and m.phase == Phase.GAME_OVER and not m.is_over
    assert m.legal_actions() == [NextGame()]
    m.apply(NextGame())
    assert (m.phase, m.game_number, m.variant.name) == (Phase.OPENING, 2, "plakoto")


def test_a_move_that_moves_a_pinned_checker_is_refused_and_changes_nothing():
    m = greek_setup("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pins_of_mover=(24,))
    before = m.state
    with pytest.raises(IllegalActionError, match="pinned and cannot move"):
        m.apply(Move("24/21"))
    assert m.state is before and m.actions == ()


# The Tavli match --------------------------------------------------------------------------


def test_tavli_is_played_to_three_five_or_seven_points():
    for length in (3, 5, 7):
        m = Match(length=length, cube=False, variant="tavli")
        assert (m.variant, m.series, m.kind, m.length) == (PORTES, TAVLI, "tavli", length)
    for length in (0, 1, 4, 9):
        with pytest.raises(MatchSettingsError, match="Tavli match is played to 3, 5 or 7 points"):
            Match(length=length, cube=False, variant="tavli")


def test_tavli_rotates_portes_plakoto_fevga_and_the_winner_starts_the_next_game():
    m = Match(length=7, cube=False, variant="tavli", seed=5)
    m.apply(OpeningRoll((1, 4)))  # player 1 starts game 1
    seen = []
    winners = [0, 1, 1, 0]
    for number, winner in enumerate(winners, 1):
        seen.append((m.game_number, m.variant.name, m.position == Position.initial(m.variant)))
        while m.turn != 1 - winner:  # the loser resigns at its turn
            m.apply(Roll((6, 5)) if m.phase == Phase.ROLL else m.legal_actions()[0])
        resign_game(m, 1)
        assert m.game_result is not None and m.game_result.winner == winner
        m.apply(NextGame())
        # No opening roll: the winner of the game is to roll the next one.
        assert (m.phase, m.turn, m.dice) == (Phase.ROLL, winner, None), number
        assert not m.crawford
    assert seen == [(1, "portes", True), (2, "plakoto", True), (3, "fevga", True), (4, "portes", True)]
    assert m.variant is PLAKOTO and m.game_number == 5 and m.score == (2, 2)
    assert sum(1 for a in m.actions if isinstance(a, OpeningRoll)) == 1


def test_tavli_ends_when_a_player_reaches_the_length():
    m = Match(length=3, cube=False, variant="tavli", seed=6)
    m.apply(OpeningRoll((5, 2)))
    resign_game(m, 2)  # player 0 gives up a gammon of Portes
    m.apply(NextGame())
    assert (m.variant, m.turn) == (PLAKOTO, 1)
    m.apply(Roll((6, 5)))
    m.apply(m.legal_actions()[0])  # player 1 plays; player 0 resigns a single game
    resign_game(m, 1)
    assert m.is_over and m.winner == 1 and m.score == (0, 3)
    assert m.legal_actions() == []


def test_a_drawn_plakoto_game_in_tavli_scores_nothing_and_fevga_follows_with_an_opening_roll():
    settings = Settings(length=5, cube=False, jacoby=False, variant=PORTES, series=TAVLI)
    state = replace(initial_state(settings, (2, 1)), game_number=2, position=draw_position(),
                    phase=Phase.MOVE, on_roll=1, dice=(2, 1), moves_played=9)
    dice = SeededDice(1)
    state, _ = step(state, Move("6/5 3/1*"), dice)
    assert state.result is not None and state.result.is_draw
    assert state.score == (2, 1) and state.phase == Phase.GAME_OVER
    state, _ = step(state, NextGame(), dice)
    assert (state.game_number, state.position.variant, state.phase) == (3, FEVGA, Phase.OPENING)
    assert state.position == Position.initial("fevga")


def test_a_tavli_match_cannot_be_set_up_from_ids():
    with pytest.raises(MatchSettingsError, match="Tavli match starts from"):
        Match.from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA", cube=False, variant="tavli")


def test_a_draw_in_money_play_scores_nothing_and_the_next_game_opens_with_the_dice():
    m = greek_setup("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pins_of_mover=(24,),
                    length=0)
    m.apply(Move("6/5 3/1*"))
    assert m.game_result is not None and m.game_result.is_draw and m.score == (0, 0)
    m.apply(NextGame())
    assert m.phase == Phase.OPENING and m.legal_actions() == [OpeningRoll()]


@pytest.mark.parametrize("variant", (*GREEK, "tavli"))
def test_without_a_cube_there_is_no_crawford_game(variant):
    m = Match(length=3, cube=False, variant=variant, seed=8)
    m.apply(OpeningRoll((6, 1)))
    resign_game(m, 2)  # player 1 reaches 2 of 3: the Crawford game would come next
    m.apply(NextGame())
    assert m.score == (0, 2) and not m.crawford
    control = Match(length=3, cube=True, seed=8)
    control.apply(OpeningRoll((6, 1)))
    control.apply(Resign(2))
    control.apply(AcceptResignation())
    control.apply(NextGame())
    assert control.crawford
