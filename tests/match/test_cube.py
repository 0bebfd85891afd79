"""Every doubling-cube rule of issue 3, one test each."""

from __future__ import annotations

import pytest

from table.errors import IllegalActionError
from table.match import Double, Drop, Match, Move, OpeningRoll, Phase, Roll, Take

from tests.match.helpers import ScriptedDice, setup

# A position after one move each: no game-over in sight.
MID = ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2})


def test_cube_starts_centred_at_one() -> None:
    m = Match(length=5, seed=1)
    assert (m.cube_value, m.cube_owner) == (1, None)


def test_no_double_before_the_first_move_of_the_game() -> None:
    m = Match(length=5, seed=1)
    m.apply(OpeningRoll((6, 5)))
    assert Double() not in m.legal_actions()
    with pytest.raises(IllegalActionError):
        m.apply(Double())
    # Set up at the starting position, before any move: still no double.
    from table.notation.matchid import MatchInfo, encode_match_id

    start = Match.from_ids("4HPwATDgc/ABMA", encode_match_id(MatchInfo(match_length=5)))
    assert start.phase == Phase.ROLL
    assert "first move" in (start.why_no_double() or "")
    with pytest.raises(IllegalActionError, match="first move"):
        start.apply(Double())


def test_double_allowed_for_the_second_player_after_the_opening_move() -> None:
    m = Match(length=5, seed=1)
    m.apply(OpeningRoll((6, 5)))
    m.apply(Move("24/13"))
    assert m.turn == 1 and m.phase == Phase.ROLL
    assert m.may_double() and Double() in m.legal_actions()


def test_double_only_before_rolling() -> None:
    m = setup(*MID)
    m.apply(Roll((3, 1)))
    assert m.phase == Phase.MOVE
    assert not any(isinstance(a, Double) for a in m.legal_actions())
    with pytest.raises(IllegalActionError, match="before rolling"):
        m.apply(Double())


def test_take_gives_the_taker_the_cube_at_twice_the_value() -> None:
    m = setup(*MID, on_roll=0)
    m.apply(Double())
    assert m.phase == Phase.TAKE and m.turn == 1
    assert m.legal_actions()[:2] == [Take(), Drop()]
    m.apply(Take())
    assert (m.cube_value, m.cube_owner) == (2, 1)
    # The doubler goes on to roll.
    assert m.phase == Phase.ROLL and m.turn == 0


def test_only_the_owner_may_redouble() -> None:
    m = setup(*MID, cube=2, owner=1, on_roll=0)
    assert not m.may_double()
    assert "owns the cube" in (m.why_no_double() or "")
    with pytest.raises(IllegalActionError, match="only the owner"):
        m.apply(Double())
    owner = setup(*MID, cube=2, owner=0, on_roll=0)
    owner.apply(Double())
    owner.apply(Take())
    assert (owner.cube_value, owner.cube_owner) == (4, 1)


def test_drop_loses_the_value_before_the_double() -> None:
    m = setup(*MID, cube=4, owner=0, on_roll=0, length=0)
    m.apply(Double())
    m.apply(Drop())
    assert m.game_result is not None
    assert (m.game_result.winner, m.game_result.points, m.game_result.how) == (0, 4, "drop")
    assert m.score == (4, 0)


def test_cube_tops_out_at_64() -> None:
    top = setup(*MID, cube=64, owner=0, length=0)
    assert "64" in (top.why_no_double() or "")
    with pytest.raises(IllegalActionError):
        top.apply(Double())
    below = setup(*MID, cube=32, owner=0, length=0)
    below.apply(Double())
    below.apply(Take())
    assert below.cube_value == 64


def test_player_needing_one_point_may_not_double() -> None:
    # Post-Crawford at 4-2 in a match to 5: the leader may not double, the trailer may.
    leader = setup(*MID, score=(4, 2), on_roll=0)
    assert not leader.may_double()
    assert "one point" in (leader.why_no_double() or "")
    trailer = setup(*MID, score=(2, 4), on_roll=0)
    assert trailer.may_double()


def test_no_double_once_the_cube_already_wins_the_match_for_its_owner() -> None:
    # 2-0 to 5: owning the cube at 4 already wins the match; at 2 it does not.
    dead = setup(*MID, score=(2, 0), cube=4, owner=0)
    assert "already wins" in (dead.why_no_double() or "")
    with pytest.raises(IllegalActionError):
        dead.apply(Double())
    live = setup(*MID, score=(2, 0), cube=2, owner=0)
    assert live.may_double()


def test_no_cube_means_no_doubles() -> None:
    m = Match(length=5, cube=False, seed=3)
    m.apply(OpeningRoll((6, 5)))
    m.apply(Move("24/13"))
    assert not m.may_double() and Double() not in m.legal_actions()
    assert "without the doubling cube" in (m.why_no_double() or "")


def test_a_refused_double_changes_nothing_and_rolls_no_dice() -> None:
    dice = ScriptedDice([4, 2])
    m = Match(length=5, dice=dice)
    before = (m.state, m.actions)
    with pytest.raises(IllegalActionError):
        m.apply(Double())
    with pytest.raises(IllegalActionError):
        m.apply(Roll())
    assert (m.state, m.actions) == before and dice.rolled == 0
