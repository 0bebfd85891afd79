"""Race (docs/variants.md): checkers wait off the board and may wait; a hit checker enters first.

Each count below is worked out by hand in the comment above it.
"""

from __future__ import annotations

import pytest

from table import Position
from table.errors import IllegalPlayError
from table.rules.variant import RACE


def results(p: Position, dice: tuple[int, int]) -> set[str]:
    return {str(q) for q in p.legal_plays(dice)}


def test_the_variant():
    p = Position.initial("race")
    assert p.variant is RACE and RACE.cube is False and RACE.scoring == (1, 2, 3)


def test_plays_from_the_start():
    p = Position.initial("race")
    # A non-double from the start: two checkers enter (in/25-a in/25-b), or one enters with
    # one die and goes on with the other (the two orders land on the same point): 2 plays.
    for a in range(2, 7):
        for b in range(1, a):
            assert len(p.legal_plays((a, b))) == 2, (a, b)
    # A double: k checkers enter (k = 1..4) and share the 4 - k moves left; checkers are
    # alike, so what counts is how 4 - k splits among k: k=1: 1, k=2: (2,0) (1,1), k=3: 1,
    # k=4: 1. Five plays for every double, nothing blocks an empty board.
    for d in range(1, 7):
        assert len(p.legal_plays((d, d))) == 5, d


def test_checkers_on_the_board_may_move_while_others_wait():
    # 14 wait, one is on our 10-point; 3-1: it may move (10/6, 10/9 10/7...), or enter.
    p = Position.from_checkers({10: 1, 26: 14}, {26: 15}, "race")
    plays = results(p, (3, 1))
    # 10/6, in/24 10/7, in/22 10/9, in/24 in/22, in/21 (in/24/21 = in/22/21): 5 plays.
    assert plays == {"10/6", "in/24 10/7", "in/22 10/9", "in/24 in/22", "in/21"}


def test_a_hit_checker_enters_before_anything_else():
    # Ours: one on the bar, one waiting, one on the 10-point; theirs: 15 on their 6-point
    # (our 19), which closes the entry with a 6. Roll 3-1, the bar checker first:
    #   3 then 1: bar/22, then in/24, 22/21 or 10/9      -> {22,24,10}, {21,10,R}, {22,9,R}
    #   1 then 3: bar/24, then in/22, 24/21 or 10/7      -> {24,22,10}=, {21,10,R}=, {24,7,R}
    # Four distinct plays, every one with a step from the bar.
    p = Position.from_checkers({25: 1, 26: 1, 10: 1}, {6: 15}, "race")
    plays = p.legal_plays((3, 1))
    assert len(plays) == 4
    assert all(any(src == 25 for src, _ in q.steps) for q in plays)
    with pytest.raises(IllegalPlayError, match="on the bar and must enter first"):
        p.parse_play("in/22 10/9", (3, 1))


def test_nothing_bears_off_while_a_checker_waits():
    # 14 on our 1-point and one waiting; 2-1: bearing off needs all 15 home, so 1/off is not
    # allowed, and a checker on the 1-point has nowhere else to go.  The waiting checker
    # enters with one die and goes on with the other (in/23/22 = in/24/22): 1 play.
    # (Were bearing off allowed, "in/23 1/off" and "in/24 1/off" would be plays too.)
    p = Position.from_checkers({1: 14, 26: 1}, {26: 15}, "race")
    assert results(p, (2, 1)) == {"in/22"}


def test_the_higher_die_when_only_one_can_be_played():
    # Theirs hold our 19..23 (five closed points) and ours are all waiting. 6-1: the 6 cannot
    # enter (19 is closed), the 1 enters on 24 and that checker goes on 6 to the open 18:
    # one play, in/18. 6-2: the 2 lands on closed 23 and the 6 on closed 19: no play.
    theirs = {2: 3, 3: 3, 4: 3, 5: 3, 6: 3}  # their points 2..6 are our 23..19
    p = Position.from_checkers({26: 15}, theirs, "race")
    assert results(p, (6, 1)) == {"in/18"}
    assert p.legal_plays((6, 2)) == []
    # Now a checker of ours on 8: with 6-2 it can play 8/2 or 8/6 but not both dice (2 then
    # 6 would be 8/6/0, bearing off with others waiting): one die only, and the higher: 8/2.
    q = Position.from_checkers({8: 1, 26: 14}, theirs, "race")
    assert results(q, (6, 2)) == {"8/2"}


def test_scoring_counts_a_waiting_checker_as_on_the_bar():
    # We have borne off all 15.  They: 14 on their 12-point and one still waiting: the waiting
    # checker counts as on the bar, so it is a backgammon; all 15 on the 12: a gammon; one
    # borne off: a single game.
    assert Position.from_checkers({}, {12: 14, 26: 1}, "race").result() == 3
    assert Position.from_checkers({}, {12: 15}, "race").result() == 2
    assert Position.from_checkers({}, {12: 14}, "race").result() == 1
    assert Position.from_checkers({1: 2}, {26: 15}, "race").result() == 0
    assert Position.from_checkers({}, {26: 15}, "race").borne_off() == (15, 0)
