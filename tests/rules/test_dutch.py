"""Dutch backgammon (docs/variants.md): all 15 enter before anything moves; hitting needs a home checker.

Each count below is worked out by hand in the comment above it.
"""

from __future__ import annotations

import pytest

from table import Position
from table.errors import IllegalPlayError
from table.rules.variant import DUTCH


def results(p: Position, dice: tuple[int, int]) -> set[str]:
    return {str(q) for q in p.legal_plays(dice)}


def test_the_variant():
    assert Position.initial("dutch").variant is DUTCH and DUTCH.cube and DUTCH.scoring == (1, 2, 3)


def test_from_the_start_every_die_enters_a_checker():
    # Nothing may move on while checkers wait, and 15 wait: each die enters one checker,
    # so every roll has exactly one play (two checkers in, or four with a double).
    p = Position.initial("dutch")
    for a in range(1, 7):
        for b in range(1, a + 1):
            plays = p.legal_plays((a, b))
            assert len(plays) == 1
            assert all(src == 26 for src, _ in plays[0].steps)
    assert results(p, (3, 3)) == {"in/22(4)"}


def test_nothing_else_moves_while_a_checker_waits():
    # Two wait, 13 on our 20-point: 6-5 enters both (in/19 in/20): 1 play, where Race has more.
    p = Position.from_checkers({20: 13, 26: 2}, {26: 15}, "dutch")
    assert results(p, (6, 5)) == {"in/20 in/19"}
    assert len(Position.from_checkers({20: 13, 26: 2}, {26: 15}, "race").legal_plays((6, 5))) > 1
    with pytest.raises(IllegalPlayError, match="waiting and must enter them all first"):
        p.parse_play("20/14 in/20", (6, 5))


def test_the_last_checker_in_frees_the_other_die():
    # One waits, 14 on our 20-point. 6-5:
    #   6 then 5: in/19, then 19/14 or 20/15        -> {20:14, 14:1}, {20:13, 19:1, 15:1}
    #   5 then 6: in/20, then 20/14                 -> {20:14, 14:1} (the same as the first)
    # Two plays; 20/14 before entering is not one of them.
    p = Position.from_checkers({20: 14, 26: 1}, {26: 15}, "dutch")
    assert results(p, (6, 5)) == {"in/14", "in/19 20/15"}


def test_no_hit_without_a_checker_in_the_home_board():
    # Ours: one on the 20, 14 on the 13, none home; theirs: a blot on our 18 (their 7) and 14 on
    # their 1 (our 24). 2-1, hitting on 18 forbidden:
    #   20/19 then 19/17 or 13/11       -> 20/17 (not through 18), 20/19 13/11
    #   13/12 then 13/11 or 12/10       -> 13/12 13/11, 13/10   (20/18* is not allowed)
    #   13/11 first adds nothing new.   Four plays; Race adds 20/18*/17 and 20/18* 13/12: six.
    mine, theirs = {20: 1, 13: 14}, {7: 1, 1: 14}
    dutch = Position.from_checkers(mine, theirs, "dutch")
    assert results(dutch, (2, 1)) == {"20/17", "20/19 13/11", "13/12 13/11", "13/10"}
    race = Position.from_checkers(mine, theirs, "race")
    assert results(race, (2, 1)) == {"20/17", "20/19 13/11", "13/12 13/11", "13/10",
                                     "20/18*/17", "20/18* 13/12"}
    with pytest.raises(IllegalPlayError, match="only once you have a checker in your home board"):
        dutch.parse_play("20/18* 13/12", (2, 1))


def test_a_hit_is_allowed_once_a_checker_is_home():
    # As above with one of the 13's checkers on our 6-point instead: 20/18* is allowed.
    p = Position.from_checkers({20: 1, 13: 13, 6: 1}, {7: 1, 1: 14}, "dutch")
    assert "20/18* 13/12" in results(p, (2, 1))


def test_the_checker_must_be_home_before_the_hit():
    # Ours: one on the 8 and one on the 13, none home; their blot on our 5. With 3-3, 8/5* lands
    # home but there is no home checker before it, so it may hit only after the 13's checker
    # has gone 13/10/7/4 with three of the 3s: the one play with a hit is 13/4 8/5*.
    p = Position.from_checkers({8: 1, 13: 1}, {20: 1, 1: 14}, "dutch")
    assert [s for s in results(p, (3, 3)) if "*" in s] == ["13/4 8/5*"]


def test_a_hit_checker_enters_before_the_waiting_ones():
    # One on the bar, two waiting, 12 on our 20. 6-5: the bar checker takes one die (bar/19 or
    # bar/20), a waiting one the other (in/20 or in/19): {19, 20} either way, so 1 play.
    p = Position.from_checkers({25: 1, 26: 2, 20: 12}, {26: 15}, "dutch")
    plays = p.legal_plays((6, 5))
    assert len(plays) == 1 and plays[0].steps[0][0] == 25
    assert str(plays[0]) in ("in/20 bar/19", "in/19 bar/20")
