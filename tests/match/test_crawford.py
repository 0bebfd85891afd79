"""The Crawford rule: no doubling in the first game after a player reaches N-1, doubling again after."""

from __future__ import annotations

import pytest

from table.errors import IllegalActionError
from table.match import Double, Match, NextGame, Phase
from table.notation.matchid import decode_match_id

from tests.match.helpers import LAST_CHECKER, SINGLE_LOSER, bear_off_last, opening_for, resign_game, setup


def _reach_four_nil() -> Match:
    """A 5-point match at 3-0 where player 0 wins a single game: 4-0."""
    m = setup(LAST_CHECKER, SINGLE_LOSER, score=(3, 0))
    bear_off_last(m)
    assert m.score == (4, 0) and m.phase == Phase.GAME_OVER
    m.apply(NextGame())
    return m


def test_game_after_reaching_match_point_is_crawford_and_has_no_doubling() -> None:
    m = _reach_four_nil()
    assert m.crawford
    opening_for(m, 0)
    assert m.phase == Phase.ROLL and m.turn == 1
    assert "Crawford" in (m.why_no_double() or "")
    assert Double() not in m.legal_actions()
    with pytest.raises(IllegalActionError, match="Crawford"):
        m.apply(Double())
    assert decode_match_id(m.match_id).crawford


def test_post_crawford_the_trailer_may_double_and_the_leader_may_not() -> None:
    m = _reach_four_nil()
    resign_game(m, loser=0)
    assert m.score == (4, 1)
    m.apply(NextGame())
    assert not m.crawford
    opening_for(m, 0)
    assert m.turn == 1 and m.may_double()
    m.apply(m.legal_actions()[0])  # roll
    m.apply(m.legal_actions()[0])  # move
    assert m.turn == 0 and not m.may_double()


def test_crawford_game_is_played_only_once() -> None:
    m = _reach_four_nil()
    resign_game(m, loser=0)  # Crawford game: 4-1
    m.apply(NextGame())
    resign_game(m, loser=0, level=3)  # 4-4: the trailer reaches 4 too
    assert m.score == (4, 4)
    m.apply(NextGame())
    assert not m.crawford
    opening_for(m, 1)
    # Both need one point: nobody may double.
    assert m.turn == 0 and not m.may_double()


def test_reaching_match_point_by_a_gammon_also_brings_crawford() -> None:
    m = setup(LAST_CHECKER, {6: 15}, score=(2, 0))
    bear_off_last(m)
    assert m.score == (4, 0)
    m.apply(NextGame())
    assert m.crawford


def test_no_crawford_when_nobody_is_at_match_point() -> None:
    m = setup(LAST_CHECKER, SINGLE_LOSER, score=(1, 0))
    bear_off_last(m)
    m.apply(NextGame())
    assert m.score == (2, 0) and not m.crawford


def test_no_crawford_in_money_play() -> None:
    m = setup(LAST_CHECKER, SINGLE_LOSER, length=0, score=(4, 0))
    bear_off_last(m)
    m.apply(NextGame())
    assert not m.crawford


def test_crawford_game_from_match_id() -> None:
    m = setup({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, score=(4, 2), crawford=True)
    assert m.crawford and not m.may_double()
