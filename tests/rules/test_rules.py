"""One test (or more) per rule of the game, on hand-built positions.

Positions list only the checkers on the board; the rest are borne off.  Each
side's checkers are keyed by that side's own point numbers (25 = bar), so an
opponent checker on key k stands on the mover's point 25 - k.
"""

from __future__ import annotations

import pytest

from table import Position
from table.rules.dice import opening_roll


def plays_text(position: Position, roll: tuple[int, int]) -> set[str]:
    return {str(p) for p in position.legal_plays(roll)}


def opp_on(*mover_points: int, count: int = 2) -> dict[int, int]:
    """Opponent checkers on the given points, in the *mover's* numbering."""
    return {25 - p: count for p in mover_points}


# Rule 1: the start ------------------------------------------------------------

def test_start_has_2_5_3_5_for_each_side() -> None:
    start = Position.initial()
    expected = {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.checkers(mover=True) == expected
    assert start.checkers(mover=False) == expected
    assert start.borne_off() == (0, 0)
    assert start.pip_counts() == (167, 167)


# Rule 2: the opening roll ---------------------------------------------------

class ScriptedDice:
    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def roll_die(self) -> int:
        return self.values.pop(0)


def test_opening_roll_rerolls_ties_and_higher_die_plays_both_numbers() -> None:
    assert opening_roll(ScriptedDice([4, 4, 6, 6, 2, 5])) == (1, (5, 2))
    assert opening_roll(ScriptedDice([3, 1])) == (0, (3, 1))


# Rule 3: each die separately; doubles four times; through an open point only --

def test_one_checker_uses_both_dice_only_through_an_open_point() -> None:
    # 13/7 is closed, 13/8 open: the checker goes 13/8/2.
    p = Position.from_checkers({13: 1}, {**opp_on(7), 2: 13})
    assert plays_text(p, (6, 5)) == {"13/2"}
    # With 8 closed as well there is no way through, and neither die can move.
    p = Position.from_checkers({13: 1}, {**opp_on(7, 8), 2: 11})
    assert p.legal_plays((6, 5)) == []


def test_a_double_is_played_four_times() -> None:
    p = Position.from_checkers({13: 2}, {2: 15})
    assert plays_text(p, (2, 2)) == {"13/5", "13/7 13/11", "13/9(2)"}
    for play in p.legal_plays((2, 2)):
        assert len(play.steps) == 4


# Rule 4: closed points and hits ---------------------------------------------

def test_cannot_land_on_a_point_held_by_two_opponents() -> None:
    p = Position.from_checkers({10: 1}, {**opp_on(7), 2: 13})
    assert plays_text(p, (3, 1)) == {"10/6"}  # only by way of 9


def test_landing_on_a_blot_hits_it_to_the_bar() -> None:
    p = Position.from_checkers({10: 1}, {**opp_on(7, count=1), 2: 14})
    assert plays_text(p, (3, 1)) == {"10/7*/6", "10/6"}
    play = p.parse_play("10/7*/6", (3, 1))
    assert play.hits == (True, False)
    # The opponent is now on roll, with the hit checker on its bar.
    assert play.position.board[25] == 1
    assert play.position.checkers(mover=False) == {6: 1}


# Rule 5: the bar ------------------------------------------------------------

def test_bar_checkers_enter_on_25_minus_the_die() -> None:
    p = Position.from_checkers({25: 1, 13: 14}, {1: 15})
    assert plays_text(p, (4, 2)) == {"bar/19", "bar/21 13/11", "bar/23 13/9"}


def test_nothing_else_moves_until_all_have_entered() -> None:
    p = Position.from_checkers({25: 2, 13: 13}, {1: 15})
    assert plays_text(p, (4, 2)) == {"bar/23 bar/21"}


# The opponent's home board closed except the mover's 20 (a 5 enters).
ALMOST_CLOSED = {**opp_on(24, 23, 22, 21, 19), 13: 5}


def test_what_cannot_be_entered_is_lost() -> None:
    two_up = Position.from_checkers({25: 2, 13: 13}, ALMOST_CLOSED)
    assert two_up.legal_plays((6, 4)) == []
    # One enters with the 5; the other cannot, so the 3 is lost.
    assert plays_text(two_up, (5, 3)) == {"bar/20"}
    # With one on the bar, once it is in, the 3 may move any checker.
    one_up = Position.from_checkers({25: 1, 13: 14}, ALMOST_CLOSED)
    assert plays_text(one_up, (5, 3)) == {"bar/17", "bar/20 13/10"}


def test_a_closed_board_passes_the_turn() -> None:
    p = Position.from_checkers({25: 1, 13: 14}, {**opp_on(19, 20, 21, 22, 23, 24), 13: 3})
    for a in range(1, 7):
        for b in range(1, 7):
            assert p.legal_plays((a, b)) == []


# Rule 6: maximum use --------------------------------------------------------

def test_both_dice_must_be_played_when_possible() -> None:
    # 24/18 is closed; 24/21 alone would use one die, but 24/21/15 uses both.
    p = Position.from_checkers({24: 1}, {**opp_on(18), 2: 13})
    assert plays_text(p, (6, 3)) == {"24/15"}


def test_when_only_one_die_can_be_played_it_must_be_the_higher() -> None:
    # Either die alone is possible (24/18 or 24/21) but 15 is closed, so not both.
    p = Position.from_checkers({24: 1}, {**opp_on(15), 2: 13})
    assert plays_text(p, (6, 3)) == {"24/18"}


def test_the_lower_die_is_played_when_the_higher_cannot_be() -> None:
    p = Position.from_checkers({24: 1}, {**opp_on(18, 15), 2: 11})
    assert plays_text(p, (6, 3)) == {"24/21"}


def test_doubles_play_as_many_as_possible() -> None:
    p = Position.from_checkers({13: 1}, {**opp_on(5), 2: 13})
    assert plays_text(p, (4, 4)) == {"13/9"}


# Rule 7: bearing off --------------------------------------------------------

def test_no_bearing_off_while_a_checker_is_outside() -> None:
    p = Position.from_checkers({7: 1, 3: 14}, {1: 15})
    # 3/off only after 7/6 has brought the last checker home.
    assert plays_text(p, (3, 1)) == {"7/3", "7/4 3/2", "7/6 3/off"}


def test_bear_off_by_exact_number_or_higher_from_the_highest_point() -> None:
    p = Position.from_checkers({5: 1, 3: 1}, {1: 15})
    assert plays_text(p, (6, 5)) == {"5/off 3/off"}
    # The 4 cannot take the 3 off while 5 is occupied, unless the 6 went first.
    assert plays_text(p, (6, 4)) == {"5/off 3/off", "5/1 3/off"}


def test_moving_inside_the_home_board_instead_of_bearing_off() -> None:
    p = Position.from_checkers({6: 2}, {1: 15})
    assert plays_text(p, (2, 1)) == {"6/5 6/4", "6/3"}


def test_a_checker_hit_during_the_bear_off_must_come_home_first() -> None:
    p = Position.from_checkers({25: 1, 2: 10}, {1: 10})
    assert plays_text(p, (6, 2)) == {"bar/17"}


# Rule 8: the end of the game ----------------------------------------------------

@pytest.mark.parametrize(
    ("mover", "opponent", "expected"),
    [
        ({}, {6: 3}, 1),  # the loser has borne off some: a single game
        ({}, {6: 15}, 2),  # none off, all in its own home board: gammon
        ({}, {20: 1, 6: 14}, 3),  # one in the winner's home board: backgammon
        ({}, {25: 1, 6: 14}, 3),  # one on the bar: backgammon
        ({6: 1}, {}, -1),  # the opponent won
        ({6: 15}, {}, -2),
        ({24: 1, 6: 14}, {}, -3),
        ({25: 1, 1: 14}, {}, -3),
    ],
)
def test_game_values(mover: dict[int, int], opponent: dict[int, int], expected: int) -> None:
    p = Position.from_checkers(mover, opponent)
    assert p.result() == expected
    assert p.is_game_over
    assert p.legal_plays((3, 1)) == []


def test_a_game_in_progress_has_no_value() -> None:
    assert Position.initial().result() == 0
    assert not Position.initial().is_game_over
