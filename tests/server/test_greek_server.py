"""Plakoto, Fevga, Portes and the Tavli match on the server (issue 51): made through the game API
between two people on one device, played over HTTP and the WebSocket to the end, their views
(Plakoto's pins, Fevga's same-way numbering, the Tavli match's kind and current game), a draw in a
match and on the points ledger, the JSON record; the computer playing each (in its worker process as
in the server), its hints and reviews (not yet of a Tavli match); online tables of each, a bot's seat at them; bad input
refused with nothing changed."""

from __future__ import annotations

import sqlite3
import time

import pytest

from table.match import Match, Phase
from table.match.state import GameResult
from table.notation.matchid import MatchInfo, encode_match_id
from table.rules.dice import SeededDice
from table.rules.position import Position
from table.server.app import create_app
from table.server.play.computer import choose_action, task_for, think
from table.server.play.game import Game, GameConfig
from table.server.edge.limits import Limits
from table.server.online.ledger import LedgerError, game_entries
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path
from tests.server.test_api import act, new_game
from tests.server.test_faults_online import contents, failing, refused
from tests.server.test_review_acey_deucey_route import _done
from tests.server.test_online_tables import Site, make_site


def local(client, **settings):
    r = client.post("/api/games", json={"mode": "local", **settings})
    assert r.status_code == 201, r.text
    return r.json()


def seeded(db, seed):
    storage = open_storage(db)
    return storage, TestClient(create_app(storage, SeededDice(seed), limits=Limits(games_burst=10**6,
                                                                                      ws_messages_burst=10**6)))


def decide(view: dict) -> dict:
    acts = view["actions"]
    if "next_game" in acts:
        return {"type": "next_game"}
    if view["phase"] == "move":
        return {"type": "move", "steps": first_path(view["moves"])}
    return {"type": "roll"}


def on_board(view: dict) -> tuple[int, int]:
    """Each seat's checkers as the view counts them: on the points (pinned ones too), the bar (Portes)
    and borne off."""
    pins = view.get("pinned", [0] * 24)
    return (sum(v for v in view["points"] if v > 0) + sum(p > 0 for p in pins) + view["bar"][0] + view["off"][0],
            -sum(v for v in view["points"] if v < 0) + sum(p < 0 for p in pins) + view["bar"][1] + view["off"][1])


def ids(variant: str, mover: dict[int, int], opponent: dict[int, int], dice: tuple[int, int], *,
        pinned: str = "", length: int = 5, score: tuple[int, int] = (0, 0), seat: int = 0) -> dict[str, str]:
    """A ``start`` setting: ``seat`` to play ``dice`` (``mover``: its checkers in its own numbering;
    ``pinned``: Plakoto's pin suffix of the Position ID)."""
    position = Position.from_checkers(mover, opponent, variant).id + pinned
    match = encode_match_id(MatchInfo(cube_value=1, cube_owner=None, player_on_roll=seat, crawford=False,
                                      turn=seat, double_offered=False, dice=dice, match_length=length, score=score))
    return {"position": position, "match": match}


def games_in(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()


# One device ----------------------------------------------------------------------------------


def test_a_tavli_match_to_three_alternates_the_three_games_to_the_end_over_http(db):
    storage, c = seeded(db, 3)  # this seed's match has five games: the rotation comes round again
    with c:
        g = local(c, variant="Tavli", length=3)
        assert g["config"]["variant"] == "tavli" and g["config"]["cube"] is False
        s, played = g, []
        for _ in range(5000):
            v = s["view"]
            assert (v["kind"], v["series"]) == ("tavli", ["portes", "plakoto", "fevga"])
            assert on_board(v) == (15, 15) and v["cube"]["enabled"] is False
            if v["game_number"] > len(played):
                played.append(v["variant"])
            if v["over"]:
                break
            r = act(c, g["game"], g["token"], s["version"], decide(v))
            assert r.status_code == 200, r.text
            s = r.json()
        assert played == ["portes", "plakoto", "fevga", "portes", "plakoto"]
        assert v["over"] and max(v["score"]) == 3 and v["winner"] == v["score"].index(3)
        results = [m for m in c.get(f"/api/games/{g['game']}/moves").json()["moves"] if m["kind"] == "result"]
        assert len(results) == 5 and sum(r["points"] for r in results) == sum(v["score"])
        # The JSON record reads back as the same Tavli match; .mat and SGF say why they cannot hold it.
        export = c.get(f"/api/games/{g['game']}/export", headers=auth(g["token"])).json()
        assert export["mat"] is None and export["sgf"] is None and export["why_code"] == "variant"
        back = Match.from_json(export["json"])
        assert (back.kind, back.length, list(back.score), back.is_over) == ("tavli", 3, v["score"], True)
        again = c.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()["view"]
        assert again == v
        # The replay names the game of each step's board; Plakoto's boards show their pins.
        replay = c.get(f"/api/games/{g['game']}/replay").json()
        assert replay["variant"] == "tavli" and replay["steps"][-1]["board"] == {
            k: v[k] for k in replay["steps"][-1]["board"]}
        games = [st["variant"] for st in replay["steps"]]
        assert [x for n, x in enumerate(games) if n == 0 or games[n - 1] != x] == played
        assert all(("pinned" in st["board"]) is (st["variant"] == "plakoto") for st in replay["steps"])
        # The review weighs the whole match, each game as the game it is; a marked decision's board
        # is drawn as its game's (Plakoto's with its pins).
        url = f"/api/games/{g['game']}/review"
        assert c.post(url, json={"depth": 0}, headers=auth(g["token"])).status_code == 202
        deadline = time.monotonic() + 120
        while (review := c.get(url, headers=auth(g["token"])).json())["state"] == "running":
            assert time.monotonic() < deadline, "the review did not finish"
            time.sleep(0.2)
        assert review["state"] == "done", review
        decisions = review["review"]["decisions"]
        assert {d["game"] for d in decisions} == {1, 2, 3, 4, 5}
        marked = [d for d in decisions if d["mark"]]
        assert marked and all(d["variant"] == played[d["game"] - 1] for d in marked)
        assert all(("pinned" in d["board"]) is (d["variant"] == "plakoto") for d in marked)
        assert {d["variant"] for d in marked} >= {"plakoto", "fevga"}
    storage.close()


def test_a_fevga_game_is_played_to_the_end_over_the_websocket_numbered_the_same_way_round(db):
    storage, c = seeded(db, 5)
    with c:
        g = local(c, variant="fevga")
        start = g["view"]
        # Both start on their own 24-point: seat 1's is seat 0's 12.
        assert g["view"]["game_number"] == 1 and "pinned" not in start
        with c.websocket_connect(f"/ws/games/{g['game']}") as ws:
            ws.send_json({"type": "hello", "token": g["token"]})
            s = ws.receive_json()
            seat1_sources = set()
            for _ in range(3000):
                v = s["view"]
                assert on_board(v) == (15, 15)
                if v["over"]:
                    break
                if v["phase"] == "move" and v["turn"] == 1:
                    seat1_sources |= {e[0] for e in v["moves"]["nodes"][0]}
                ws.send_json({"type": "action", "version": s["version"], "action": decide(v)})
                s = ws.receive_json()
                assert s["type"] == "state", s
    v = s["view"]
    assert v["over"] and v["result"]["how"] == "checkers" and v["off"][v["winner"]] == 15
    # Seat 1 moved from seat 0's 12-point (its own 24) round past 1 to 13 (its own 1).
    assert 12 in seat1_sources and all(1 <= p <= 24 for p in seat1_sources)
    storage.close()


def test_a_plakoto_pin_is_in_the_view_and_the_pinned_checker_does_not_move(client):
    start = ids("plakoto", {24: 14, 8: 1}, {24: 14, 20: 1}, (2, 1), length=3)
    g = local(client, variant="plakoto", length=3, start=start)
    v = g["view"]
    assert v["pinned"] == [0] * 24 and v["phase"] == "move"
    r = act(client, g["game"], g["token"], g["version"], {"type": "move", "steps": [[8, 6], [6, 5]]})
    assert r.status_code == 200, r.text
    v = r.json()["view"]
    # Seat 1's checker on its 20-point (seat 0's 5) lies under seat 0's: -1 there, seat 0's on top.
    assert v["pinned"][4] == -1 and sum(map(abs, v["pinned"])) == 1 and v["points"][4] == 1
    assert on_board(v) == (15, 15) and v["off"] == [0, 0]
    assert v["last"]["hits"] == [False, True] and v["last"]["text"][0] == "8/5*"
    assert v["last"]["text"][1].endswith("*")
    while v["phase"] != "move":
        r = act(client, g["game"], g["token"], r.json()["version"], {"type": "roll"})
        v = r.json()["view"]
    assert v["turn"] == 1 and all(e[0] != 5 for e in v["moves"]["nodes"][0])  # the pinned checker stays


def test_a_drawn_plakoto_game_in_a_match_scores_nothing_and_the_match_goes_on(client):
    # Seat 0's mother is pinned on its 24-point; its checker on 3 pins seat 1's mother (seat 1's 24).
    start = ids("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pinned=":24:", score=(1, 3))
    g = local(client, variant="plakoto", length=5, start=start)
    assert g["view"]["pinned"][23] == 1
    r = act(client, g["game"], g["token"], g["version"], {"type": "move", "steps": [[6, 5], [3, 1]]})
    assert r.status_code == 200, r.text
    v = r.json()["view"]
    assert v["result"] == {"winner": v["result"]["winner"], "points": 0, "level": 0, "cube": 1, "how": "draw"}
    assert v["score"] == [1, 3] and v["winner"] is None and not v["over"] and v["actions"] == ["next_game"]
    # Both mothers pinned: seat 1's on seat 0's 1-point (the board's first pinned flag, where a
    # reserve board keeps its waiting checkers), seat 0's on its 24.  Nobody has borne off.
    assert v["pinned"][0] == -1 and v["pinned"][23] == 1 and "waiting" not in v
    assert on_board(v) == (15, 15) and v["off"] == [0, 0]
    moves = client.get(f"/api/games/{g['game']}/moves").json()["moves"]
    assert moves[-1] == {"kind": "result", "winner": v["result"]["winner"], "points": 0, "score": [1, 3]}
    r = act(client, g["game"], g["token"], r.json()["version"], {"type": "next_game"})
    v = r.json()["view"]
    assert v["game_number"] == 2 and v["variant"] == "plakoto" and v["result"] is None


def test_a_drawn_single_game_has_no_winner(client):
    start = ids("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pinned=":24:", length=0)
    g = local(client, variant="plakoto", start=start)
    v = act(client, g["game"], g["token"], g["version"], {"type": "move", "steps": [[6, 5], [3, 1]]}).json()["view"]
    assert v["over"] and v["winner"] is None and v["result"]["how"] == "draw"
    # The finished game is reviewed: its one play, the pin of the mother that drew it.
    url = f"/api/games/{g['game']}/review"
    r = client.post(url, json={"depth": 0}, headers=auth(g["token"]))
    assert r.status_code == 202, r.json()
    answer = _done(client, url, g["token"])
    assert answer["state"] == "done" and [d["played"] for d in answer["review"]["decisions"]] == ["6/5 3/1*"]


# Refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("body, code, words", [
    ({"variant": "tavli", "length": 4}, "bad_request", "a Tavli match is played to 3, 5 or 7 points (got 4)"),
    ({"variant": "tavli", "length": 1}, "bad_request", "a Tavli match is played to 3, 5 or 7 points (got 1)"),
    ({"variant": "grasshopper"}, "bad_request", "variant: unknown variant 'grasshopper': Table plays standard"),
    ({"variant": "plakoto", "cube": True}, "bad_request", "Plakoto is played without the doubling cube"),
    ({"variant": "tavli", "length": 3, "start": {"position": "4HPwATDgc/ABMA", "match": "cAkAAAAAAAAA"}},
     "bad_request", "a Tavli match starts from the opening"),
])
def test_a_bad_new_game_is_refused_with_the_reason_and_nothing_made(client, db, body, code, words):
    r = client.post("/api/games", json={"mode": "local", **body})
    assert r.status_code == 400 and r.json()["code"] == code and r.json()["message"].startswith(words), r.json()
    assert games_in(db) == 0 and len(client.app.state.rooms) == 0


def test_a_move_in_the_wrong_numbering_or_notation_is_refused_and_changes_nothing(client):
    # Fevga: seat 1 plays from its 24-point, which the wire numbers as seat 0's 12.
    start = ids("fevga", {24: 15}, {24: 15}, (6, 5), length=3, seat=1)
    g = local(client, variant="fevga", length=3, start=start)
    before = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    assert before["view"]["turn"] == 1 and before["view"]["points"][11] == -15
    for action, words in [({"type": "move", "steps": [[24, 18], [18, 13]]}, "step 1 (12/6) is not a legal move"),
                          ({"type": "move", "steps": [[12, 6], [12, 7]]}, "step 2 (24/19) is not a legal move"),
                          ({"type": "move", "steps": [[12, 6], [6, 25]]}, "step 2 (18/bar) is not a legal move"),
                          ({"type": "move", "play": "24/13"}, "a move is {\"type\": \"move\", \"steps\""),
                          ({"type": "move", "steps": [[12, 1]]}, "step 1 (24/13) is not a legal move")]:
        r = act(client, g["game"], g["token"], before["version"], action)
        assert r.status_code == 422 and r.json()["code"] == "illegal", r.json()
        assert words in r.json()["message"], r.json()
        assert client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json() == before
    # The first checker goes on alone (Fevga: the second leaves once it has passed seat 0's start),
    # from seat 1's 24 to its 13: seat 0's 12 to 1.
    r = act(client, g["game"], g["token"], before["version"], {"type": "move", "steps": [[12, 6], [6, 1]]})
    assert r.status_code == 200, r.json()
    v = r.json()["view"]
    assert v["points"][0] == -1 and v["points"][11] == -14 and v["last"]["text"] == ["12/1", "24/13"]


def test_a_backgammon_resignation_is_refused_in_the_greek_games_with_the_levels_there_are(client):
    g = local(client, variant="fevga", length=3)
    assert "resign" in g["view"]["actions"]
    r = act(client, g["game"], g["token"], g["version"], {"type": "resign", "level": 3})
    assert (r.status_code, r.json()["code"]) == (422, "illegal")
    assert r.json()["message"] == "Fevga may be resigned at level 1 or 2 only"
    assert client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()["version"] == g["version"]


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_a_game_of_each_against_the_computer_runs_to_the_end_over_http(client, variant):
    g = new_game(client, level="easy", length=1, variant=variant)
    assert g["config"]["variant"] == variant and g["config"]["cube"] is False
    s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    for _ in range(1000):
        v = s["view"]
        assert on_board(v) == (15, 15)
        if v["over"]:
            break
        r = act(client, g["game"], g["token"], s["version"], decide(v))
        assert r.status_code == 200, r.text
        s = r.json()
    assert v["over"] and v["result"]["how"] in ("checkers", "mother", "draw"), v.get("result")
    moves = client.get(f"/api/games/{g['game']}/moves", headers=auth(g["token"])).json()["moves"]
    assert {e["seat"] for e in moves if e["kind"] == "move" and e["steps"]} == {0, 1}  # both sides moved
    # Reviewed when over: every play of both sides weighed, a marked one drawn as absolute steps
    # (Fevga's numbered the same way round) that match its text from the player's own side.
    url = f"/api/games/{g['game']}/review"
    assert client.post(url, json={"depth": 0}, headers=auth(g["token"])).status_code == 202
    review = _done(client, url, g["token"])["review"]
    plays = [d for d in review["decisions"] if d["kind"] == "play"]
    assert {d["player"] for d in plays} == {0, 1} and len(review["totals"]) == 2
    for d in (d for d in plays if d["mark"]):
        assert d["best_play"]["text"][d["player"]] == d["best"] and d["played_play"]["text"][d["player"]] == d["played"]


def test_the_computer_decides_a_tavli_match_the_same_in_its_worker_as_in_the_server():
    # Both seats are the computer's: every decision of a Tavli match to 3, from the task a worker
    # gets (the IDs and the current game's name) and from the server's own game, through all three
    # games; Fevga's steps come numbered the same way round, Plakoto's never move a pinned checker.
    # Mediu: Ușor adds noise of its own to each decision.
    game = Game(GameConfig("computer", length=3, cube=False, level="medium", variant="tavli"), SeededDice(5))
    played: list[str] = []
    for _ in range(3000):
        if game.is_over:
            break
        if (auto := game.automatic()) is not None:
            game.apply_automatic(auto)
            continue
        if game.match.phase == Phase.GAME_OVER:
            game.act(frozenset({0, 1}), {"type": "next_game"})
            continue
        seat = game.to_act
        assert seat is not None
        if not played or played[-1] != game.match.variant.name:
            played.append(game.match.variant.name)
        action = think(task_for(game, seat))
        assert action == choose_action(game, seat)
        game.act(frozenset({seat}), action)  # refused if illegal: the steps are the seat's own
    assert game.is_over and max(game.match.score) == 3
    assert played[:3] == ["portes", "plakoto", "fevga"]


@pytest.mark.parametrize("variant", ["portes", "fevga"])
def test_a_hint_in_a_greek_game_ranks_its_legal_plays(client, variant):
    g = local(client, variant=variant)
    while g["view"]["phase"] != "move" or not g["view"]["moves"]:
        g = {**g, **act(client, g["game"], g["token"], g["version"], decide(g["view"])).json()}
    r = client.get(f"/api/games/{g['game']}/hint", headers=auth(g["token"]))
    assert r.status_code == 200, r.json()
    hint = r.json()
    assert hint["kind"] == "play" and hint["plays"] and hint["plays"][0]["diff"] == 0
    # Each advised play is legal for the mover: the engine reads it from the hint's IDs.
    position = Position.from_id(hint["ids"]["position"], variant)
    dice = Match.from_ids(hint["ids"]["position"], hint["ids"]["match"], cube=False, variant=variant).dice
    legal = {str(p) for p in position.legal_plays(dice)}
    assert {p["play"] for p in hint["plays"]} <= legal
    assert [p["equity"] for p in hint["plays"]] == sorted((p["equity"] for p in hint["plays"]), reverse=True)


def test_the_ledger_pays_a_draw_nothing_and_refuses_other_level_0_results():
    draw = GameResult(winner=0, points=0, level=0, cube=1, how="draw")
    assert [(e.player_id, e.amount, e.reason) for e in game_entries(draw, (4, 5), "g")] == [(4, 0, "draw"),
                                                                                          (5, 0, "draw")]
    for bad in (GameResult(winner=0, points=1, level=0, cube=1, how="checkers"),
                GameResult(winner=0, points=2, level=0, cube=1, how="draw")):
        with pytest.raises(LedgerError, match="a drawn game is level 0 for 0 points"):
            game_entries(bad, (4, 5), "g")


# Online tables -------------------------------------------------------------------------------


@pytest.fixture
def site(db):
    storage, now, clock, app = make_site(db, limits=Limits(games_burst=10**6, ws_messages_burst=10**6))
    with TestClient(app()) as c:
        yield Site(c, storage, now, clock)
    storage.close()


def seat_tokens(site, game, *tokens):
    """The tokens by the seat each holds."""
    by_seat = {}
    for t in tokens:
        [seat] = site.c.get(f"/api/games/{game}", headers=auth(t)).json()["seats"]
        by_seat[seat] = t
    return by_seat


def play_online(site, game, by_seat):
    s = site.c.get(f"/api/games/{game}", headers=auth(by_seat[0])).json()
    played = []
    for _ in range(5000):
        v = s["view"]
        if v["game_number"] > len(played):
            played.append(v["variant"])
        if v["over"]:
            return v, played
        seat = v["to_act"] if v["to_act"] is not None else 0
        s = site.c.get(f"/api/games/{game}", headers=auth(by_seat[seat])).json()
        r = act(site.c, game, by_seat[seat], s["version"], decide(s["view"]))
        assert r.status_code == 200, r.text
        s = r.json()
    raise AssertionError("the match did not end")


def test_an_online_tavli_table_is_listed_played_to_the_end_and_rated_as_tavli(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, variant="tavli", length=3, clock="untimed")
    assert table["variant"] == "tavli"
    [listed] = site.c.get("/api/tables").json()["open"]
    assert listed["id"] == table["id"] and listed["variant"] == "tavli"
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))
    assert r.status_code == 200, r.json()
    game = r.json()["table"]["game"]
    v, played = play_online(site, game, seat_tokens(site, game, ana, ion))
    assert played[:3] == ["portes", "plakoto", "fevga"] and v["kind"] == "tavli" and max(v["score"]) >= 3
    [row] = site.storage.match_results()
    assert row.outcome.variant == "tavli" and row.outcome.rated
    page = site.c.get("/api/players/Ana").json()
    assert [x["variant"] for x in page["variants"]] == ["tavli"] and page["experience"] == 0
    board = site.c.get("/api/leaderboard?variant=Tavli").json()
    assert board["variant"] == "tavli" and {r["name"] for r in board["rows"]} == {"Ana", "Ion"}
    # The stored log replays the match; .mat cannot hold it, and says why.
    record = site.c.get(f"/api/games/{game}/record.json").json()
    assert record["variant"] == "tavli" and record["length"] == 3 and record["log"]
    mat = site.c.get(f"/api/games/{game}/record.mat")
    assert (mat.status_code, mat.json()["code"]) == (409, "no_record") and "Tavli" in mat.json()["message"]


@pytest.mark.parametrize("variant", ["plakoto", "fevga", "portes"])
def test_a_turn_based_table_of_each_greek_game_starts_its_game(site, variant):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, variant=variant, length=1, clock="days3")
    assert table["turn_based"] and table["variant"] == variant
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion))
    game = r.json()["table"]["game"]
    view = site.c.get(f"/api/games/{game}").json()["view"]
    assert view["variant"] == variant and view["cube"]["enabled"] is False
    assert ("pinned" in view) is (variant == "plakoto")
    # Played to the end at the pace of the table; the ledger pays the winner as for any game.
    v, _ = play_online(site, game, seat_tokens(site, game, ana, ion))
    assert v["over"] and v["table"]["status"] == "finished" and v["result"]["how"] in ("checkers", "mother")
    amounts = sorted(e["amount"] for e in v["ledger"])
    assert amounts == sorted([20 * v["result"]["level"], -10 * v["result"]["level"]])


@pytest.mark.parametrize("settings, code, status", [
    ({"variant": "tavli", "length": 4}, "bad_request", 400),
    ({"variant": "fevga", "cube": True}, "bad_request", 400),
    ({"variant": "grasshopper"}, "unknown_variant", 400),
])
def test_a_bad_greek_table_is_refused_and_nothing_opened(site, settings, code, status):
    ana = site.guest("Ana")
    r = site.c.post("/api/tables", json=settings, headers=auth(ana))
    assert (r.status_code, r.json()["code"]) == (status, code), r.json()
    assert site.c.get("/api/tables").json()["open"] == []


def test_a_bot_may_open_and_join_a_greek_table(site):
    robo, ana, ion = site.guest("Robo", bot=True), site.guest("Ana"), site.guest("Ion")
    own = site.table(robo, variant="plakoto", length=1)
    table = site.table(ana, variant="fevga", length=1)
    r = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(robo))
    assert r.status_code == 200 and r.json()["table"]["status"] == "playing", r.json()
    r = site.c.post(f"/api/tables/{own['id']}/join", headers=auth(ion))
    assert r.status_code == 200 and r.json()["table"]["status"] == "playing", r.json()


def test_a_greek_table_that_cannot_be_stored_is_not_opened(site, db):
    ana = site.guest("Ana")
    lobby, before = site.c.get("/api/tables").json(), contents(db)
    with failing(db, "online_tables", "table_seats"):
        refused(site.c.post("/api/tables", json={"variant": "tavli", "length": 5}, headers=auth(ana)))
        assert contents(db) == before and site.c.get("/api/tables").json() == lobby
    assert site.c.post("/api/tables", json={"variant": "tavli", "length": 5}, headers=auth(ana)).status_code == 201


def test_an_online_draw_is_on_both_ledgers_at_0_and_the_match_goes_on(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, variant="plakoto", length=3, clock="untimed")
    game = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]["game"]
    by_seat = seat_tokens(site, game, ana, ion)
    # The match is brought to the drawing position (an online match cannot be set up from one).
    room = site.c.app.state.rooms._rooms[game]
    start = ids("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pinned=":24:", length=3)
    room.game.match = Match.from_ids(start["position"], start["match"], cube=False, variant="plakoto",
                                     dice=SeededDice(1))
    room.game._graph = None
    s = site.c.get(f"/api/games/{game}", headers=auth(by_seat[0])).json()
    r = act(site.c, game, by_seat[0], s["version"], {"type": "move", "steps": [[6, 5], [3, 1]]})
    assert r.status_code == 200, r.text
    v = r.json()["view"]
    assert v["result"]["how"] == "draw" and v["score"] == [0, 0] and not v["over"]
    lines = site.storage.ledger(game_id=game, limit=10)
    assert sorted((line.amount, line.reason) for line in lines) == [(0, "draw"), (0, "draw")]
    assert site.c.get("/api/players/Ana").json()["record"] == {"games": 1, "wins": 0, "losses": 0, "draws": 1}
    r = act(site.c, game, by_seat[0], r.json()["version"], {"type": "next_game"})
    assert r.status_code == 200 and r.json()["view"]["game_number"] == 2


def test_an_online_single_game_drawn_is_kept_as_a_draw_unrated(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, variant="plakoto", length=1, clock="untimed")
    game = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]["game"]
    by_seat = seat_tokens(site, game, ana, ion)
    room = site.c.app.state.rooms._rooms[game]  # brought to the drawing position, as above
    start = ids("plakoto", {3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, (2, 1), pinned=":24:", length=0)
    room.game.match = Match.from_ids(start["position"], start["match"], cube=False, jacoby=False,
                                     variant="plakoto", dice=SeededDice(1))
    room.game._graph = None
    s = site.c.get(f"/api/games/{game}", headers=auth(by_seat[0])).json()
    v = act(site.c, game, by_seat[0], s["version"], {"type": "move", "steps": [[6, 5], [3, 1]]}).json()["view"]
    assert v["over"] and v["winner"] is None and v["result"]["how"] == "draw"
    assert sorted((e["amount"], e["reason"]) for e in v["ledger"]) == [(0, "draw"), (0, "draw")]
    [row] = site.storage.match_results()
    assert (row.outcome.ended, row.outcome.rated, row.outcome.variant) == ("draw", False, "plakoto")
    for name in ("Ana", "Ion"):
        page = site.c.get(f"/api/players/{name}").json()
        assert (page["games"], page["wins"], page["losses"], page["draws"], page["streak"]) == (1, 0, 0, 1, 0)
        assert page["variants"] == [{"variant": "plakoto", "rating": 1500, "experience": 0, "games": 1,
                                     "wins": 0, "losses": 0, "draws": 1}]
        assert page["record"] == {"games": 1, "wins": 0, "losses": 0, "draws": 1}
    [listed] = site.c.get("/api/players/Ana/games").json()["games"]
    assert listed["ended"] == "draw" and listed["rated"] is False
    assert site.storage.site_results()["white"] == 0 == site.storage.site_results()["black"]


def test_an_online_plakoto_match_is_played_over_the_websocket(site):
    ana, ion = site.guest("Ana"), site.guest("Ion")
    table = site.table(ana, variant="plakoto", length=1, clock="relaxed")
    game = site.c.post(f"/api/tables/{table['id']}/join", headers=auth(ion)).json()["table"]["game"]
    by_seat = seat_tokens(site, game, ana, ion)
    with site.c.websocket_connect(f"/ws/games/{game}") as w0, site.c.websocket_connect(f"/ws/games/{game}") as w1:
        sockets = {0: w0, 1: w1}
        states = {seat: hello_state(ws, by_seat[seat]) for seat, ws in sockets.items()}
        pinned_seen = False
        for _ in range(3000):
            v = states[0]["view"]
            pinned_seen = pinned_seen or any(v["pinned"])
            assert on_board(v) == (15, 15) and v["variant"] == "plakoto"
            if v["over"]:
                break
            seat = v["to_act"]
            if seat is None or not states[seat]["view"]["actions"]:
                states = {s: next_state(ws) for s, ws in sockets.items()}
                continue
            sockets[seat].send_json({"type": "action", "version": states[seat]["version"],
                                     "action": decide(states[seat]["view"])})
            states = {s: next_state(ws) for s, ws in sockets.items()}
    assert v["over"] and v["result"]["how"] in ("checkers", "mother") and pinned_seen
    assert v["ids"]["position"] and v["table"]["status"] == "finished"


def hello_state(ws, token):
    ws.send_json({"type": "hello", "token": token})
    return next_state(ws)


def next_state(ws):
    """The next ``state`` message (chat history, presence and the like skipped)."""
    while True:
        m = ws.receive_json()
        assert m["type"] != "error", m
        if m["type"] == "state":
            return m
