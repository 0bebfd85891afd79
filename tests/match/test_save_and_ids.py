"""Lossless JSON save and restore, Match IDs of every state, and matches set up from IDs."""

from __future__ import annotations

import json
import random

import pytest

from table.errors import MatchSettingsError, RecordError
from table.match import Match, Move, OpeningRoll, Phase, Resign, Roll, action_from_json
from table.match.actions import ACTION_TYPES, AcceptResignation, Double, Take
from table.notation.matchid import GameState, MatchInfo, decode_match_id, encode_match_id

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
    samples = [OpeningRoll((5, 2)), Roll((6, 6)), Roll(), Move("8/5 6/5"), Move(""), Resign(3)]
    samples += [cls() for cls in ACTION_TYPES if cls.kind not in
                ("opening_roll", "roll", "move", "resign")]  # type: ignore[call-arg]
    for action in samples:
        text = json.dumps(action.to_json())
        assert action_from_json(json.loads(text)) == action


@pytest.mark.parametrize("bad", [
    None, [], {"type": "roll", "dice": [7, 1]}, {"type": "move"}, {"type": "resign", "level": 4},
    {"type": "opening_roll", "dice": [3, 3]}, {"type": "resign", "level": True},
])
def test_bad_action_json_is_refused(bad: object) -> None:
    with pytest.raises(RecordError):
        action_from_json(bad)


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


def test_setting_up_a_finished_game_or_a_wrong_turn_is_refused() -> None:
    over = encode_match_id(MatchInfo(match_length=5, game_state=GameState.OVER))
    with pytest.raises(MatchSettingsError, match="finished"):
        Match.from_ids("4HPwATDgc/ABMA", over)
    with pytest.raises(MatchSettingsError, match="turn"):
        Match.from_ids("4HPwATDgc/ABMA", encode_match_id(MatchInfo(player_on_roll=0, turn=1)))
    with pytest.raises(MatchSettingsError, match="without a cube"):
        Match.from_ids("4HPwATDgc/ABMA", encode_match_id(MatchInfo(cube_value=2, cube_owner=0)),
                       cube=False)


def test_set_up_match_plays_on_with_a_take() -> None:
    info = MatchInfo(player_on_roll=1, turn=0, double_offered=True, match_length=9, score=(2, 4))
    m = Match.from_ids("4HPwATDgc/ABMA", encode_match_id(info))
    assert m.phase == Phase.TAKE and m.turn == 0
    m.apply(Take())
    assert (m.cube_value, m.cube_owner, m.turn) == (2, 0, 1)
