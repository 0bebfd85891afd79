"""The game WebSocket's messages: one parser in, one encoder out (table.server.protocol)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.errors import TableError
from table.match.actions import AcceptResignation, Double, Drop, NextGame, RejectResignation, Resign, Roll, Take
from table.server.play.game import Game, GameConfig
from table.rules.dice import SeededDice
from table.server.protocol import (Act, Chat, ChatHistory, ChatLine, Decision, Events, Hello, Lobby, MoveSteps,
                                   Ping, Pong, Presence, ProtocolError, Refusal, Rematch, State, encode,
                                   parse_act, parse_action, parse_client)


@pytest.mark.parametrize("text, value", [
    ('{"type": "hello"}', Hello()),
    ('{"type": "hello", "token": ""}', Hello()),
    ('{"type": "hello", "token": "t", "since": 0}', Hello("t", 0)),
    ('{"type": "ping"}', Ping()),
    ('{"type": "chat", "channel": "players", "text": "Bună!"}', Chat("players", "Bună!")),
    ('{"type": "action", "action": {"type": "roll"}}', Act(Decision(Roll()))),
    ('{"type": "action", "version": 0, "action": {"type": "move", "steps": []}}', Act(MoveSteps(()), 0)),
    ('{"type": "action", "action": {"type": "move", "steps": [[25, 22], [13, 7]]}}',
     Act(MoveSteps(((25, 22), (13, 7))))),
    ('{"type": "action", "action": {"type": "resign", "level": 3}}', Act(Decision(Resign(3)))),
    ('{"type": "action", "action": {"type": "double"}}', Act(Decision(Double()))),
    ('{"type": "action", "action": {"type": "take"}}', Act(Decision(Take()))),
    ('{"type": "action", "action": {"type": "drop"}}', Act(Decision(Drop()))),
    ('{"type": "action", "action": {"type": "accept_resignation"}}', Act(Decision(AcceptResignation()))),
    ('{"type": "action", "action": {"type": "reject_resignation"}}', Act(Decision(RejectResignation()))),
    ('{"type": "action", "action": {"type": "next_game"}}', Act(Decision(NextGame()))),
])
def test_each_client_message_reads_as_its_value(text, value):
    assert parse_client(text) == value


@pytest.mark.parametrize("text, code, says", [
    (None, "bad_request", "not binary"),
    ("x" * 11, "too_large", "longer than 10 characters"),
    ("{", "bad_request", "not valid JSON"),
    ("[1]", "bad_request", "a JSON object"),
    ('{"type": "wave"}', "bad_request", "unknown message type 'wave'"),
    ('{"type": "hello", "token": 5}', "bad_token", "the token must be a string"),
    ('{"type": "hello", "since": -1}', "bad_request", "since must be a version"),
    ('{"type": "hello", "since": true}', "bad_request", "since must be a version"),
    ('{"type": "action", "version": 1.5, "action": {"type": "roll"}}', "bad_request", "version must be a whole"),
    ('{"type": "action", "action": "roll"}', "bad_request", "an action is a JSON object"),
    ('{"type": "action", "action": {"type": "fly"}}', "illegal", "unknown action 'fly'"),
    ('{"type": "action", "action": {"type": "roll", "dice": [6, 6]}}', "illegal", "the server rolls the dice"),
    ('{"type": "action", "action": {"type": "double", "cube": 2}}', "illegal", "double takes no cube"),
    ('{"type": "action", "action": {"type": "resign"}}', "illegal", "resign needs a level of 1, 2 or 3"),
    ('{"type": "action", "action": {"type": "resign", "level": true}}', "illegal", "got True"),
    ('{"type": "action", "action": {"type": "move", "steps": [[8, 5]] * 5}}', "illegal", "at most four steps"),
    ('{"type": "action", "action": {"type": "move", "steps": [[8, 27]]}}', "illegal", "points 0..25"),
    ('{"type": "action", "action": {"type": "name_double", "number": 7}}', "illegal", "a number from 1 to 6"),
    ('{"type": "action", "action": {"type": "name_double"}}', "illegal", "got None"),
    ('{"type": "action", "action": {"type": "name_double", "number": 6, "dice": [6, 6]}}', "illegal", "takes no dice"),
    ('{"type": "action", "action": {"type": "move", "steps": [[8, 5]], "play": "8/5"}}', "illegal", "a move is"),
    ('{"type": "chat", "channel": "players", "text": "hi", "to": "Ana"}', "bad_request", "a chat message is"),
])
def test_a_refused_message_says_what_is_wrong(text, code, says):
    if text is not None and "* 5" in text:
        text = json.dumps({"type": "action", "action": {"type": "move", "steps": [[8, 5]] * 5}})
    with pytest.raises(ProtocolError) as refused:
        parse_client(text, max_chars=10 if code == "too_large" else None)
    assert refused.value.code == code and says in str(refused.value)


def test_the_http_action_body_is_read_by_the_same_parser():
    assert parse_act({"version": 3, "action": {"type": "take"}}) == Act(Decision(Take()), 3)
    with pytest.raises(ProtocolError, match="the body must be"):
        parse_act({"action": {"type": "take"}, "seat": 0})
    with pytest.raises(ProtocolError, match="unknown action"):
        parse_act({"action": {"type": "fly"}})


def test_next_game_ignores_what_else_it_carries_as_it_always_has():
    assert parse_action({"type": "next_game", "please": True}) == Decision(NextGame())


JSONS = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                  max_size=4), max_leaves=8)
MESSAGES = st.fixed_dictionaries({"type": st.sampled_from(["hello", "action", "chat", "ping", "x"])},
                                 optional={"token": JSONS, "since": JSONS, "version": JSONS, "channel": JSONS,
                                           "text": JSONS,
                                           "action": st.fixed_dictionaries(
                                               {"type": st.sampled_from(["move", "roll", "resign", "double",
                                                                         "next_game", "fly"])},
                                               optional={"steps": JSONS, "level": JSONS, "dice": JSONS})})


@given(st.one_of(JSONS, MESSAGES))
def test_any_json_is_a_message_or_a_clear_refusal(value):
    try:
        msg = parse_client(json.dumps(value))
    except TableError as exc:  # a ProtocolError, or a TextError for a string that cannot be stored
        assert str(exc) and getattr(exc, "code", "bad_request") in {"bad_request", "bad_token", "illegal"}
        return
    assert isinstance(msg, (Hello, Act, Chat, Ping))


def test_a_game_takes_a_typed_action_and_its_wire_form_alike():
    typed, wired = Game(GameConfig("local"), SeededDice(3)), Game(GameConfig("local"), SeededDice(3))
    typed.apply_automatic(typed.automatic())
    wired.apply_automatic(wired.automatic())
    both = frozenset({0, 1})
    assert typed.act(both, Decision(Resign(1))) == wired.act(both, {"type": "resign", "level": 1})
    with pytest.raises(TableError, match="unknown action"):
        wired.act(both, {"type": "fly"})


@pytest.mark.parametrize("message, wire", [
    (State("g", 2, [0], {"mode": "local"}, {"phase": "roll"}),
     {"type": "state", "game": "g", "version": 2, "seats": [0], "config": {"mode": "local"},
      "view": {"phase": "roll"}}),
    (Events(1, 2, [{"type": "roll", "seat": 0, "dice": [3, 1]}]),
     {"type": "events", "from": 1, "version": 2, "entries": [{"type": "roll", "seat": 0, "dice": [3, 1]}]}),
    (Refusal("illegal", "no"), {"type": "error", "code": "illegal", "message": "no"}),
    (Pong(), {"type": "pong"}),
    (Presence("g", [{"connected": True, "away_since": None}], 5.0),
     {"type": "presence", "game": "g", "presence": [{"connected": True, "away_since": None}], "now": 5.0}),
    (ChatLine("players", 7, "Ana", "Bună!", 9.0),
     {"type": "chat", "channel": "players", "id": 7, "from": "Ana", "text": "Bună!", "at": 9.0}),
    (ChatHistory("spectators", [ChatLine("spectators", 1, None, "hi", 2.0)]),
     {"type": "chat_history", "channel": "spectators",
      "messages": [{"channel": "spectators", "id": 1, "from": None, "text": "hi", "at": 2.0}]}),
    (Rematch([1]), {"type": "rematch", "asked": [1]}),
    (Rematch([0, 1], "t", "g"), {"type": "rematch", "asked": [0, 1], "table": "t", "game": "g"}),
    (Lobby({"open": [], "playing": [], "now": 1.0}), {"type": "lobby", "open": [], "playing": [], "now": 1.0}),
])
def test_each_server_message_is_written_as_docs_protocol_shows_it(message, wire):
    text = encode(message)
    assert json.loads(text) == wire
    assert " " not in text.replace("Bună!", "") and "\\u" not in text  # compact, UTF-8 as is



def _json_trees(floats: bool) -> st.SearchStrategy[object]:
    leaves = st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.text(max_size=20)
    if floats:
        leaves = leaves | st.floats(allow_nan=False, allow_infinity=False)
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=5)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=30)


@given(_json_trees(floats=False))
def test_encode_json_writes_what_the_standard_librarys_compact_encoder_writes(tree):
    # The wire's bytes do not depend on which encoder wrote them (orjson, with the standard library's
    # encoder for what orjson cannot write, such as ints beyond 64 bits).
    from table.server.protocol import encode_json
    assert encode_json({"v": tree}) == '{"v":' + json.dumps(tree, separators=(",", ":"), ensure_ascii=False) + "}"


@given(_json_trees(floats=True))
def test_encode_json_reads_back_to_the_same_values(tree):
    # Floats are spelt as orjson spells them (1e-7, not 1e-07), but each reads back to the very same number.
    from table.server.protocol import encode_json
    assert json.loads(encode_json({"v": tree})) == {"v": tree}
