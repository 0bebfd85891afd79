"""Hypergammon on the server: a match against the computer (Hypergammon's own networks, three
checkers a side) played to the end over HTTP, its view counting three checkers, its records
naming the variation as GNU Backgammon does."""

from __future__ import annotations

from table.bot.net import bundled
from table.match import Match
from table.rules.variant import HYPERGAMMON
from table.server.play.computer import bot_for

from tests.server.server_helpers import auth
from tests.server.test_api import new_game, play_out


def test_the_computer_plays_hypergammon_with_its_own_networks():
    assert bot_for("hard", "hypergammon").weights is bundled("hypergammon")
    assert bot_for("hard", "hypergammon").weights is not bot_for("hard").weights


def test_a_hypergammon_match_against_the_computer_runs_to_the_end_and_exports(client):
    g = new_game(client, level="medium", length=3, cube=True, variant="hypergammon")
    v = g["view"]
    assert v["variant"] == "hypergammon" and v["off"] == [0, 0]
    assert sorted(v["points"]) == [-1] * 3 + [0] * 18 + [1] * 3

    def decide(acts):
        return {"type": next(k for k in ("take", "roll") if k in acts)}

    v, _ = play_out(client, g["game"], g["token"], decide)
    assert v["over"] and max(v["score"]) >= 3
    export = client.get(f"/api/games/{g['game']}/export", headers=auth(g["token"])).json()
    assert '; [Variation "HyperGammon (3)"]' in export["mat"] and "Hypergammon3]" in export["sgf"]
    for again in (Match.from_mat(export["mat"]), Match.from_sgf(export["sgf"])):
        assert again.variant is HYPERGAMMON and list(again.score) == v["score"]
