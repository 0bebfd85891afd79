"""Acey-Deucey's staged 1-2 turn in the match (docs/variants.md): the 1 and the 2, a named
double, the extra roll; what legal_actions offers at each stage, what apply refuses, the dice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import IllegalActionError, RecordError
from table.match import Match, Move, NameDouble, OpeningRoll, Phase, Resign, Roll, action_from_json
from table.match.actions import NextGame
from table.match.state import acey_deucey_stage, legal_actions, plays_by_text
from table.rules.dice import SeededDice, opening_roll, roll
from table.rules.position import Position

from tests.match.helpers import ScriptedDice, reserve_setup

AD = "acey-deucey"


def set_up(mover: dict[int, int], opponent: dict[int, int], dice: tuple[int, int]) -> Match:
    """An Acey-Deucey game where player 0 is to play ``dice`` in the given position."""
    return reserve_setup(AD, mover, opponent, dice, dice_source=SeededDice(1))


def kinds(m: Match) -> list[str]:
    return [a.kind for a in m.legal_actions()]


def test_a_one_two_goes_all_the_way_two_stages_and_the_extra_roll():
    m = Match(length=0, cube=False, variant=AD, seed=1)
    m.apply(OpeningRoll((2, 1)))  # player 0 rolls the 2: an opening acey-deucey
    assert m.turn == 0 and m.dice == (2, 1) and acey_deucey_stage(m.state) == "one_two"
    m.apply(Move("in/24 in/23"))
    # The same player names a double: any of the six, or resigns.
    assert m.phase == Phase.NAME_DOUBLE and m.turn == 0 and m.dice is None
    assert m.legal_actions() == [NameDouble(n) for n in range(1, 7)] + [Resign(1)]
    assert m.position == Position.from_checkers({24: 1, 23: 1, 26: 13}, {26: 15}, AD)
    m.apply(NameDouble(6))
    assert m.phase == Phase.MOVE and m.dice == (6, 6) and m.turn == 0
    assert acey_deucey_stage(m.state) == "named_double"
    m.apply(Move("in/19(2) 24/18 23/17"))
    # Four sixes played: the same player rolls again.
    assert m.phase == Phase.ROLL and m.turn == 0 and acey_deucey_stage(m.state) == "extra_roll"
    assert kinds(m) == ["roll", "resign"]  # no cube in Acey-Deucey
    assert m.position == Position.from_checkers({19: 2, 18: 1, 17: 1, 26: 11}, {26: 15}, AD)
    m.apply(Roll((1, 2)))  # another 1-2 repeats the staged turn
    assert acey_deucey_stage(m.state) == "one_two"
    m.apply(Move("19/18 19/17"))
    m.apply(NameDouble(1))
    m.apply(Move("18/17(2) 17/16(2)"))
    assert m.phase == Phase.ROLL and m.turn == 0
    m.apply(Roll((5, 3)))
    assert acey_deucey_stage(m.state) is None
    m.apply(Move("in/20 in/22"))
    # An ordinary roll ends the turn.
    assert m.phase == Phase.ROLL and m.turn == 1 and acey_deucey_stage(m.state) is None
    assert m.position_for(0) == Position.from_checkers({17: 2, 16: 2, 20: 1, 22: 1, 26: 9},
                                                       {26: 15}, AD)
    assert [a.kind for a in m.actions] == ["opening_roll", "move", "name_double", "move", "roll", "move",
                                           "name_double", "move", "roll", "move"]


# Player 0 has two checkers on 24 and one on 10, the rest borne off; the opponent holds
# player 0's 23, 22, 8 and 7 (its own 2, 3, 17, 18): only 10/9 can be played of a 1-2.
ONLY_THE_ONE = ({24: 2, 10: 1}, {2: 2, 3: 2, 17: 2, 18: 2, 26: 7})


def test_a_one_two_whose_two_cannot_be_played_ends_the_turn_after_the_one():
    m = set_up(*ONLY_THE_ONE, (2, 1))
    assert [a.play for a in m.legal_actions() if isinstance(a, Move)] == ["10/9"]
    m.apply(Move("10/9"))
    assert m.phase == Phase.ROLL and m.turn == 1 and m.state.stage == ""
    assert NameDouble(6) not in m.legal_actions()
    with pytest.raises(IllegalActionError, match="naming a double is not possible now"):
        m.apply(NameDouble(6))


# Player 0: one checker on 24, one on 13, 13 waiting; the opponent holds player 0's 19, 18
# and 17 (its own 6, 7, 8).  The 1-2 enters two checkers; then of 6-6 only 13/7/1 is possible.
DOUBLE_CUT_SHORT = ({24: 1, 13: 1, 26: 13}, {6: 2, 7: 2, 8: 2, 26: 9})


def test_a_named_double_played_in_part_loses_the_extra_roll():
    m = set_up(*DOUBLE_CUT_SHORT, (2, 1))
    m.apply(Move("in/24 in/23"))
    m.apply(NameDouble(6))
    assert [a.play for a in m.legal_actions() if isinstance(a, Move)] == ["13/1"]
    m.apply(Move("13/1"))
    assert m.phase == Phase.ROLL and m.turn == 1 and acey_deucey_stage(m.state) is None


# Player 0 has two checkers waiting, the rest borne off; the opponent holds player 0's 18 and
# 17 (its own 7 and 8): after in/24 in/23 no six can be played.
NO_SIX = ({26: 2}, {7: 2, 8: 2, 26: 11})


def test_a_named_double_that_cannot_move_at_all_is_an_empty_move_and_the_turn_passes():
    m = set_up(*NO_SIX, (2, 1))
    assert sorted(a.play for a in m.legal_actions() if isinstance(a, Move)) == ["in/22", "in/24 in/23"]
    m.apply(Move("in/24 in/23"))
    m.apply(NameDouble(6))
    assert m.legal_actions() == [Move(""), Resign(1)]
    with pytest.raises(IllegalActionError, match="no move is possible with 6-6"):
        m.apply(Move("24/18"))
    m.apply(Move(""))
    assert m.phase == Phase.ROLL and m.turn == 1


def test_an_ordinary_double_is_played_once_with_no_extra_roll():
    m = Match(length=0, cube=False, variant=AD, seed=1)
    m.apply(OpeningRoll((3, 1)))
    m.apply(m.legal_actions()[0])
    m.apply(Roll((4, 4)))
    assert acey_deucey_stage(m.state) is None
    m.apply(m.legal_actions()[0])
    assert m.phase == Phase.ROLL and m.turn == 0  # player 1 rolled 4-4: back to player 0


@pytest.mark.parametrize("bad", [NameDouble(0), NameDouble(7), NameDouble(True), NameDouble("6")])  # type: ignore[arg-type]
def test_a_named_double_that_is_no_die_is_refused_and_changes_nothing(bad):
    m = Match(length=0, cube=False, variant=AD, seed=1)
    m.apply(OpeningRoll((2, 1)))
    m.apply(Move("in/22"))
    before = (m.state, m.actions)
    with pytest.raises(IllegalActionError, match="a named double is a die's number, 1 to 6"):
        m.apply(bad)
    assert (m.state, m.actions) == before


def test_while_a_double_is_to_be_named_rolling_or_moving_is_refused():
    m = Match(length=0, cube=False, variant=AD, seed=1)
    m.apply(OpeningRoll((2, 1)))
    m.apply(Move("in/22"))
    before = m.state
    for action, words in ((Roll(), "rolling is not possible now: player 0 is to name a double"),
                          (Move("22/16"), "moving is not possible now"),
                          (Resign(2), "Acey-Deucey has no gammons")):
        with pytest.raises(IllegalActionError, match=words):
            m.apply(action)
        assert m.state == before


def test_naming_a_double_is_only_for_acey_deucey():
    m = Match(length=0, cube=False, variant="race", seed=1)
    m.apply(OpeningRoll((2, 1)))
    m.apply(m.legal_actions()[0])
    assert m.phase == Phase.ROLL and m.turn == 1  # in Race a 1-2 is an ordinary roll
    with pytest.raises(IllegalActionError):
        m.apply(NameDouble(6))


def test_the_extra_roll_is_the_next_roll_of_the_same_source_drawn_only_when_rolled():
    dice = ScriptedDice([2, 1, 5, 3])  # the opening roll, then the extra roll
    m = Match(length=0, cube=False, variant=AD, dice=dice)
    m.apply(OpeningRoll())
    m.apply(Move("in/22"))
    m.apply(NameDouble(6))
    m.apply(m.legal_actions()[0])
    assert m.phase == Phase.ROLL and m.turn == 0 and m.dice is None
    assert dice.rolled == 2  # nothing drawn ahead: the extra roll does not exist yet
    assert m.apply(Roll()) == Roll((5, 3)) and dice.rolled == 4


def test_seeded_dice_give_the_same_rolls_whatever_the_turn_flow():
    # Named doubles draw no dice: every roll of the match is the seeded source's next one.
    m = Match(length=0, cube=False, variant=AD, seed=11)
    rng = random.Random(4)
    while m.game_result is None and len(m.actions) < 400:
        m.apply(rng.choice([a for a in m.legal_actions() if a.kind != "resign"]))
    source = SeededDice(11)
    rolled = [a.dice for a in m.actions if isinstance(a, (Roll, OpeningRoll))]
    assert any(isinstance(a, NameDouble) for a in m.actions)
    _, first = opening_roll(source)
    assert sorted(rolled[0]) == sorted(first)  # type: ignore[arg-type]
    assert rolled[1:] == [roll(source) for _ in rolled[1:]]


def test_the_named_double_reads_back_from_json_and_is_refused_when_malformed():
    assert action_from_json({"type": "name_double", "number": 4}) == NameDouble(4)
    for bad in ({"type": "name_double"}, {"type": "name_double", "number": 7},
                {"type": "name_double", "number": "6"}, {"type": "name_double", "number": 6, "x": 1}):
        with pytest.raises(RecordError):
            action_from_json(bad)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_random_legal_acey_deucey_actions_keep_fifteen_a_side_and_are_all_legal(seed):
    m = Match(length=3, cube=False, variant=AD, seed=seed)
    rng = random.Random(seed)
    off = [0, 0]  # checkers each player has borne off this game, counted from the plays' steps
    for _ in range(300):
        if m.is_over:
            break
        legal = m.legal_actions()
        action = rng.choice(legal)
        if action.kind == "resign" and rng.random() < 0.9:
            action = legal[0]
        mover = m.on_roll
        if isinstance(action, Move) and action.play:
            assert m.dice is not None
            off[mover] += sum(dst == 0 for _, dst in plays_by_text(m.position, m.dice)[action.play].steps)
        m.apply(action)
        if isinstance(action, NextGame):
            off = [0, 0]
        board = m.position_for(0).board  # seat 0's side: + seat 0, - seat 1; 25/26 its bar and reserve
        on = (sum(v for v in board[1:25] if v > 0) + board[25] + board[26],
              -sum(v for v in board[1:25] if v < 0) - board[0] - board[27])
        assert (on[0] + off[0], on[1] + off[1]) == (15, 15)
    for before, logged in m.history:  # each action was among the legal ones of its state
        offered = legal_actions(before)
        if isinstance(logged, (Roll, OpeningRoll)):
            assert type(logged)() in offered
        else:
            assert logged in offered
