"""GNU Backgammon Match IDs: documented vectors, bad input, round trips."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.errors import MatchIdError, PositionIdError
from table.notation.matchid import (
    GameState,
    MatchInfo,
    decode_match_id,
    encode_match_id,
    gnubg_id,
    parse_gnubg_id,
)

# The manual's field widths (section 11.7), in order.
WIDTHS = (("cube", 4), ("owner", 2), ("dice_owner", 1), ("crawford", 1), ("state", 3),
          ("turn", 1), ("double", 1), ("resign", 2), ("die1", 3), ("die2", 3),
          ("length", 15), ("score0", 15), ("score1", 15))


def bits_to_id(bits: str) -> str:
    """The manual's recipe: bit 1 is the least significant bit of byte 1, and so on."""
    bits = bits.replace(" ", "").ljust(72, "0")
    raw = bytes(int(bits[i:i + 8][::-1], 2) for i in range(0, 72, 8))
    return base64.b64encode(raw).decode()


def make_id(**fields: int) -> str:
    """A Match ID written field by field, each least significant bit first."""
    base = dict(cube=0, owner=3, dice_owner=0, crawford=0, state=1, turn=0, double=0,
                resign=0, die1=0, die2=0, length=0, score0=0, score1=0)
    base.update(fields)
    bits = "".join(format(base[name], f"0{width}b")[::-1] for name, width in WIDTHS)
    return bits_to_id(bits)


# Documented vectors ----------------------------------------------------------


def test_issue_vector_money_game_player_1_rolled_54() -> None:
    info = decode_match_id("cIkSAAAAAAAA")
    assert info == MatchInfo(
        cube_value=1, cube_owner=None, player_on_roll=1, crawford=False,
        game_state=GameState.PLAYING, turn=1, double_offered=False, resignation=0,
        dice=(5, 4), match_length=0, score=(0, 0),
    )
    assert encode_match_id(info) == "cIkSAAAAAAAA"


def test_manual_worked_example_9_point_match() -> None:
    # Manual 11.7: score 2-4 in a 9-point match, player 0 holds a 2-cube and
    # player 1 has just rolled 52.  The manual writes the key field by field
    # (each field's bits reversed for readability) and gives its bytes.
    manual_key = ("1000 00 1 0 100 1 0 00 101 010 100100000000000 "
                  "010000000000000 001000000000000")
    manual_bytes = "01000001 10001001 00101010 00000001 00100000 00000000 00100000 00000000 00"
    expected = MatchInfo(cube_value=2, cube_owner=0, player_on_roll=1, turn=1,
                         game_state=GameState.PLAYING, dice=(5, 2), match_length=9,
                         score=(2, 4))
    assert bits_to_id(manual_key) == "QYkqASAAIAAA"
    raw = base64.b64decode("QYkqASAAIAAA")
    assert [format(b, "08b") for b in raw[:8]] == manual_bytes.split()[:8]
    assert raw[8] == 0
    assert encode_match_id(expected) == "QYkqASAAIAAA"
    assert decode_match_id("QYkqASAAIAAA") == expected


def test_manual_cube_example_8_cube_is_0011() -> None:
    # "a 8-cube is encoded as 0011 binary (or 3)": bits 1-4 hold 3.
    match_id = encode_match_id(MatchInfo(cube_value=8, cube_owner=1))
    assert base64.b64decode(match_id)[0] & 0x0F == 3
    assert match_id == make_id(cube=3, owner=1)


def test_every_field_lands_in_its_documented_bits() -> None:
    info = MatchInfo(cube_value=4, cube_owner=1, player_on_roll=0, crawford=False,
                     game_state=GameState.PLAYING, turn=1, double_offered=True,
                     resignation=0, dice=(0, 0), match_length=11, score=(3, 7))
    assert encode_match_id(info) == make_id(cube=2, owner=1, dice_owner=0, turn=1, double=1,
                                            length=11, score0=3, score1=7)
    resign = MatchInfo(player_on_roll=1, turn=0, resignation=2, dice=(6, 6))
    assert encode_match_id(resign) == make_id(dice_owner=1, turn=0, resign=2, die1=6, die2=6)
    crawford = MatchInfo(crawford=True, match_length=5, score=(4, 2), dice=(1, 3))
    assert encode_match_id(crawford) == make_id(crawford=1, length=5, score0=4, score1=2,
                                                die1=1, die2=3)


@pytest.mark.parametrize("state", list(GameState))
def test_game_states(state: GameState) -> None:
    info = decode_match_id(make_id(state=int(state)))
    assert info.game_state is state


def test_largest_documented_values_are_written_but_gnubg_reads_less() -> None:
    # The manual: a 32768-cube at most, lengths and scores up to 32767.
    info = MatchInfo(cube_value=32768, cube_owner=0, match_length=32767, score=(32766, 32766))
    assert encode_match_id(info) == make_id(cube=15, owner=0, length=32767,
                                            score0=32766, score1=32766)
    # GNU Backgammon 1.07's `set matchid` refuses matches over 64 points and sets
    # the cube only up to 4096 (a larger one stays at 1).
    with pytest.raises(MatchIdError, match="at most 64 points"):
        decode_match_id(encode_match_id(info))
    most = MatchInfo(cube_value=4096, cube_owner=0, match_length=64, score=(63, 63))
    assert decode_match_id(encode_match_id(most)) == most
    bigger = decode_match_id(make_id(cube=13, owner=0, length=64))
    assert (bigger.cube_value, bigger.cube_owner) == (1, None)


def test_spare_bits_after_the_key_are_ignored() -> None:
    raw = bytearray(base64.b64decode(make_id()))
    raw[8] |= 0b11111100  # bits 67-72 of the 72 that 12 characters hold
    with_spare = base64.b64encode(bytes(raw)).decode()
    assert decode_match_id(with_spare) == decode_match_id(make_id())
    assert encode_match_id(decode_match_id(with_spare)) == make_id()


def test_surrounding_space_is_ignored() -> None:
    assert decode_match_id("  cIkSAAAAAAAA\n").dice == (5, 4)


# Bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("cIkSAAAAAAA", "got 11"),
        ("cIkSAAAAAAAAA", "got 13"),
        ("", "got 0"),
        ("cIkSAAAA*AAA", "'*' are not base64"),
        ("cIkSAAAA=AAA", "'=' are not base64"),
        ("cIkSAAAAAAă", "'ă' are not base64"),
        # What GNU Backgammon's `set matchid` calls an illegal match ID:
        (make_id(die1=7, die2=1), "a die shows 7"),
        (make_id(die1=0, die2=7), "a die shows 7"),
        (make_id(length=65), "at most 64 points"),
        (make_id(length=5, score0=6), "past the match length 5"),
        (make_id(length=5, score0=3, score1=7, state=0), "past the match length 5"),
        (make_id(length=5, score0=6, score1=6, state=2), "past the match length 5"),
        (make_id(crawford=1), "money game has no Crawford"),
    ],
)
def test_malformed_match_ids_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(MatchIdError) as err:
        decode_match_id(text)
    assert words in str(err.value)


def test_not_a_string() -> None:
    with pytest.raises(MatchIdError, match="is a string"):
        decode_match_id(12)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"cube_value": 3}, "power of two"),
        ({"cube_value": 65536, "cube_owner": 0}, "power of two from 1 to 32768"),
        ({"score": (6, 0), "match_length": 5, "game_state": GameState.NO_GAME}, "has reached the match length"),
        ({"cube_value": 0}, "power of two"),
        ({"cube_owner": 2, "cube_value": 2}, "cube owner"),
        ({"player_on_roll": 2}, "player_on_roll must be player 0 or 1"),
        ({"turn": -1}, "turn must be player 0 or 1"),
        ({"crawford": 1}, "crawford must be True or False"),
        ({"game_state": 9}, "game state"),
        ({"resignation": 4}, "resignation"),
        ({"dice": (1, 2, 3)}, "pair"),
        ({"match_length": 32768}, "match length"),
        ({"match_length": -1}, "match length"),
        ({"score": (-1, 0)}, "each score"),
        ({"score": (0, 32768)}, "each score"),
    ],
)
def test_impossible_match_info_is_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(MatchIdError, match=words):
        MatchInfo(**kwargs)  # type: ignore[arg-type]


def test_finished_match_may_show_the_winning_score() -> None:
    info = MatchInfo(game_state=GameState.OVER, match_length=7, score=(9, 3))
    assert decode_match_id(encode_match_id(info)) == info


def test_game_state_is_stored_as_the_enum() -> None:
    assert MatchInfo(game_state=2).game_state is GameState.OVER  # type: ignore[arg-type]


# Round trips ---------------------------------------------------------------------


@st.composite
def match_infos(draw: st.DrawFn) -> MatchInfo:
    """Every kind of valid MatchInfo, built to satisfy the rules rather than filtered."""
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, 64)))
    state = draw(st.sampled_from(GameState))
    finished = state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
    top = 32767 if not length else length - 1
    score = [draw(st.integers(0, top)), draw(st.integers(0, top))]
    if length and finished and draw(st.booleans()):
        score[draw(st.integers(0, 1))] = draw(st.integers(length, min(32767, length + 10)))
    crawford = bool(length) and max(score) >= length - 1 and draw(st.booleans())
    if crawford:
        cube, owner = 1, None
    else:
        cube = 1 << draw(st.integers(0, 12))
        owner = None if cube == 1 else draw(st.sampled_from([None, 0, 1]))
    roller = draw(st.integers(0, 1))
    double = (state == GameState.PLAYING and not crawford and draw(st.booleans()))
    if double:
        return MatchInfo(cube, owner, roller, crawford, state, 1 - roller, True, 0, (0, 0),
                         length, (score[0], score[1]))
    resignation = draw(st.integers(0, 3)) if state in (GameState.PLAYING, GameState.RESIGNED) else 0
    # A game not yet started may hold its opening roll (GNU Backgammon writes one per game).
    rolled = not finished and draw(st.booleans())
    dice = (0, 0)
    if rolled:
        first = draw(st.integers(1, 6))
        others = [d for d in range(1, 7) if d != first or state == GameState.PLAYING]
        dice = (first, draw(st.sampled_from(others)))
    turn = roller
    if resignation and state == GameState.PLAYING:
        # The roller resigns with the dice rolled; without them either player may have.
        turn = 1 - roller if rolled else draw(st.integers(0, 1))
    elif finished:
        turn = draw(st.integers(0, 1))
    return MatchInfo(cube, owner, roller, crawford, state, turn, False, resignation, dice,
                     length, (score[0], score[1]))


@settings(max_examples=400)
@given(match_infos())
def test_round_trip_over_valid_match_info(info: MatchInfo) -> None:
    text = encode_match_id(info)
    assert len(text) == 12
    assert decode_match_id(text) == info
    assert encode_match_id(decode_match_id(text)) == text


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@settings(max_examples=400)
@given(st.text(alphabet=_B64, min_size=12, max_size=12))
def test_any_12_characters_decode_canonically_or_raise(text: str) -> None:
    try:
        info = decode_match_id(text)
    except MatchIdError:
        return
    # What is read is settled: it reads back as itself.
    assert decode_match_id(encode_match_id(info)) == info


# PositionID:MatchID ----------------------------------------------------------------


def test_gnubg_id_joins_both_ids() -> None:
    info = decode_match_id("cIkSAAAAAAAA")
    assert gnubg_id(Position.initial(), info) == "4HPwATDgc/ABMA:cIkSAAAAAAAA"


def test_parse_gnubg_id_keeps_the_dice_owners_view() -> None:
    # After 31 played 8/5 6/5 the opponent is on roll (GNU Backgammon's vector
    # sGfwATDgc/ABMA); with player 0 as that opponent the Match ID's dice owner is 0.
    info = MatchInfo(player_on_roll=0, turn=0, dice=(6, 4))
    after = Position.initial().parse_play("8/5 6/5", (3, 1)).position
    text = gnubg_id(after, info)
    assert text.startswith("sGfwATDgc/ABMA:")
    position, back = parse_gnubg_id(text)
    assert position == after and back == info
    assert position.pip_counts() == (167, 163)


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("4HPwATDgc/ABMAcIkSAAAAAAAA", MatchIdError, "found 0"),
        ("4HPwATDgc/ABMA:cIkSAAAAAAAA:x", MatchIdError, "found 2"),
        ("4HPwATDgc/ABM:cIkSAAAAAAAA", PositionIdError, "Position ID"),
        ("4HPwATDgc/ABMA:cIkSAAAAAAA", MatchIdError, "got 11"),
    ],
)
def test_parse_gnubg_id_rejects(text: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        parse_gnubg_id(text)


# GNU Backgammon's ID for a game's opening roll: no game yet, the dice set ----------


def test_the_opening_roll_id_gnu_backgammon_writes_is_read() -> None:
    # Written field by field from the manual: player 1 won the opening roll with 6-4 in a
    # 5-point match; it is GNU Backgammon's export of such a roll (issue 48).
    text = make_id(dice_owner=1, state=0, turn=1, die1=6, die2=4, length=5)
    assert text == "cAizAAAAAAAA"
    info = decode_match_id("cAizAAAAAAAE")  # as exported: a spare bit set as well
    assert (info.game_state, info.player_on_roll, info.turn, info.dice, info.match_length) == \
        (GameState.NO_GAME, 1, 1, (6, 4), 5)
    assert encode_match_id(info) == text
