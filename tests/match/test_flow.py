"""Turn flow: the opening roll, rolling, moving, whose decision it is, refusals that change nothing."""

from __future__ import annotations

import pytest

from table.errors import IllegalActionError, MatchSettingsError
from table.match import Match, Move, NextGame, OpeningRoll, Phase, Resign, Roll
from table.rules.position import Position

from tests.match.helpers import ScriptedDice, resign_game, setup


def test_opening_roll_rerolls_ties_and_the_higher_die_plays_both() -> None:
    dice = ScriptedDice([3, 3, 5, 2])
    m = Match(length=3, dice=dice)
    assert m.phase == Phase.OPENING and m.turn is None
    assert m.legal_actions() == [OpeningRoll()]
    logged = m.apply(OpeningRoll())
    assert logged == OpeningRoll((5, 2)) and dice.rolled == 4
    assert (m.turn, m.dice, m.phase) == (0, (5, 2), Phase.MOVE)


def test_opening_roll_won_by_player_one() -> None:
    m = Match(length=3, dice=ScriptedDice([2, 6]))
    m.apply(OpeningRoll())
    assert (m.turn, m.dice) == (1, (6, 2))
    with pytest.raises(IllegalActionError, match="different"):
        Match(length=3).apply(OpeningRoll((4, 4)))


def test_dice_are_drawn_only_when_the_roll_is_made() -> None:
    dice = ScriptedDice([6, 5, 4, 2])
    m = Match(length=3, dice=dice)
    m.apply(OpeningRoll())
    m.apply(Move("24/13"))
    for _ in range(3):
        assert Roll() in m.legal_actions()
    assert dice.rolled == 2
    assert m.apply(Roll()) == Roll((4, 2)) and dice.rolled == 4


def test_legal_actions_hold_one_move_per_legal_play() -> None:
    m = Match(length=3, seed=5)
    m.apply(OpeningRoll((3, 1)))
    actions = m.legal_actions()
    moves = [a for a in actions if isinstance(a, Move)]
    expected = {str(p) for p in Position.initial().legal_plays((3, 1))}
    assert len(moves) == 16 == len(expected)
    assert {a.play for a in moves} == expected
    # The plays come first; the player who has rolled may also resign instead.
    assert actions[16:] == [Resign(1), Resign(2), Resign(3)]


def test_moves_in_any_standard_notation_are_logged_canonically() -> None:
    m = Match(length=3, seed=5)
    m.apply(OpeningRoll((3, 1)))
    assert m.apply(Move("6/5 8/5")) == Move("8/5 6/5")
    assert m.turn == 1 and m.phase == Phase.ROLL
    assert m.position_for(0) == Position.initial().parse_play("8/5 6/5", (3, 1)).position.swapped()


def test_illegal_move_changes_nothing() -> None:
    m = Match(length=3, seed=5)
    m.apply(OpeningRoll((3, 1)))
    before = (m.state, m.actions)
    for bad in ("24/19", "8/5", "bogus", ""):
        with pytest.raises(IllegalActionError):
            m.apply(Move(bad))
    assert (m.state, m.actions) == before


def test_a_roll_that_cannot_be_played_is_an_empty_move() -> None:
    # On the bar against a closed board.
    m = setup({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    m.apply(Roll((6, 6)))
    assert m.legal_actions() == [Move(""), Resign(1), Resign(2), Resign(3)]
    with pytest.raises(IllegalActionError):
        m.apply(Move("13/7"))
    m.apply(Move(""))
    assert m.turn == 1 and m.phase == Phase.ROLL


def test_whose_decision_it_is_through_a_game() -> None:
    m = Match(length=3, seed=2)
    seen = set()
    resign_game(m, loser=1)
    for state, _action in m.history:
        seen.add(state.phase)
    assert {Phase.OPENING, Phase.MOVE, Phase.ROLL, Phase.RESIGN} <= seen
    assert m.phase == Phase.GAME_OVER and m.turn is None
    assert m.legal_actions() == [NextGame()]
    m.apply(NextGame())
    assert m.game_number == 2 and m.phase == Phase.OPENING
    assert m.position == Position.initial() and m.cube_value == 1


def test_position_is_seen_from_the_player_on_roll() -> None:
    m = setup({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, on_roll=1)
    assert m.position == m.position_for(1) == m.position_for(0).swapped()


@pytest.mark.parametrize("kwargs", [
    {"length": 65}, {"length": -1}, {"length": 5, "jacoby": True},
    {"players": ("only one",)}, {"players": ("A", "")}, {"players": ("A:B", "C")},
])
def test_bad_settings_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(MatchSettingsError):
        Match(**kwargs)  # type: ignore[arg-type]
