"""eXtreme Gammon XGIDs: the start, perspective, every field, bad input, round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.errors import XgidError
from table.notation.xgid import BOTTOM, TOP, CubeOffer, XgidInfo, from_xgid, to_xgid

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"

# A lopsided position, seen from the player on roll: a checker on the bar,
# three on the 24-point; the opponent has borne two off and has one on the bar.
MOVER = {25: 1, 6: 4, 8: 3, 13: 4, 24: 3}
OPPONENT = {2: 2, 6: 5, 13: 5, 25: 1}
# Its board field, worked out by hand for each side being on roll.
BOARD_IF_BOTTOM_ON_ROLL = "a-----D-C---eD-----e---bCA"
BOARD_IF_TOP_ON_ROLL = "acB---E-----dE---c-d-----A"


def lopsided() -> Position:
    return Position.from_checkers(MOVER, OPPONENT)


# The start --------------------------------------------------------------------------


def test_start_position_exports_exactly() -> None:
    assert to_xgid(Position.initial()) == START


def test_start_position_imports() -> None:
    info = from_xgid(START)
    assert info == XgidInfo(Position.initial(), cube_value=1, cube_owner=None, turn=BOTTOM,
                            dice=None, double_offered=CubeOffer.NONE, score=(0, 0),
                            match_length=0, crawford=False, jacoby=False, beaver=False,
                            max_cube=1024)
    assert info.xgid == START


def test_prefix_is_optional() -> None:
    assert from_xgid(START[len("XGID="):]) == from_xgid(START)
    assert from_xgid("  xgid=" + START[5:] + "\n") == from_xgid(START)


# Perspective ------------------------------------------------------------------------


def test_hand_built_position_with_bottom_on_roll() -> None:
    text = to_xgid(lopsided(), turn=BOTTOM)
    assert text == f"XGID={BOARD_IF_BOTTOM_ON_ROLL}:0:0:1:00:0:0:0:0:10"
    info = from_xgid(text)
    assert info.turn == BOTTOM
    assert info.position == lopsided()


def test_hand_built_position_with_top_on_roll() -> None:
    text = to_xgid(lopsided(), turn=TOP)
    assert text == f"XGID={BOARD_IF_TOP_ON_ROLL}:0:0:-1:00:0:0:0:0:10"
    info = from_xgid(text)
    assert info.turn == TOP
    assert info.position == lopsided()
    # Counted by hand: 25 + 6*4 + 8*3 + 13*4 + 24*3 and 25 + 2*2 + 6*5 + 13*5.
    assert info.position.pip_counts() == (197, 124)
    assert info.position.checkers() == MOVER
    assert info.position.checkers(mover=False) == OPPONENT


def test_same_board_with_the_other_side_on_roll_is_swapped() -> None:
    bottom = from_xgid(f"XGID={BOARD_IF_TOP_ON_ROLL}:0:0:1:00:0:0:0:0:10")
    top = from_xgid(f"XGID={BOARD_IF_TOP_ON_ROLL}:0:0:-1:00:0:0:0:0:10")
    assert top.position == bottom.position.swapped()


def test_top_on_roll_agrees_with_gnubg_position_ids() -> None:
    # GNU Backgammon's vectors (issue 2): after 31 played 8/5 6/5 with the
    # opponent on roll, sGfwATDgc/ABMA; and yOeDATDsnIMBMA.  Both boards below
    # were drawn by hand from the bottom player's side, with the top player on roll.
    after_31 = from_xgid("XGID=-b---BD-B---eE---c-e----B-:0:0:-1:00:0:0:0:0:10")
    assert after_31.position.id == "sGfwATDgc/ABMA"
    other = from_xgid("XGID=-b--A-E-E---bB---c-c-cb-B-:0:0:-1:00:0:0:0:0:10")
    assert other.position.id == "yOeDATDsnIMBMA"
    assert other.position.checkers() == {24: 2, 13: 2, 8: 3, 6: 3, 4: 3, 3: 2}
    assert other.position.checkers(mover=False) == {24: 2, 13: 2, 8: 5, 6: 5, 4: 1}


# The other fields ---------------------------------------------------------------------


def test_match_fields() -> None:
    info = from_xgid(f"XGID={BOARD_IF_TOP_ON_ROLL}:2:1:-1:52:3:6:0:7:8")
    assert (info.cube_value, info.cube_owner, info.turn, info.dice) == (4, BOTTOM, TOP, (5, 2))
    assert (info.score, info.match_length, info.crawford, info.max_cube) == ((3, 6), 7, False, 256)
    assert not info.jacoby and not info.beaver and not info.double_offered


@pytest.mark.parametrize(
    ("field", "jacoby", "beaver"),
    [("0", False, False), ("1", True, False), ("2", False, True), ("3", True, True)],
)
def test_money_rules_field(field: str, jacoby: bool, beaver: bool) -> None:
    text = f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:{field}:0:10"
    info = from_xgid(text)
    assert (info.jacoby, info.beaver, info.crawford) == (jacoby, beaver, False)
    assert to_xgid(Position.initial(), jacoby=jacoby, beaver=beaver) == text


@pytest.mark.parametrize(
    ("letter", "offer"),
    [("D", CubeOffer.DOUBLE), ("B", CubeOffer.BEAVER), ("R", CubeOffer.RACCOON)],
)
def test_cube_offers(letter: str, offer: CubeOffer) -> None:
    text = f"XGID=-b----E-C---eE---c-e----B-:1:-1:1:{letter}:0:0:3:0:10"
    info = from_xgid(text)
    assert info.double_offered is offer and info.dice is None
    assert info.cube_value == 2 and info.cube_owner == TOP
    assert info.xgid == text


def test_crawford_match_export() -> None:
    text = to_xgid(lopsided(), turn=TOP, dice=(6, 6), score=(4, 2), match_length=5,
                   crawford=True)
    assert text == f"XGID={BOARD_IF_TOP_ON_ROLL}:0:0:-1:66:4:2:1:5:10"


# Bad input ------------------------------------------------------------------------------


def xgid(**changes: str) -> str:
    fields = dict(zip(
        ["board", "cube", "owner", "turn", "dice", "s1", "s2", "rules", "length", "max"],
        START[5:].split(":"),
    ))
    fields.update(changes)
    return "XGID=" + ":".join(fields.values())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (START + ":0", "has 11"),
        (START.rsplit(":", 1)[0], "has 9"),
        ("", "has 1"),
        (xgid(board="-b----E-C---eE---c-e----B"), "26 characters, got 25"),
        (xgid(board="-b----E-C---eE---c-e----B--"), "26 characters, got 27"),
        (xgid(board="-b----E-C---eE---c-e----B*"), "board character 25 is '*'"),
        (xgid(board="-b----E-C---eE---c-e----P-"), "board character 24 is 'P'"),
        (xgid(board="Ab----E-C---eE---c-e----B-"), "top player's bar"),
        (xgid(board="-b----E-C---eE---c-e----Ba"), "bottom player's bar"),
        (xgid(board="-b----E-C---eE---c-e---AB-"), "gives the bottom player 16 checkers"),
        (xgid(board="-b----E-C---eE---c-e----BA"), "gives the bottom player 16 checkers"),
        (xgid(board="ab----E-C---eE---c-e----B-"), "gives the top player 16 checkers"),
        (xgid(cube="16"), "cube value field is log2 of the cube, 0 to 15, got 16"),
        (xgid(cube="-1"), "cube value field is log2"),
        (xgid(cube="x"), "cube value field (number 2) must be a whole number"),
        (xgid(owner="2"), "cube position field (number 3)"),
        (xgid(owner="1"), "cannot be 1"),
        (xgid(turn="0"), "turn field (number 4)"),
        (xgid(turn="+1"), "turn field (number 4) must be a whole number"),
        (xgid(dice="07"), "dice field (number 5)"),
        (xgid(dice="7"), "dice field (number 5)"),
        (xgid(dice="X"), "dice field (number 5)"),
        (xgid(dice="0"), "dice field (number 5)"),
        (xgid(s1="-1"), "score"),
        (xgid(s2="1.0"), "top score field (number 7) must be a whole number"),
        (xgid(s1="01"), "bottom score field (number 6) must be a whole number"),
        (xgid(rules="4"), "in money play it is 0 to 3"),
        (xgid(rules="2", length="7"), "in a match it is 0 or 1"),
        (xgid(length="-3"), "match length field (number 9)"),
        (xgid(length="7", s1="7"), "has reached the match length 7"),
        (xgid(length="7", s2="9"), "has reached the match length 7"),
        (xgid(length="7", rules="1", s1="5"), "needs a player at 6"),
        (xgid(length="7", rules="1", s1="6", cube="1", owner="1"), "nobody may double"),
        (xgid(length="7", rules="1", s1="6", dice="D"), "nobody may double"),
        (xgid(dice="B"), "beaver or raccoon needs money play with the beaver rule"),
        (xgid(dice="R", rules="1"), "beaver or raccoon"),
        (xgid(cube="4", owner="1", max="1"), "above the largest cube allowed"),
        (xgid(max="16"), "max cube field is log2 of the cube"),
    ],
)
def test_malformed_xgids_name_the_bad_field(text: str, words: str) -> None:
    with pytest.raises(XgidError) as err:
        from_xgid(text)
    assert words in str(err.value)


def test_not_a_string() -> None:
    with pytest.raises(XgidError, match="is a string"):
        from_xgid(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"turn": 0}, "turn must be BOTTOM"),
        ({"cube_value": 3}, "cube_value must be a power of two"),
        ({"max_cube": 0}, "max_cube must be a power of two"),
        ({"cube_owner": 0, "cube_value": 2}, "cube_owner must be None"),
        ({"dice": (0, 0)}, "dice must be None or two numbers from 1 to 6"),
        ({"dice": (3, 1), "double_offered": CubeOffer.DOUBLE}, "cannot both show"),
        ({"crawford": True}, "money play has no Crawford game"),
        ({"match_length": 5, "jacoby": True}, "belong to money play"),
        ({"score": (1,)}, "the score must be two whole numbers"),
        ({"jacoby": 1}, "jacoby must be True or False"),
        ({"double_offered": 7}, "double_offered must be a CubeOffer"),
    ],
)
def test_impossible_exports_are_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(XgidError, match=words):
        to_xgid(Position.initial(), **kwargs)  # type: ignore[arg-type]


def test_position_must_be_a_position() -> None:
    with pytest.raises(XgidError, match="must be a Position"):
        XgidInfo("4HPwATDgc/ABMA")  # type: ignore[arg-type]


# Round trips over positions from random legal play --------------------------------------


def played_position(seed: int, plies: int) -> Position:
    """The position after ``plies`` random legal plays from the start."""
    rng = random.Random(seed)
    position = Position.initial()
    for _ in range(plies):
        if position.is_game_over:
            break
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(plays).position if plays else position.swapped()
    return position


@st.composite
def xgid_infos(draw: st.DrawFn) -> XgidInfo:
    position = played_position(draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 160)))
    max_cube = 1 << draw(st.integers(0, 15))
    cube = 1 << draw(st.integers(0, max_cube.bit_length() - 1))
    owner = None if cube == 1 else draw(st.sampled_from([None, BOTTOM, TOP]))
    length = draw(st.one_of(st.just(0), st.integers(1, 25)))
    top = length - 1 if length else 100
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    crawford = bool(length) and max(score) == length - 1 and cube == 1 and draw(st.booleans())
    owner = None if crawford else owner
    jacoby = not length and draw(st.booleans())
    beaver = not length and draw(st.booleans())
    offers = [CubeOffer.NONE]
    if not crawford:
        offers.append(CubeOffer.DOUBLE)
        if beaver:
            offers += [CubeOffer.BEAVER, CubeOffer.RACCOON]
    offer = draw(st.sampled_from(offers))
    dice = None
    if not offer and draw(st.booleans()):
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return XgidInfo(position, cube_value=cube, cube_owner=owner,
                    turn=draw(st.sampled_from([BOTTOM, TOP])), dice=dice,
                    double_offered=offer, score=score, match_length=length,
                    crawford=crawford, jacoby=jacoby, beaver=beaver, max_cube=max_cube)


@settings(max_examples=300, deadline=None)
@given(xgid_infos())
def test_round_trip_over_played_positions(info: XgidInfo) -> None:
    text = info.xgid
    back = from_xgid(text)
    assert back == info
    assert back.xgid == text
    # The board field is always drawn from the bottom player's side.
    bottom_view = info.position if info.turn == BOTTOM else info.position.swapped()
    assert text[5:31] == to_xgid(bottom_view)[5:31]
    uppercase = sum(ord(c) - 64 for c in text[5:31] if c.isupper())
    assert uppercase == 15 - bottom_view.borne_off()[0]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 160), st.sampled_from([BOTTOM, TOP]))
def test_position_survives_either_side_on_roll(seed: int, plies: int, turn: int) -> None:
    position = played_position(seed, plies)
    assert from_xgid(to_xgid(position, turn=turn)).position == position
