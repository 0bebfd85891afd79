"""Fevga's rules (docs/variants.md, "Fevga"), each on a position made by hand.

Both sides are written in their own numbering; the opponent's point q is the mover's
point q + 12 (q <= 12) or q - 12: each side's 24-point is the other's 12-point.
"""

from __future__ import annotations

import pickle

import pytest

from table import Position
from table.errors import IllegalPlayError, PositionError, PositionIdError
from table.rules.variant import ENGINE_ONLY, VARIANTS, find_variant

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def fevga(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position.from_checkers(mover, opponent, "fevga")


def results(p: Position, roll: tuple[int, int]) -> set[str]:
    return {str(play) for play in p.legal_plays(roll)}


def test_engine_only_and_the_start_where_both_sides_go_the_same_way():
    assert "fevga" in ENGINE_ONLY and "fevga" not in VARIANTS
    v = find_variant("fevga")
    assert (v.direction, v.hitting, v.cube, v.scoring, v.rules.block) == ("same", False, False, (1, 2, 2), 1)
    p = Position.initial("fevga")
    assert p.board[24] == 15 and p.board[12] == -15  # the opponent's 24-point is the mover's 12
    assert p.swapped() == p and p.pip_counts() == (360, 360) and p.borne_off() == (0, 0)
    assert Position.from_id(p.id, "fevga") == p


def test_one_checker_holds_a_point():
    p = fevga({24: 14, 13: 1}, {24: 14, 16: 1})  # the opponent's 16 is the mover's 4
    for roll in ROLLS:
        assert all(dst != 4 and dst != 12 for play in p.legal_plays(roll) for _, dst in play.steps)
    with pytest.raises(IllegalPlayError, match="point 4 is closed"):
        p.parse_play("13/4", "63")


def test_the_first_checker_must_pass_the_opponents_start_before_a_second_leaves():
    p = fevga({24: 14, 20: 1}, {24: 15})
    assert results(p, (2, 1)) == {"20/17"}
    with pytest.raises(IllegalPlayError, match="only one checker may leave your 24-point"):
        p.parse_play("24/22 20/19", "21")
    # Once it has passed (reached the 11-point or beyond), the other die may move another.
    q = fevga({24: 14, 14: 1}, {24: 15})
    assert results(q, (4, 3)) == {"14/7", "24/21 14/10", "24/20 14/11"}


def test_a_checker_from_the_start_may_not_run_past_a_first_checker_that_has_not_passed():
    # The first checker on 16 cannot move its fives (11 is held by the opponent's 23); a checker
    # from 24 could run 24/4 with them, but not while the first one is short of the 11-point.
    p = fevga({24: 14, 16: 1}, {24: 14, 23: 1})
    assert p.legal_plays((5, 5)) == []


def test_a_side_may_never_hold_all_six_points_of_its_starting_quarter():
    # Points 19-22 and 24 are held, 23 is empty; a checker is past the opponent's start.
    p = fevga({24: 9, 22: 1, 21: 1, 20: 1, 19: 2, 5: 1}, {24: 15})
    for roll in ROLLS:
        for play in p.legal_plays(roll):
            after = play.position.swapped().board  # the mover's side again
            assert not all(after[i] > 0 for i in range(19, 25)), (roll, str(play))
    one_one = results(p, (1, 1))
    assert "24/23 5/2" not in one_one and "24/22 5/3" in one_one


def test_a_prime_that_leaves_the_opponent_no_move_is_refused_when_another_play_avoids_it():
    # Every opponent checker is on its 20-point (the mover's 8): its 19-14 are the mover's 7-2.
    p = fevga({7: 1, 6: 1, 5: 1, 4: 2, 3: 1, 10: 9}, {20: 15})
    plays = p.legal_plays((2, 1))
    assert plays and not any(all(play.position.swapped().board[i] > 0 for i in range(2, 8))
                             for play in plays)
    assert "10/9 4/2" not in {str(play) for play in plays}
    # The same prime is fine when an opponent checker stands elsewhere (it can still move).
    q = fevga({7: 1, 6: 1, 5: 1, 4: 2, 3: 1, 10: 9}, {20: 14, 1: 1})
    assert "10/9 4/2" in {str(play) for play in q.legal_plays((2, 1))}


def test_bearing_off_is_standard_and_the_game_scores_one_or_two():
    p = fevga({6: 1, 2: 2}, {1: 3})
    assert results(p, (6, 5)) == {"6/off 2/off", "6/1 2/off"}  # the 6-point is not 2's way off
    assert fevga({}, {5: 1}).result() == 1 and fevga({}, {24: 15}).result() == 2
    assert fevga({13: 15}, {}).result() == -2 and fevga({13: 1}, {}).is_game_over


def test_ids_notation_and_bad_input():
    p = fevga({24: 13, 9: 1, 5: 1}, {24: 12, 7: 2, 14: 1})
    assert p.board[12] == -12 and p.board[19] == -2 and p.board[2] == -1 and p.board[24] == 13
    assert Position.from_id(p.id, "fevga") == p and pickle.loads(pickle.dumps(p)) == p
    assert p.swapped().swapped() == p and p.swapped().checkers() == {24: 12, 7: 2, 14: 1}
    assert p.pip_counts() == (24 * 13 + 9 + 5, 24 * 12 + 14 + 14)
    with pytest.raises(PositionError, match="both sides have checkers on the mover's point 12"):
        fevga({12: 1}, {24: 1})
    with pytest.raises(PositionError, match="no bar"):
        fevga({25: 1}, {})
    with pytest.raises(PositionIdError, match="both sides have checkers on the mover's point 12"):
        Position.from_id(Position.from_checkers({12: 1}, {24: 1}).id, "fevga")
    with pytest.raises(PositionIdError, match="on the bar"):
        Position.from_id(Position.from_checkers({25: 1}, {1: 1}).id, "fevga")
    with pytest.raises(PositionIdError, match="not a Position ID"):
        Position.from_id("nonsense", "fevga")
    assert not Position.initial("fevga").is_race() and fevga({3: 15}, {10: 15}).is_race()
