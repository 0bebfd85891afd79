"""The points of every ending: single, gammon, backgammon, drop and resignation, times the cube."""

from __future__ import annotations

import pytest

from table.errors import IllegalActionError
from table.match import AcceptResignation, Double, Drop, Move, Phase, RejectResignation, Resign, Roll, Take

from tests.match.helpers import (
    BACKGAMMON_LOSER,
    GAMMON_LOSER,
    LAST_CHECKER,
    SINGLE_LOSER,
    bear_off_last,
    setup,
)

MID = ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2})


@pytest.mark.parametrize("loser, level", [
    (SINGLE_LOSER, 1),
    (GAMMON_LOSER, 2),
    (BACKGAMMON_LOSER, 3),
    ({25: 1, 6: 14}, 3),  # a checker on the bar is a backgammon too
    ({18: 1, 6: 14}, 2),  # just outside the winner's home board: only a gammon
    ({19: 1, 6: 14}, 3),  # on the winner's 6 point: a backgammon
])
@pytest.mark.parametrize("cube, owner", [(1, None), (2, 1), (4, 0), (64, 1)])
def test_checkers_endings_times_the_cube(loser: dict[int, int], level: int, cube: int,
                                         owner: int | None) -> None:
    m = setup(LAST_CHECKER, loser, length=0, jacoby=False, cube=cube, owner=owner, on_roll=1)
    bear_off_last(m)
    r = m.game_result
    assert r is not None and (r.winner, r.level, r.how) == (1, level, "checkers")
    assert r.points == level * cube
    assert m.score == (0, level * cube)


@pytest.mark.parametrize("cube, owner, expected", [(1, None, 1), (2, 0, 2), (8, 0, 8)])
def test_drop_scores_the_cube_before_the_double(cube: int, owner: int | None, expected: int) -> None:
    m = setup(*MID, length=0, cube=cube, owner=owner, on_roll=0)
    m.apply(Double())
    m.apply(Drop())
    assert m.score == (expected, 0) and m.game_result is not None
    assert m.game_result.how == "drop"


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("cube, owner", [(1, None), (4, 1)])
def test_accepted_resignation_scores_level_times_cube(level: int, cube: int, owner: int | None) -> None:
    m = setup(*MID, length=0, jacoby=False, cube=cube, owner=owner, on_roll=0)
    m.apply(Resign(level))
    assert m.phase == Phase.RESIGN and m.turn == 1 and m.resignation == level
    m.apply(AcceptResignation())
    assert m.score == (0, level * cube)
    assert m.game_result is not None and m.game_result.how == "resign"


def test_resigning_instead_of_answering_a_double_uses_the_cube_before_it() -> None:
    m = setup(*MID, length=0, jacoby=False, cube=2, owner=0, on_roll=0)
    m.apply(Double())
    m.apply(Resign(2))
    assert m.turn == 0
    m.apply(AcceptResignation())
    assert m.score == (4, 0)


def test_rejected_resignation_goes_back_to_the_same_decision_and_cannot_be_repeated() -> None:
    m = setup(*MID, on_roll=0)
    before = m.legal_actions()
    m.apply(Resign(1))
    m.apply(RejectResignation())
    assert m.phase == Phase.ROLL and m.turn == 0
    assert [a for a in m.legal_actions() if not isinstance(a, Resign)] == \
        [a for a in before if not isinstance(a, Resign)]
    with pytest.raises(IllegalActionError, match="refused"):
        m.apply(Resign(2))
    m.apply(Roll((3, 1)))
    m.apply(m.legal_actions()[0])
    m.apply(Roll((3, 1)))
    m.apply(m.legal_actions()[0])
    assert Resign(1) in m.legal_actions()  # a new turn: offers are possible again


@pytest.mark.parametrize("level", [1, 2, 3])
def test_resigning_after_rolling_scores_level_times_cube(level: int) -> None:
    m = setup(*MID, length=0, jacoby=False, cube=2, owner=0, on_roll=0)
    m.apply(Roll((6, 4)))
    m.apply(Resign(level))
    assert (m.phase, m.turn, m.resignation, m.dice) == (Phase.RESIGN, 1, level, (6, 4))
    assert m.legal_actions() == [AcceptResignation(), RejectResignation()]
    m.apply(AcceptResignation())
    assert m.score == (0, 2 * level) and m.dice is None
    r = m.game_result
    assert r is not None and (r.winner, r.level, r.how) == (1, level, "resign")


def test_rejected_resignation_after_rolling_plays_the_same_dice_and_is_not_repeated() -> None:
    m = setup(*MID, on_roll=0)
    m.apply(Roll((6, 4)))
    plays = [a for a in m.legal_actions() if isinstance(a, Move)]
    m.apply(Resign(2))
    with pytest.raises(IllegalActionError):
        m.apply(Move(plays[0].play))  # the offer waits for an answer first
    m.apply(RejectResignation())
    assert (m.phase, m.turn, m.dice) == (Phase.MOVE, 0, (6, 4))
    assert m.legal_actions() == plays  # no new offer at this decision
    before = m.state
    with pytest.raises(IllegalActionError, match="refused"):
        m.apply(Resign(1))
    assert m.state == before
    m.apply(plays[0])
    assert m.turn == 1 and Resign(1) in m.legal_actions()  # the opponent's decision: they may


def test_a_refusal_before_rolling_does_not_bar_an_offer_once_the_dice_are_known() -> None:
    m = setup(*MID, on_roll=0)
    m.apply(Resign(1))
    m.apply(RejectResignation())
    m.apply(Roll((6, 4)))
    m.apply(Resign(1))
    m.apply(AcceptResignation())
    assert m.score == (0, 1)


def test_a_refusal_binds_only_the_decision_it_was_made_at() -> None:
    # The taker's offer is refused; once they take, the doubler decides and may resign.
    m = setup(*MID, length=0, jacoby=False, on_roll=0)
    m.apply(Double())
    m.apply(Resign(1))
    m.apply(RejectResignation())
    assert Resign(1) not in m.legal_actions() and m.turn == 1
    m.apply(Take())
    assert m.turn == 0 and Resign(1) in m.legal_actions()
    # The doubler's offer before rolling is refused: their double stays theirs to make,
    # and after it the taker may offer again.
    m = setup(*MID, length=0, jacoby=False, on_roll=0)
    m.apply(Resign(1))
    m.apply(RejectResignation())
    m.apply(Double())
    assert m.turn == 1 and Resign(1) in m.legal_actions()


def test_jacoby_gammons_count_only_after_the_cube_is_turned() -> None:
    plain = setup(LAST_CHECKER, GAMMON_LOSER, length=0)  # money play: Jacoby on by default
    assert plain.jacoby
    bear_off_last(plain)
    assert plain.score == (1, 0)
    turned = setup(LAST_CHECKER, GAMMON_LOSER, length=0, cube=2, owner=1)
    bear_off_last(turned)
    assert turned.score == (4, 0)
    off = setup(LAST_CHECKER, GAMMON_LOSER, length=0, jacoby=False)
    bear_off_last(off)
    assert off.score == (2, 0)
    resigned = setup(*MID, length=0)
    resigned.apply(Resign(3))
    resigned.apply(AcceptResignation())
    assert resigned.score == (0, 1) and resigned.actions[-2] == Resign(1)
    after_rolling = setup(*MID, length=0)
    after_rolling.apply(Roll((6, 4)))
    assert [a for a in after_rolling.legal_actions() if isinstance(a, Resign)] == [Resign(1)]
    after_rolling.apply(Resign(2))
    after_rolling.apply(AcceptResignation())
    assert after_rolling.score == (0, 1) and after_rolling.actions[-2] == Resign(1)


def test_gammons_count_in_match_play() -> None:
    m = setup(LAST_CHECKER, GAMMON_LOSER, length=7, score=(1, 1), cube=2, owner=1)
    bear_off_last(m)
    assert m.score == (5, 1) and not m.is_over


def test_match_ends_when_a_player_reaches_the_length() -> None:
    m = setup(LAST_CHECKER, SINGLE_LOSER, length=5, score=(4, 3))
    bear_off_last(m)
    assert m.is_over and m.winner == 0 and m.score == (5, 3)
    assert m.phase == Phase.MATCH_OVER and m.legal_actions() == [] and m.turn is None
    with pytest.raises(IllegalActionError, match="match is over"):
        m.apply(Take())


def test_game_in_progress_has_no_winner() -> None:
    m = setup(*MID)
    assert m.winner is None and not m.is_over and m.game_result is None
