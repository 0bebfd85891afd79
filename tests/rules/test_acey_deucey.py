"""Acey-Deucey's moves (docs/variants.md): entering is never required first; the staged 1-2 pieces.

Each count below is worked out by hand in the comment above it.
"""

from __future__ import annotations

import pytest

from table import Position
from table.errors import VariantError
from table.rules.aceydeucey import (can_play_both, double_played_in_full, game_value,
                                    is_acey_deucey, played_both, still_on_roll)
from table.rules.variant import ACEY_DEUCEY


def results(p: Position, dice: tuple[int, int]) -> set[str]:
    return {str(q) for q in p.legal_plays(dice)}


def test_the_variant():
    p = Position.initial("acey-deucey")
    assert p.variant is ACEY_DEUCEY and not ACEY_DEUCEY.cube
    assert ACEY_DEUCEY.turn_flow == "acey-deucey"


def test_a_hit_checker_need_not_enter_first():
    # Ours: one on the bar and one on the 10; theirs: 15 on their 1 (our 24, closed). 3-1:
    #   3 then 1: bar/22 then 22/21 or 10/9   -> {21,10}, {22,9}
    #             10/7  then 7/6 (bar/24 is closed) -> {bar,6}
    #   1 then 3: 10/9  then bar/22 or 9/6    -> {22,9}=, {bar,6}=      (bar/24 closed)
    # Three plays; in Race the bar checker must enter first and 10/6 is not one: two.
    mine, theirs = {25: 1, 10: 1}, {1: 15}
    assert results(Position.from_checkers(mine, theirs, "acey-deucey"), (3, 1)) == {
        "bar/21", "bar/22 10/9", "10/6"}
    assert results(Position.from_checkers(mine, theirs, "race"), (3, 1)) == {
        "bar/21", "bar/22 10/9"}


def test_checkers_on_the_board_move_while_others_wait():
    # As in Race: 14 waiting, one on 10; 3-1 has 10/6 among its plays (not so in Dutch).
    p = Position.from_checkers({10: 1, 26: 14}, {26: 15}, "acey-deucey")
    assert "10/6" in results(p, (3, 1))


def test_the_staged_turn_pieces():
    # From the start, 1-2 is played in full (in/24 in/23 or in/22), then the same player
    # names a double: 6-6 from {24, 23} or {22} is played four times (entering is open).
    p = Position.initial("acey-deucey")
    assert is_acey_deucey((2, 1)) and not is_acey_deucey((2, 3))
    assert can_play_both(p)
    for first in p.legal_plays((2, 1)):
        assert played_both(first)
        again = still_on_roll(first)
        assert again.waiting()[0] == 15 - len([s for s in first.steps if s[0] == 26])
        assert again.board[26] < 15 and again.waiting()[1] == 15
        sixes = again.legal_plays((6, 6))
        assert sixes and all(double_played_in_full(q) for q in sixes)


def test_the_turn_ends_when_1_and_2_cannot_both_be_played():
    # One checker of ours, everything else borne off; theirs all waiting. On our 3-point, 1-2
    # plays 3/1 then 1/off (or 3/2, 2/off): both dice. On our 2-point, 2/1 then 1/off with the
    # 2 (a higher die bears off from the highest point): both too. On our 1-point, either die
    # bears it off and nothing is left for the other: one die only, the turn ends.
    assert can_play_both(Position.from_checkers({3: 1}, {26: 15}, "acey-deucey"))
    assert can_play_both(Position.from_checkers({2: 1}, {26: 15}, "acey-deucey"))
    alone = Position.from_checkers({1: 1}, {26: 15}, "acey-deucey")
    assert not can_play_both(alone)
    assert not played_both(alone.legal_plays((2, 1))[0])


def test_a_double_not_played_in_full_loses_the_extra_roll():
    # Ours: one on the 8; theirs hold our 4 (their 21) with two, 13 wait. 2-2: 8/6, then 6/4 is
    # closed: one 2 played, not four.
    p = Position.from_checkers({8: 1}, {21: 2, 26: 13}, "acey-deucey")
    plays = p.legal_plays((2, 2))
    assert [str(q) for q in plays] == ["8/6"] and not double_played_in_full(plays[0])


def test_the_game_is_worth_the_losers_checkers_left():
    # They have 9 on the board, 2 on the bar and 3 waiting, one borne off: 14 left; we are off.
    assert game_value(Position.from_checkers({}, {12: 9, 25: 2, 26: 3}, "acey-deucey")) == 14
    assert game_value(Position.from_checkers({}, {1: 1}, "acey-deucey")) == 1
    assert game_value(Position.from_checkers({5: 15}, {}, "acey-deucey")) == -15
    assert game_value(Position.initial("acey-deucey")) == 0
    with pytest.raises(VariantError, match="Acey-Deucey's, not Backgammon Race's"):
        game_value(Position.initial("race"))
