"""Export, review and hints of Race, Dutch and Acey-Deucey games (issue 50): Table's JSON record
reads back to the same game, .mat and SGF are absent saying why, no XGID (it cannot hold checkers
waiting off the board: the extended Position ID is given); Race, Dutch and Acey-Deucey are reviewed."""

from __future__ import annotations

import json

import pytest

from table import Position
from table.bot import Bot
from table.bot.player import next_action
from table.match import Match, Move
from table.rules.dice import SeededDice
from table.server.learn import routes as learn_routes
from table.server.learn.routes import hint_for, ids_of, records_of, review_for_web, reviewable
from table.server.play.game import Game, GameConfig
from table.server.play.rooms import RoomError

from tests.match.helpers import reserve_setup

RESERVE = ("race", "dutch", "acey-deucey")


def played(m: Match, actions: int, bot: Bot) -> Match:
    """``m`` after ``actions`` actions (or to the end of its game) by ``bot`` for both sides."""
    for _ in range(actions):
        if m.game_result is not None:
            break
        m.apply(next_action(bot, m) if m.turn is not None else m.legal_actions()[0])
    return m


@pytest.mark.parametrize("variant", RESERVE)
def test_the_json_record_reads_back_to_the_same_game_and_mat_and_sgf_say_why_not(variant):
    m = played(Match(length=3, cube=False, seed=7, variant=variant), 60, Bot("easy", seed=3))
    records = records_of(m)
    assert records["mat"] is None and records["sgf"] is None
    assert "GNU Backgammon has no such variant" in records["why"] and "JSON record" in records["why"]
    back = Match.from_json(json.dumps(records["json"]))
    assert back.variant.name == variant and back.actions == m.actions
    assert (back.position, back.phase, back.score, back.dice, back.turn) == (m.position, m.phase, m.score, m.dice,
                                                                              m.turn)
    assert back.to_json() == records["json"]


def test_a_standard_game_keeps_its_records_and_has_the_json_one_too():
    m = played(Match(length=3, cube=True, seed=7), 10, Bot("easy", seed=3))
    records = records_of(m)
    assert "3 point match" in records["mat"] and records["sgf"].startswith("(;")
    assert "why" not in records and Match.from_json(json.dumps(records["json"])).position == m.position


@pytest.mark.parametrize("variant", RESERVE)
def test_no_xgid_where_checkers_wait_off_the_board_and_the_position_id_holds_them(variant):
    game = Game(GameConfig("local", 3, cube=variant == "dutch", variant=variant), SeededDice(4))
    game.apply_automatic(game.automatic())  # the opening roll: 15 checkers wait on each side
    ids = ids_of(game)
    assert ids["xgid"] is None
    assert ids["position"].endswith(":15:15")  # Table's extended Position ID: the waiting checkers
    assert Position.from_id(ids["position"], variant) == game.match.position
    assert ids["match"] == game.match.match_id


def test_a_nackgammon_game_still_has_its_xgid():
    game = Game(GameConfig("local", 3, variant="nackgammon"), SeededDice(4))
    game.apply_automatic(game.automatic())
    assert ids_of(game)["xgid"].startswith("XGID=")


@pytest.mark.parametrize("variant, opponent", [("race", {6: 14, 26: 1}), ("dutch", {6: 15})])
def test_race_and_dutch_are_reviewed_with_their_own_boards(variant, opponent):
    # The last two checkers on the 5 and the 2 with 5-2: 5/off 2/off wins; 5/3/off does not.
    m = reserve_setup(variant, {5: 1, 2: 1}, opponent, (5, 2), length=3, dice_source=SeededDice(1))
    m.apply(Move("5/off"))
    played(m, 200, Bot("easy", seed=1))
    assert m.game_result is not None
    review = review_for_web(json.dumps(m.to_json()), 0)
    first = review["decisions"][0]
    assert (first["played"], first["best"], first["mark"]) == ("5/off", "5/off 2/off", "??")
    board = first["board"]  # before the play, seat 0's checkers on 5 and 2, the opponent's waiting one
    assert board["points"][4] == 1 and board["points"][1] == 1 and board["off"][0] == 13
    assert board["waiting"] == [0, opponent.get(26, 0)]
    assert first["best_play"]["steps"] == [[5, 0], [2, 0]]


def test_acey_deucey_is_reviewed_and_a_game_the_review_cannot_weigh_is_refused_saying_why(monkeypatch):
    # The staged 1-2 turn is weighed since issue 50 (tests/bot/test_review_acey_deucey.py).
    reviewable(played(Match(length=1, cube=False, seed=7, variant="acey-deucey"), 20, Bot("easy", seed=3)))
    reviewable(Match(length=1, cube=False, variant="plakoto"))  # the Greek games since 7 December
    reviewable(Match(length=3, cube=False, variant="tavli"))  # and the Tavli match, each game as itself
    # Every game's turn is weighed now; one that were not would be refused, saying why.
    monkeypatch.setattr(learn_routes, "REVIEWED_TURNS", ("standard", "acey-deucey"))
    with pytest.raises(RoomError, match="does not weigh Plakoto yet") as refused:
        reviewable(Match(length=1, cube=False, variant="plakoto"))
    assert refused.value.code == "no_review"


@pytest.mark.parametrize("variant", ["race", "dutch"])
def test_a_hint_in_a_reserve_game_reads_its_variant(variant):
    game = Game(GameConfig("computer", 1, cube=False, variant=variant), SeededDice(4))
    game.apply_automatic(game.automatic())
    m = game.match
    hint = hint_for(m.position.id, m.match_id, False, True, variant)
    legal = {str(p) for p in m.position.legal_plays(m.dice)}
    assert hint["kind"] == "play" and hint["plays"] and {p["play"] for p in hint["plays"]} <= legal
    assert all(p["play"].startswith("in/") or " in/" in p["play"] for p in hint["plays"])  # all wait: they enter
