"""The Python API of positions and plays: text boards, dice as text, immutable plays."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings

from table import DiceError, Play, Position
from table.rules.diagram import render
from table.rules.movetext import as_seen_by_opponent
from tests.rules.strategies import positions


def test_str_of_a_position_is_the_text_board() -> None:
    p = Position.initial().parse_play("8/5 6/5", (3, 1)).position
    text = str(p)
    assert text == render(p)
    assert text.splitlines()[0].split() == [str(n) for n in (*range(13, 19), *range(19, 25))]
    assert f"Position ID: {p.id}" in text and "pips 163" in text  # O's count after 8/5 6/5


@pytest.mark.parametrize("dice", ["31", "3-1", " 3 1 ", "3,1", (3, 1), [3, 1]])
def test_legal_plays_takes_the_roll_as_text_or_as_a_pair(dice: object) -> None:
    expected = {str(p) for p in Position.initial().legal_plays((3, 1))}
    assert {str(p) for p in Position.initial().legal_plays(dice)} == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("dice", "message"), [
    ("x", "cannot read dice 'x': write two digits such as 31 or 3-1"),
    ("71", "each die is 1 to 6, not 7"),
    ("311", "cannot read dice"),
    (31, "a roll is two dice such as (3, 1) or '31', got 31"),
    ((3,), "a roll is two dice"),
    ((0, 2), "each die must be a whole number from 1 to 6, got 0"),
])
def test_bad_dice_say_what_is_wrong(dice: object, message: str) -> None:
    with pytest.raises(DiceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Position.initial().legal_plays(dice)  # type: ignore[arg-type]


def test_a_play_cannot_be_changed() -> None:
    play = Position.initial().legal_plays("21")[0]
    before = hash(play)
    for name, value in (("steps", ()), ("position", Position.initial()), ("dice", (6, 6)),
                        ("before", Position.initial()), ("_source", None), ("anything", 1)):
        with pytest.raises(AttributeError, match="Play is immutable"):
            setattr(play, name, value)
    with pytest.raises(AttributeError, match="Play is immutable"):
        del play.steps
    assert hash(play) == before and play == Position.initial().legal_plays("21")[0]


@settings(max_examples=60, deadline=None)
@given(positions())
def test_plays_built_lazily_equal_plays_built_whole(position: Position) -> None:
    for dice in ("21", "66", "53"):
        for play in position.legal_plays(dice):
            whole = Play(play.before, play.steps, play.position, play.dice)
            assert whole == play and hash(whole) == hash(play)
            assert (whole.steps, whole.hits, str(whole)) == (play.steps, play.hits, str(play))
            copy = pickle.loads(pickle.dumps(play))
            assert copy == play and copy.steps == play.steps and copy.dice == play.dice


@pytest.mark.parametrize(("mine", "theirs"), [
    ("24/22 13/8", "1/3 12/17"),
    ("bar/22* 6/off", "bar/3* 19/off"),
    ("13/7*/5", "12/18*/20"),
    ("6/2(2) 5/1(2)", "19/23(2) 20/24(2)"),
])
def test_a_move_written_from_the_other_side(mine: str, theirs: str) -> None:
    assert as_seen_by_opponent(mine) == theirs
    assert as_seen_by_opponent(theirs) == mine


def test_the_text_diagram_of_a_race_counts_the_checkers_waiting_to_enter():
    from table.rules.diagram import render
    lines = render(Position.from_checkers({26: 5, 20: 2}, {26: 10}, "acey-deucey")).splitlines()
    assert lines[-3] == "X (on roll): pips 165, off 8, bar 0, waiting 5"  # 5 x 25 + 2 x 20
    assert lines[-2] == "O: pips 250, off 5, bar 0, waiting 10"
    assert "waiting" not in render(Position.initial())
