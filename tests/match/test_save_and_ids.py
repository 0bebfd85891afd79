"""Lossless JSON save and restore, Match IDs of every state, and matches set up from IDs."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import MatchSettingsError, RecordError, TableError
from table.match import Match, Move, OpeningRoll, Phase, RejectResignation, Resign, Roll, action_from_json
from table.match.actions import ACTION_TYPES, AcceptResignation, Action, Double, NameDouble, RecordedResult, Take
from table.notation.matchid import GameState, MatchInfo, decode_match_id, encode_match_id
from table.rules.position import Position

from tests.match.helpers import random_player


def _states_of_a_match(seed: int = 4) -> list[Match]:
    """Copies of one match at every moment (restored from JSON each time)."""
    m = Match(length=5, seed=seed)
    rng = random.Random(seed)
    choose = random_player(rng, cube_rate=0.3, resign_rate=0.05)
    out = []
    while not m.is_over:
        out.append(Match.from_json(m.to_json()))
        m.apply(choose(m.legal_actions()))
    out.append(m)
    return out


def test_every_action_type_survives_json() -> None:
    samples = [OpeningRoll((5, 2)), Roll((6, 6)), Roll(), Move("8/5 6/5"), Move(""), Resign(3),
               RecordedResult(1, 3), NameDouble(5)]
    samples += [cls() for cls in ACTION_TYPES if cls.kind not in
                ("opening_roll", "roll", "move", "resign", "recorded_result", "name_double")]  # type: ignore[call-arg]
    for action in samples:
        text = json.dumps(action.to_json())
        assert action_from_json(json.loads(text)) == action


@pytest.mark.parametrize("bad", [
    None, [], {"type": "roll", "dice": [7, 1]}, {"type": "move"}, {"type": "resign", "level": 4},
    {"type": "opening_roll", "dice": [3, 3]}, {"type": "resign", "level": True},
    {"type": "resign", "level": []}, {"type": "resign", "level": {}}, {"type": "resign", "level": 2.0},
    {"type": "resign"}, {"type": "roll", "dice": 31}, {"type": "roll", "dice": [[3], 1]},
    {"type": "roll", "dice": [3, 1], "play": "8/5"}, {"type": "take", "level": 1},
    {"type": ["roll"]}, {"type": "move", "play": ["8/5"]},
])
def test_bad_action_json_is_refused(bad: object) -> None:
    with pytest.raises(RecordError):
        action_from_json(bad)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
_kinds = st.sampled_from(sorted({cls.kind for cls in ACTION_TYPES}) + ["", "fly"])


@settings(max_examples=400, deadline=None)
@given(data=st.one_of(
    _json,
    st.fixed_dictionaries({"type": _kinds}, optional={"dice": _json, "play": _json, "level": _json,
                                                      "extra": _json}),
    st.fixed_dictionaries({"type": _kinds, "dice": st.lists(st.integers(-1, 8), max_size=3),
                           "level": st.integers(-1, 4)}),
))
def test_any_json_value_is_an_action_or_a_clear_refusal(data: object) -> None:
    try:
        action = action_from_json(data)
    except TableError as exc:
        assert str(exc)
        return
    # Whatever is accepted writes back to the same JSON (Roll() reads back with dice None).
    assert action_from_json(action.to_json()) == action
    assert isinstance(data, dict) and data["type"] == action.kind


@settings(max_examples=150, deadline=None)
@given(action=st.one_of(
    st.builds(Resign, _json), st.builds(Roll, _json), st.builds(OpeningRoll, _json),
    st.builds(Move, _json)))
def test_match_apply_refuses_malformed_actions_cleanly(action: Action) -> None:
    for m in (Match(length=3, seed=1), _rolled(), _rolled(then_play=True)):
        before = m.state
        try:
            m.apply(action)
        except TableError:
            assert m.state == before


def _rolled(then_play: bool = False) -> Match:
    m = Match(length=3, seed=1)
    m.apply(OpeningRoll((3, 1)))
    if then_play:
        m.apply(Move("8/5 6/5"))
    return m


def test_saved_match_resumes_exactly_where_it_stopped() -> None:
    m = Match(length=7, seed=9, players=("Anca", "Bogdan"))
    for _ in range(15):
        m.apply(random.Random(len(m.actions)).choice(m.legal_actions()))
    text = json.dumps(m.to_json())
    restored = Match.from_json(text, seed=77)
    assert restored.state == m.state and restored.actions == m.actions
    assert restored.players == ("Anca", "Bogdan") and restored.legal_actions() == m.legal_actions()
    assert restored.match_id == m.match_id
    # Both go on identically given the same future dice.
    again = Match.from_json(text, seed=77)
    for _ in range(10):
        action = restored.legal_actions()[0]
        assert restored.apply(action) == again.apply(action)


def test_restore_checks_schema_and_names_the_bad_action() -> None:
    good = Match(length=3, seed=1)
    good.apply(OpeningRoll((3, 1)))
    data = good.to_json()
    with pytest.raises(RecordError, match="version"):
        Match.from_json({**data, "version": 99})
    with pytest.raises(RecordError, match="format"):
        Match.from_json({**data, "format": "chess"})
    with pytest.raises(RecordError, match="action 2"):
        Match.from_json({**data, "actions": data["actions"] + [{"type": "move", "play": "24/1"}]})
    with pytest.raises(RecordError, match="length"):
        Match.from_json({k: v for k, v in data.items() if k != "length"})
    with pytest.raises(RecordError):
        Match.from_json("{not json")


def test_match_id_of_every_state_matches_the_state() -> None:
    for m in _states_of_a_match():
        info = decode_match_id(m.match_id)
        assert info.match_length == 5 and info.score == m.score
        assert info.cube_value == m.cube_value and info.cube_owner == m.cube_owner
        assert info.crawford == m.crawford
        assert info.double_offered == (m.phase == Phase.TAKE)
        assert info.resignation == m.resignation
        assert info.dice == (m.dice or (0, 0))
        expected_state = {Phase.OPENING: GameState.NO_GAME}.get(m.phase, GameState.PLAYING)
        if m.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            assert info.game_state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
        else:
            assert info.game_state == expected_state
            if m.turn is not None:
                assert info.turn == m.turn
        assert m.gnubg_id == f"{m.position.id}:{m.match_id}"


def test_any_unfinished_state_can_be_set_up_from_its_ids() -> None:
    for m in _states_of_a_match(seed=11):
        if m.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            continue
        copy = Match.from_ids(m.position.id, m.match_id)
        a, b = copy.state, m.state
        assert (a.phase, a.position, a.on_roll, a.dice, a.cube_value, a.cube_owner, a.score,
                a.crawford, a.resign_level) == \
               (b.phase, b.position, b.on_roll, b.dice, b.cube_value, b.cube_owner, b.score,
                b.crawford, b.resign_level)
        assert copy.turn == m.turn and copy.match_id == m.match_id
        # A set-up match saves and restores too.
        assert Match.from_json(copy.to_json()).state == copy.state


def test_resignation_while_facing_a_double_survives_the_match_id() -> None:
    m = Match.from_ids("4HPwATDgc/ABMA", encode_match_id(MatchInfo(match_length=5)))
    m.apply(Roll((3, 1)))
    m.apply(Move("8/5 6/5"))
    m.apply(Double())
    m.apply(Resign(2))
    copy = Match.from_ids(m.position.id, m.match_id)
    copy.apply(AcceptResignation())
    m.apply(AcceptResignation())
    assert copy.score == m.score == (0, 2)


# GNU Backgammon 1.07, two human players, manual dice: opening 31 for player 0 (8/5 6/5),
# player 1 rolls 64 and offers to resign a single game.  The IDs it showed then:
RESIGNED_WITH_DICE = ("sGfwATDgc/ABMA", "cCFzAAAAAAAE")


def test_resignation_after_rolling_set_up_from_gnu_backgammon_ids() -> None:
    m = Match.from_ids(*RESIGNED_WITH_DICE)
    assert (m.phase, m.turn, m.on_roll, m.dice, m.resignation) == (Phase.RESIGN, 0, 1, (6, 4), 1)
    # Our Match ID says the same (GNU Backgammon also sets a spare bit the key does not hold).
    assert decode_match_id(m.match_id) == decode_match_id(RESIGNED_WITH_DICE[1])
    rejected = Match.from_ids(*RESIGNED_WITH_DICE)
    rejected.apply(RejectResignation())
    assert (rejected.phase, rejected.turn, rejected.dice) == (Phase.MOVE, 1, (6, 4))
    assert Resign(1) not in rejected.legal_actions()
    m.apply(AcceptResignation())
    assert m.score == (1, 0) and m.game_result is not None and m.game_result.how == "resign"


def test_resignation_after_rolling_survives_the_match_id_and_json() -> None:
    m = Match(length=5, seed=3)
    m.apply(OpeningRoll((3, 1)))
    m.apply(Move("8/5 6/5"))
    m.apply(Roll((6, 4)))
    m.apply(Resign(2))
    copy = Match.from_ids(m.position.id, m.match_id)
    assert copy.state.resume_phase == Phase.MOVE and copy.dice == (6, 4) and copy.turn == 0
    restored = Match.from_json(m.to_json())
    assert restored.state == m.state
    for match in (copy, restored, m):
        match.apply(AcceptResignation())
        assert match.score == (2, 0)


def test_setting_up_without_a_cube_or_off_limits_is_refused() -> None:
    with pytest.raises(MatchSettingsError, match="without a cube"):
        Match.from_ids("4HPwATDgc/ABMA", encode_match_id(MatchInfo(cube_value=2, cube_owner=0)),
                       cube=False)
    # Matches to 64 points, as GNU Backgammon's Match IDs hold them.
    assert Match.from_ids("4HPwATDgc/ABMA", encode_match_id(MatchInfo(match_length=64))).length == 64


def test_set_up_match_plays_on_with_a_take() -> None:
    info = MatchInfo(player_on_roll=1, turn=0, double_offered=True, match_length=9, score=(2, 4))
    m = Match.from_ids("4HPwATDgc/ABMA", encode_match_id(info))
    assert m.phase == Phase.TAKE and m.turn == 0
    m.apply(Take())
    assert (m.cube_value, m.cube_owner, m.turn) == (2, 0, 1)


# GNU Backgammon writes each game's opening roll as "no game yet" with the dice set, the
# Position ID the starting position: 36 of 2,416 IDs of its exports were such (issue 48).
OPENING_ROLL = ("4HPwATDgc/ABMA", "cAizAAAAAAAE")


def test_gnu_backgammons_opening_roll_ids_set_up_the_roll_to_play() -> None:
    m = Match.from_ids(*OPENING_ROLL)
    assert (m.phase, m.turn, m.on_roll, m.dice, m.length, m.score) == \
        (Phase.MOVE, 1, 1, (6, 4), 5, (0, 0))
    assert m.position == Position.initial() and "double" not in m.legal_kinds()
    m.apply(Move("24/18 13/9"))
    # The first move has been played: the other player may double now.
    assert (m.phase, m.turn) == (Phase.ROLL, 0) and m.may_double()
    assert Match.from_json(m.to_json()).state == m.state


def test_an_opening_roll_id_on_a_later_game_keeps_its_score_and_crawford() -> None:
    text = encode_match_id(MatchInfo(player_on_roll=0, turn=0, crawford=True,
                                     game_state=GameState.NO_GAME, dice=(5, 2),
                                     match_length=7, score=(6, 3)))
    m = Match.from_ids("4HPwATDgc/ABMA", text)
    assert (m.phase, m.turn, m.dice, m.score, m.crawford) == (Phase.MOVE, 0, (5, 2), (6, 3), True)


def test_an_opening_roll_id_is_refused_off_the_starting_position() -> None:
    with pytest.raises(MatchSettingsError, match="starting position"):
        Match.from_ids(RESIGNED_WITH_DICE[0], OPENING_ROLL[1])


# Match IDs GNU Backgammon 1.07's `set matchid` accepts, beyond the consistent ones we
# write; each expectation is what GNU Backgammon showed or did after reading the ID.

def _gnubg_key(**fields: int) -> str:
    from tests.notation.gnubg_matchids import make_id
    return make_id(**fields)


AFTER_31 = RESIGNED_WITH_DICE[0]  # player 0 has played 31 (8/5 6/5), seen from player 1


def test_a_game_over_id_sets_up_the_match_between_games() -> None:
    # gnubg: game over at 4-2 in a 5-point match; `new game` then starts a game
    # that is not the Crawford game.  Its 2, 3 and 4 (resigned, dropped) read alike.
    for state in (2, 3, 4):
        m = Match.from_ids(AFTER_31, _gnubg_key(state=state, length=5, score0=4, score1=2,
                                                dice_owner=1, cube=2, owner=0, resign=2))
        assert (m.phase, m.score, m.length, m.crawford) == (Phase.OPENING, (4, 2), 5, False)
        assert (m.position, m.cube_value, m.cube_owner) == (Position.initial(), 1, None)
        m.apply(OpeningRoll((3, 1)))
        assert (m.phase, m.turn) == (Phase.MOVE, 0)


def test_a_game_over_id_at_the_match_length_is_a_finished_match() -> None:
    # gnubg: `new game` answers "The match is already over."
    m = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(state=2, length=5, score0=5, score1=3))
    assert m.is_over and m.winner == 0 and m.score == (5, 3) and m.legal_actions() == []
    # gnubg also keeps a score at the length in a game "being played": the match is over.
    playing = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(state=1, length=5, score1=5))
    assert playing.is_over and playing.winner == 1
    assert Match.from_ids(m.position.id, m.match_id).state == m.state


def test_game_states_5_to_7_are_no_game_in_progress() -> None:
    # gnubg: "No game in progress (type `new game' to start one)."
    for state in (5, 6, 7):
        m = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(state=state, length=5, score0=1))
        assert (m.phase, m.score) == (Phase.OPENING, (1, 0))


def test_our_own_finished_match_ids_read_back() -> None:
    m = Match(length=3, seed=8)
    rng = random.Random(8)
    choose = random_player(rng, cube_rate=0.5, resign_rate=0.0)
    while not m.is_over:
        m.apply(choose(m.legal_actions()))
    copy = Match.from_ids(m.position.id, m.match_id)
    assert copy.is_over and copy.score == m.score and copy.winner == m.winner
    # How the last game ended (dropped, resigned) is not kept: its ID says "game over".
    ours, back = decode_match_id(m.match_id), decode_match_id(copy.match_id)
    assert back == replace(ours, game_state=GameState.OVER)
    assert Match.from_ids(copy.position.id, copy.match_id).match_id == copy.match_id


def test_a_double_gnubg_cannot_hold_steps_back_to_the_doubler_on_roll() -> None:
    # gnubg: "SetMatchID cannot handle positions where a double has been offered.
    # Stepping back to the offering of the cube." -- the doubler, the player other than
    # `turn`, is then on roll.
    m = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(double=1, turn=0, dice_owner=0, cube=1,
                                                    owner=0))
    assert (m.phase, m.turn, m.on_roll, m.cube_value, m.cube_owner) == (Phase.ROLL, 1, 1, 2, 0)
    rolled = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(double=1, turn=1, dice_owner=0,
                                                         die1=3, die2=1))
    assert (rolled.phase, rolled.turn, rolled.dice) == (Phase.MOVE, 0, (3, 1))


def test_whose_turn_follows_gnubg_when_turn_and_roller_differ() -> None:
    # gnubg, nothing pending: `roll` rolls for the player whose turn it is.
    m = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(turn=1, dice_owner=0))
    assert (m.phase, m.turn) == (Phase.ROLL, 1)
    # gnubg, dice set: the dice owner is to play them.
    rolled = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(turn=1, dice_owner=0, die1=3, die2=1))
    assert (rolled.phase, rolled.turn, rolled.dice) == (Phase.MOVE, 0, (3, 1))
    # gnubg drops a resignation that the dice owner cannot have made with the dice rolled.
    kept = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(turn=0, dice_owner=0, resign=2,
                                                       die1=3, die2=1))
    assert (kept.phase, kept.turn, kept.resignation) == (Phase.MOVE, 0, 0)
    # An opening roll "out of turn": GNU Backgammon holds no game, we let its winner play it.
    opening = Match.from_ids("4HPwATDgc/ABMA", _gnubg_key(state=0, dice_owner=1, turn=0,
                                                          die1=6, die2=4))
    assert (opening.phase, opening.turn, opening.dice) == (Phase.MOVE, 1, (6, 4))


def test_odd_cube_dice_and_crawford_fields_read_as_gnubg_settles_them() -> None:
    start = "4HPwATDgc/ABMA"
    # Owner bits 10: a centred cube.  A 8192-cube: "You must specify a legal cube value", 1.
    assert Match.from_ids(start, _gnubg_key(cube=1, owner=2)).state.cube_owner is None
    assert Match.from_ids(start, _gnubg_key(cube=13, owner=0)).cube_value == 1
    assert Match.from_ids(start, _gnubg_key(cube=12, owner=1)).cube_value == 4096
    # One die: no roll.
    for d1, d2 in ((4, 0), (0, 4)):
        assert Match.from_ids(start, _gnubg_key(die1=d1, die2=d2)).phase == Phase.ROLL
    # A Crawford flag at 0-0 is dropped; in the Crawford game the cube is out of play.
    assert Match.from_ids(start, _gnubg_key(crawford=1)).crawford is False
    crawford = Match.from_ids(start, _gnubg_key(crawford=1, score0=4, cube=2, owner=0))
    assert (crawford.crawford, crawford.cube_value, crawford.cube_owner) == (True, 1, None)
    # A double dice opening roll is no opening roll.
    assert Match.from_ids(start, _gnubg_key(state=0, die1=6, die2=6)).phase == Phase.OPENING


def test_every_match_id_gnubg_accepts_sets_up_a_match() -> None:
    from tests.notation.test_gnubg_matchids import gnubg_verdicts

    read = 0
    for text, accepted in gnubg_verdicts().items():
        if not accepted:
            continue
        info = decode_match_id(text)
        for position in ("4HPwATDgc/ABMA", AFTER_31):
            if position != "4HPwATDgc/ABMA" and info.game_state == GameState.NO_GAME:
                continue  # no game yet: the checkers are at the start
            m = Match.from_ids(position, text)
            assert m.score == info.score and m.length == info.match_length
            # What it writes reads back to the same state.
            assert Match.from_ids(m.position.id, m.match_id).state == m.state, text
            read += 1
    assert read > 1500


def test_every_state_of_a_match_reads_back_from_its_ids() -> None:
    for m in _states_of_a_match(seed=5):
        copy = Match.from_ids(m.position.id, m.match_id)
        assert copy.score == m.score
        if m.phase == Phase.GAME_OVER:
            assert copy.phase == Phase.OPENING
        else:
            assert copy.phase == m.phase
