"""Nackgammon at online tables: made, listed, started from its own position, rated on its own,
kept on a rematch and at turn-based tables, exported with its variation; an unknown variant is refused."""

from __future__ import annotations

import threading
import urllib.request

import pytest

from table import Position
from table.client import ClientError, OnlineClient
from table.match.records import match_from_mat
from table.server.online.ratings import Rating, rate

from tests.server.test_online_bots import server  # noqa: F401 - fixture

NACK_START = "4Dl4ADbgOXgANg"  # GNU Backgammon's Nackgammon start (issue 49)


def guests(url, *names, person=True):
    clients = []
    for name in names:
        c = OnlineClient(url, "easy", timeout=60)
        answer = c.request("POST", "/api/guests", {"name": name, "bot": not person})
        c.token, c.name = answer["token"], answer["player"]["name"]
        clients.append(c)
    return clients


def text_of(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode()


def play_out(a, b, table_id):
    """Both clients play the match at ``table_id`` to its end; the creator's outcome."""
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("a", a.play(a.wait_for_game(table_id))))
    thread.start()
    b.play(b.join(table_id))
    thread.join(120)
    return out["a"]


def test_a_nackgammon_table_is_listed_and_starts_from_its_position(server):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(1, "relaxed", variant="nackgammon")
    assert table["variant"] == "nackgammon"
    [listed] = bo.request("GET", "/api/tables")["open"]
    assert listed["id"] == table["id"] and listed["variant"] == "nackgammon"
    assert bo.request("GET", f"/api/tables/{table['id']}")["table"]["variant"] == "nackgammon"
    game = bo.join(table["id"])
    config = storage.load(game)[0]
    assert config["variant"] == "nackgammon"
    from table.server.play.game import Game, GameConfig

    start = Game(GameConfig.from_json(config, online=True)).match.position
    assert start.id == NACK_START and start == Position.initial("nackgammon")


def test_a_standard_table_is_as_before_and_says_so(server):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(3, "relaxed")
    assert table["variant"] == "standard"
    assert storage.table(table["id"]).settings == {"length": 3, "cube": True, "clock": "relaxed",
                                                    "private": False, "rated": True}
    game = bo.join(table["id"])
    assert "variant" not in storage.load(game)[0]  # a standard game's settings are as they were


@pytest.mark.parametrize("variant", ["grasshopper", "", 7, "x" * 200])
def test_an_unknown_variant_is_refused_with_the_catalogue(server, variant):
    url, storage = server
    [ana] = guests(url, "Ana")
    with pytest.raises(ClientError) as caught:
        ana.request("POST", "/api/tables", {"length": 1, "variant": variant})
    assert caught.value.code == "unknown_variant"
    assert "standard, nackgammon" in str(caught.value)
    assert ana.request("GET", "/api/tables")["open"] == []


def test_the_variant_is_named_by_any_of_its_names(server):
    url, _ = server
    [ana] = guests(url, "Ana")
    table = ana.request("POST", "/api/tables", {"length": 1, "variant": "NackGammon"})["table"]
    assert table["variant"] == "nackgammon"


def test_a_turn_based_nackgammon_table_plays_nackgammon(server):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(3, "days3", variant="nackgammon")
    assert table["turn_based"] and table["variant"] == "nackgammon"
    game = bo.join(table["id"])
    assert storage.load(game)[0]["variant"] == "nackgammon"
    me = ana.request("GET", "/api/me")["tables"]
    assert [(t["id"], t["variant"]) for t in me] == [(table["id"], "nackgammon")]


def test_a_rated_nackgammon_match_moves_only_the_nackgammon_ratings(server):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(3, "relaxed", variant="nackgammon")
    outcome = play_out(ana, bo, table["id"])
    assert outcome.forfeit is None and max(outcome.score) >= 3
    assert outcome.state["view"]["variant"] == "nackgammon"
    winner, loser = outcome.names[outcome.winner], outcome.names[1 - outcome.winner]
    won, lost = rate(Rating(), Rating(), 3)
    w, lo = ana.request("GET", f"/api/players/{winner}"), ana.request("GET", f"/api/players/{loser}")
    # The rating shown first is standard backgammon's, untouched; Nackgammon's moved by the formula.
    assert (w["rating"], w["experience"], lo["rating"], lo["experience"]) == (1500, 0, 1500, 0)
    assert w["rating_history"] == [] == lo["rating_history"]
    assert w["variants"] == [{"variant": "nackgammon", "rating": round(won.rating, 2), "experience": 3,
                              "games": 1, "wins": 1, "losses": 0, "draws": 0}]
    assert lo["variants"] == [{"variant": "nackgammon", "rating": round(lost.rating, 2), "experience": 3,
                               "games": 1, "wins": 0, "losses": 1, "draws": 0}]
    assert ana.request("GET", "/api/leaderboard")["rows"] == []  # the standard leaderboard
    nack = ana.request("GET", "/api/leaderboard?variant=nackgammon")
    assert [(r["name"], r["value"]) for r in nack["rows"]] == [(winner, round(won.rating, 2)),
                                                                 (loser, round(lost.rating, 2))]
    assert nack["variant"] == "nackgammon"
    [row] = storage.match_results()
    assert row.outcome.variant == "nackgammon" and row.outcome.score == outcome.score
    [g] = ana.request("GET", f"/api/players/{winner}/games")["games"]
    assert g["variant"] == "nackgammon"
    # The records carry the variation, and the .mat reads back as the same Nackgammon match.
    game = outcome.state["game"]
    mat = text_of(f"{url}/api/games/{game}/record.mat")
    assert '; [Variation "NackGammon"]' in mat
    back = match_from_mat(mat)
    assert back.variant.name == "nackgammon" and tuple(back.score) == outcome.score
    assert "RU[" in text_of(f"{url}/api/games/{game}/record.sgf")
    assert ana.request("GET", f"/api/games/{game}/record.json")["variant"] == "nackgammon"
    export = ana.request("GET", f"/api/games/{game}/export")
    assert '; [Variation "NackGammon"]' in export["mat"] and "Nackgammon" in export["sgf"]


def test_an_unknown_leaderboard_variant_is_refused(server):
    url, _ = server
    [ana] = guests(url, "Ana")
    with pytest.raises(ClientError) as caught:
        ana.request("GET", "/api/leaderboard?variant=grasshopper")
    assert caught.value.code == "unknown_variant"


def test_a_rematch_keeps_the_variant(server):
    url, storage = server
    ana, bo = guests(url, "Ana", "Bo")
    table = ana.create(1, "relaxed", variant="nackgammon")
    play_out(ana, bo, table["id"])
    assert ana.request("POST", f"/api/tables/{table['id']}/rematch")["rematch"] == "asked"
    again = bo.request("POST", f"/api/tables/{table['id']}/rematch")
    assert again["rematch"] == "started" and again["table"]["variant"] == "nackgammon"
    assert storage.load(again["table"]["game"])[0]["variant"] == "nackgammon"


def test_bots_play_a_nackgammon_table_to_the_end(server):
    url, storage = server
    ana, bo = guests(url, "Ana-bot", "Bo-bot", person=False)
    table = ana.create(1, "relaxed", variant="nackgammon")
    outcome = play_out(ana, bo, table["id"])
    assert outcome.forfeit is None and outcome.winner in (0, 1)
    [row] = storage.match_results()
    assert row.outcome.variant == "nackgammon" and not row.outcome.rated


def test_the_command_line_bot_opens_a_nackgammon_table(server, capsys):
    from table.cli import main

    url, storage = server
    done = {}
    bot = threading.Thread(target=lambda: done.setdefault("rc", main(
        ["online", "--server", url, "--name", "Robo", "--level", "easy", "--create", "1", "--clock", "relaxed",
         "--variant", "nackgammon", "--lang", "en"])))
    bot.start()
    [maria] = guests(url, "Maria")
    import time

    deadline = time.monotonic() + 30
    while not (tables := maria.request("GET", "/api/tables")["open"]):
        assert time.monotonic() < deadline, "the bot opened no table"
        time.sleep(0.05)
    assert storage.table(tables[0]["id"]).settings["variant"] == "nackgammon"
    outcome = maria.play(maria.join(tables[0]["id"]))
    bot.join(60)
    assert done["rc"] == 0 and "is open (Nackgammon, a single game, clock relaxed)" in capsys.readouterr().out
    assert outcome.state["view"]["variant"] == "nackgammon" and outcome.winner in (0, 1)
