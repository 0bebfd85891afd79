"""Two bot clients (``table online``'s) play a whole match over real sockets; the ledger and player pages show it."""

from __future__ import annotations

import threading
import time

import pytest

from table.cli import main
from table.rules.dice import SeededDice
from table.server.app import create_app
from table.client import ClientError, OnlineClient
from table.server.online.ledger import LOSS, WIN
from table.server.edge.limits import Limits
from table.tools.bench.server import serving
from table.server.store import open_storage


@pytest.fixture
def server(tmp_path):
    storage = open_storage(tmp_path / "online.sqlite3")
    try:
        with serving(create_app(storage, SeededDice(5), limits=Limits(ws_messages_burst=10**6))) as port:
            yield f"http://127.0.0.1:{port}", storage
    finally:
        storage.close()


def test_two_bots_play_a_three_point_match_to_the_end(server):
    url, storage = server
    ana, ion = OnlineClient(url, "easy", timeout=60), OnlineClient(url, "easy", timeout=60)
    ana.register("Ana-bot")
    ion.register("Ion-bot")
    table = ana.create(3, "relaxed")
    assert ana.request("GET", "/api/tables")["open"][0]["players"][0] == {"name": "Ana-bot", "points": 0, "bot": True}
    outcomes = {}

    def creator():
        outcomes["ana"] = ana.play(ana.wait_for_game(table["id"]))

    thread = threading.Thread(target=creator)
    thread.start()
    outcomes["ion"] = ion.play(ion.join(table["id"]))
    thread.join(120)
    a, i = outcomes["ana"], outcomes["ion"]
    assert a.state["version"] == i.state["version"] and a.score == i.score and a.winner == i.winner
    assert max(a.score) >= 3 and a.forfeit is None and (a.seat, i.seat) == (0, 1)
    # Each game of the match posted one win and one loss of matching size; the points are their sums.
    lines = storage.ledger(game_id=a.state["game"])
    wins = [ln for ln in lines if ln.reason.startswith("win:")]
    losses = [ln for ln in lines if ln.reason.startswith("loss:")]
    assert len(wins) == len(losses) >= 1
    assert sorted(ln.amount * LOSS[1] for ln in wins) == sorted(ln.amount * WIN[1] for ln in losses)
    ids = storage.player_by_name_key("ana-bot").id, storage.player_by_name_key("ion-bot").id
    # A win is worth WIN[1] per match point it scored (level x cube): the wins add up to the score.
    assert a.score == tuple(sum(ln.amount // WIN[1] for ln in wins if ln.player_id == p) for p in ids)
    points = storage.points_of(ids)
    assert a.points == i.points == (points[ids[0]], points[ids[1]])
    page = ana.request("GET", "/api/players/ana-bot")
    assert page["name"] == "Ana-bot" and page["bot"] and page["points"] == points[ids[0]]
    assert page["record"]["games"] == len(wins) and len(page["recent"]) == len(wins)
    assert {r["opponent"] for r in page["recent"]} == {"Ion-bot"}
    winner_seat = a.winner
    winner_page = ana.request("GET", f"/api/players/{a.names[winner_seat]}")
    assert winner_page["record"]["wins"] >= 1
    assert storage.table(table["id"]).status == "finished"


def test_the_command_line_bot_joins_a_table_and_prints_the_score(server, capsys):
    url, _ = server
    person = OnlineClient(url, "easy")
    person.register("Maria")
    table = person.create(1, "relaxed")
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("o", person.play(person.wait_for_game(table["id"]))))
    thread.start()
    assert main(["online", "--server", url, "--name", "Robo", "--level", "easy", "--join", table["id"],
                 "--lang", "en"]) == 0
    thread.join(60)
    out = capsys.readouterr().out
    assert "Playing as Robo (a bot, easy)." in out and "Final score: Maria" in out
    assert f"{done['o'].names[done['o'].winner]} won the match." in out


def test_the_client_reports_the_servers_refusals(server):
    url, _ = server
    bot = OnlineClient(url)
    with pytest.raises(ClientError) as err:
        bot.register("Calculatorul")
    assert err.value.code == "reserved"
    bot.register("Robo2")
    with pytest.raises(ClientError) as err:
        bot.join("no-such-table")
    assert err.value.code == "not_found"


def test_the_command_line_bot_creates_a_table_and_waits_for_an_opponent(server, capsys):
    url, _ = server
    done = {}
    bot = threading.Thread(target=lambda: done.setdefault("rc", main(
        ["online", "--server", url, "--name", "Robo", "--level", "easy", "--create", "1", "--clock", "rapid",
         "--lang", "ro"])))
    bot.start()
    person = OnlineClient(url, "easy")
    person.register("Maria")
    deadline = time.monotonic() + 30
    while not (tables := person.request("GET", "/api/tables")["open"]):
        assert time.monotonic() < deadline, "the bot opened no table"
        time.sleep(0.05)
    assert tables[0]["players"][0]["bot"] and tables[0]["clock"] == "rapid" and tables[0]["length"] == 1
    outcome = person.play(person.join(tables[0]["id"]))
    bot.join(60)
    out = capsys.readouterr().out
    assert done["rc"] == 0 and "e deschisă (un singur joc, ceas rapid)" in out
    assert f"{outcome.names[outcome.winner]} a câștigat partida." in out
    assert "Puncte acum: Robo" in out


def test_the_online_benchmark_plays_its_matches_and_reports_figures():
    from table.tools.bench.online import measure

    # More tables open at once from one address than a real server allows one address: the load
    # generator lifts that cap as it lifts the rate limits.
    games = Limits().open_tables_per_address + 1
    f = measure(games=games, length=1, think=0.0, seconds=120, clients=2, evict=0.5, rounds=2)
    assert (f["finished"], f["error_count"], f["clients"]) == (2 * games, 0, 2)  # two rounds, new guests each
    assert len(f["rss_rounds_mib"]) == 2 and f["rss_rounds_mib"][-1] == f["rss_settled_mib"]
    assert f["actions"] > 30 and 0 < f["p50_ms"] <= f["p95_ms"] <= f["p99_ms"]
    # The opening (every socket at once) is told apart from the play after it; together they are all.
    assert 0 < f["connected_s"] < 60 and f["burst_actions"] + f["steady_actions"] == f["timed_actions"]
    assert f["steady_actions"] > 30 and 0 < f["steady_p50_ms"] <= f["steady_p95_ms"] <= f["steady_p99_ms"]
    assert f["rss_before_mib"] > 10 and f["rss_peak_mib"] >= f["rss_ready_mib"] >= f["rss_before_mib"]
    assert f["rss_settled_mib"] > 10 and f["evict_s"] == 0.5
    assert f["server_cpu_ms_per_action"] > 0


def test_the_client_reconnects_when_its_connection_is_lost(server, monkeypatch):
    url, _ = server
    a, b = OnlineClient(url, "easy"), OnlineClient(url, "easy")
    a.register("Rita")
    b.register("Radu")
    table = a.create(1, "relaxed")
    game = b.join(table["id"])
    real, calls = OnlineClient._play, []

    def flaky(self, game_id):
        calls.append(self.name)
        if len(calls) == 1:
            raise ConnectionResetError("the network went away")
        return real(self, game_id)

    monkeypatch.setattr(OnlineClient, "_play", flaky)
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("a", a.play(game)))
    thread.start()
    outcome = b.play(game)
    thread.join(60)
    assert len(calls) == 3 and done["a"].score == outcome.score and outcome.winner is not None
