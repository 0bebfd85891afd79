"""Games of a variant on the server: the new-game setting, its refusals, the view, the computer
playing it with the networks ``evaluator_for`` gives it, and the records it exports."""

from __future__ import annotations

import pytest

from table.match import Match
from table.rules.dice import SeededDice
from table.rules.position import Position
from table.rules.variant import NACKGAMMON
from table.server.app import create_app
from table.server.learn.routes import replay_record
from table.server.play.computer import bot_for, task_for
from table.server.play.game import Game, GameConfig, GameConfigError
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path
from tests.server.test_api import new_game, play_out


@pytest.mark.parametrize("name", ["nackgammon", "NackGammon", " Nackgammon "])
def test_a_config_names_its_variant(name):
    config = GameConfig.from_json({"mode": "local", "variant": name})
    assert config.variant == "nackgammon"
    assert config.to_json()["variant"] == "nackgammon"
    assert GameConfig.from_json(config.to_json()) == config


def test_standard_backgammon_is_what_a_config_without_a_variant_plays():
    config = GameConfig.from_json({"mode": "local"})
    assert config.variant == "standard" and "variant" not in config.to_json()
    assert GameConfig.from_json({"mode": "local", "variant": "standard"}) == config


@pytest.mark.parametrize("raw, words", [
    ("fly", "variant: unknown variant 'fly': Table plays standard, nackgammon"),
    ("grasshopper", "variant: unknown variant 'grasshopper': Table plays standard, nackgammon"),
    ("", "variant: unknown variant ''"),
    (3, "variant must be the name of a variant (got 3)"),
    (None, "variant must be the name of a variant (got None)"),
])
def test_an_unknown_variant_is_refused_with_the_ones_there_are(raw, words):
    with pytest.raises(GameConfigError) as exc:
        GameConfig.from_json({"mode": "computer", "variant": raw})
    assert str(exc.value).startswith(words)


def test_a_new_nackgammon_game_through_the_api(client):
    g = new_game(client, mode="local", length=3, variant="nackgammon")
    v = g["view"]
    assert v["variant"] == "nackgammon"
    # Before the first move the board is Nackgammon's start, seat 0's 23-point held by two.
    assert v["points"][22] == 2 and v["points"][1] == -2 and v["points"][12] == 4 and v["points"][11] == -4 and v["off"] == [0, 0]
    assert v["pips"] == list(Position.initial("nackgammon").pip_counts())
    again = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    assert again["config"]["variant"] == "nackgammon" and again["view"] == v


@pytest.mark.parametrize("variant", ["grasshopper", 7])
def test_an_unknown_variant_gets_a_clear_400_and_no_game(client, variant):
    r = client.post("/api/games", json={"mode": "computer", "variant": variant})
    assert r.status_code == 400
    assert "variant" in r.json()["message"], r.json()


def test_a_standard_game_view_says_so(client):
    g = new_game(client, mode="local")
    assert g["view"]["variant"] == "standard" and "variant" not in g["config"]


def test_the_computer_plays_nackgammon_with_the_standard_networks():
    # Its decisions from a task equal its decisions from the whole match: test_computer_pool.
    assert bot_for("easy", "nackgammon").weights is bot_for("easy").weights
    game = Game(GameConfig("computer", length=1, variant="nackgammon"), SeededDice(5))
    game.apply_automatic(game.automatic())
    assert game.match.variant is NACKGAMMON and task_for(game, game.to_act).variant == "nackgammon"


def test_a_nackgammon_match_against_the_computer_runs_to_the_end_and_exports(client):
    g = new_game(client, level="easy", length=3, cube=False, variant="nackgammon")

    def decide(acts):
        return {"type": next(k for k in ("take", "roll") if k in acts)}

    v, _ = play_out(client, g["game"], g["token"], decide)
    assert v["over"] and max(v["score"]) >= 3
    export = client.get(f"/api/games/{g['game']}/export", headers=auth(g["token"])).json()
    assert '; [Variation "NackGammon"]' in export["mat"] and "Nackgammon]" in export["sgf"]
    for again in (Match.from_mat(export["mat"]), Match.from_sgf(export["sgf"])):
        assert again.variant is NACKGAMMON and list(again.score) == v["score"]


def test_a_pasted_nackgammon_record_replays_from_its_start():
    # The replay of a pasted record plays it as its variation says (read as standard
    # backgammon, its first Nackgammon move had no checker to move).
    game = Game(GameConfig("local", length=3, cube=False, variant="nackgammon"), SeededDice(8))
    while not game.is_over:
        auto = game.automatic()
        if auto is not None:
            game.apply_automatic(auto)
            continue
        seats = frozenset({0, 1})
        v = game.view(seats)
        game.act(seats, {"type": "next_game"} if "next_game" in v["actions"] else {"type": "roll"}
                 if "roll" in v["actions"] else {"type": "move", "steps": first_path(v["moves"])})
    replay = replay_record(game.match.to_mat())
    assert [s["kind"] for s in replay["steps"][1:]] == [a.kind for a in game.match.actions]
    start = replay["steps"][0]["board"]
    assert start["points"][22] == 2 and start["points"][1] == -2 and start["off"] == [0, 0]
    assert replay["length"] == 3 and replay["steps"][-1]["score"] == list(game.match.score)


def test_a_restarted_server_keeps_the_games_variant(db):
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(3))) as c:
        g = new_game(c, mode="local", length=3, variant="nackgammon")
    storage.close()
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(99))) as c:
        again = c.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    storage.close()
    assert again["config"]["variant"] == "nackgammon" and again["view"] == g["view"]
