"""A game of Race, Dutch or Acey-Deucey set up from a position (``start``), as a program or a test
makes one: the Position ID with the checkers waiting off the board, and a Match ID."""

from __future__ import annotations

import pytest

from table.notation.matchid import MatchInfo, encode_match_id
from table.rules.position import Position
from table.server.play.game import Game, GameConfig, GameConfigError


def _match_id(dice: tuple[int, int]) -> str:
    return encode_match_id(MatchInfo(cube_value=1, cube_owner=None, player_on_roll=0, crawford=False, turn=0,
                                     double_offered=False, dice=dice, match_length=1, score=(0, 0)))


def test_a_race_starts_from_a_position_with_checkers_waiting():
    # One checker of ours still waits; the opponent has two waiting and one on its 3-point.
    position = Position.from_checkers({26: 1}, {26: 2, 3: 1}, "race")
    assert position.id == "BAAAAAAAAAAAAA:1:2"
    game = Game(GameConfig.from_json({"mode": "computer", "variant": "race",
                                      "start": {"position": position.id, "match": _match_id((0, 0))}}))
    view = game.view(frozenset({0}))
    assert view["waiting"] == [1, 2] and view["off"] == [14, 12] and "roll" in view["actions"]
    assert not game.match.cube_enabled  # Race has no cube, whatever the request left out


def test_an_acey_deucey_start_can_be_a_1_2_to_play():
    position = Position.from_checkers({26: 5, 20: 2}, {26: 10}, "acey-deucey")
    game = Game(GameConfig.from_json({"mode": "local", "variant": "acey-deucey",
                                      "start": {"position": position.id, "match": _match_id((2, 1))}}))
    assert game.match.dice == (2, 1) and game.match.position.waiting() == (5, 10)
    game.match.apply(next(a for a in game.match.legal_actions() if a.kind == "move"))
    # Naming the double: the same player is on turn (the board says whose turn it is) and may only name or resign.
    view = game.view(frozenset({0}))
    assert view["phase"] == "name_double" and view["turn"] == 0 and "name_double" in view["actions"]


@pytest.mark.parametrize(("start", "words"), [
    ({"xgid": "XGID=-C-----------------ba-----:1:1:-1:62:3:4:0:7:10"}, "an XGID cannot hold the checkers"),
    ({"position": "4HPwATDgc/ABMA", "match": "MAEgAAAAAAAA"}, "cannot be read"),  # no waiting counts
    ({"position": "AAAAAAAAAAAAAA:16:15", "match": "MAEgAAAAAAAA"}, "at most 15"),
])
def test_a_start_that_cannot_be_a_race_position_is_refused_saying_why(start, words):
    with pytest.raises(GameConfigError, match=words):
        GameConfig.from_json({"mode": "computer", "variant": "race", "start": start})
