"""The move list, hint, export and review endpoints: who may ask, refusals, and answers off the event loop."""

from __future__ import annotations

import threading
import time

import pytest

from table.bot import Bot
from table.match import Match
from table.notation.xgid import from_xgid
from table.rules.position import Position
from table.server.learn import routes as learn
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.rules.dice import SeededDice
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path
from tests.server.test_api import act, new_game, to_move
from tests.server.test_online_tables import make_site, Site


def test_the_move_list_numbers_each_play_from_both_sides(client):
    g = new_game(client, mode="local", length=3)
    s = to_move(client, g["game"], g["token"])
    v = s["view"]
    steps = first_path(v["moves"])
    mover = v["turn"]
    s = act(client, g["game"], g["token"], s["version"], {"type": "move", "steps": steps}).json()
    listed = client.get(f"/api/games/{g['game']}/moves").json()["moves"]
    assert listed[0] == {"kind": "game", "game": 1, "score": [0, 0]}
    move = listed[1]
    assert move["kind"] == "move" and move["seat"] == mover
    assert move["dice"] == sorted(v["dice"], reverse=True)
    # The text is the state's own last-move text, from each side, and the board is the position after it.
    assert move["text"] == s["view"]["last"]["text"]
    assert move["board"] == {k: s["view"][k] for k in ("points", "bar", "off")}
    # Numbered from each side: seat 0's 24-point is seat 1's 1-point.
    first = steps[0]
    own = str(first[0]) if mover == 0 else str(25 - first[0])
    assert move["text"][mover].startswith(own if first[0] not in (0, 25) else "bar")


def _until_double(client, g):
    """Play first plays in a local cube game until the player on roll may double; that state."""
    s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    for _ in range(50):
        if "double" in s["view"]["actions"]:
            return s
        s = to_move(client, g["game"], g["token"])
        s = act(client, g["game"], g["token"], s["version"],
                {"type": "move", "steps": first_path(s["view"]["moves"])}).json()
    raise AssertionError("nobody could double")


def test_the_move_list_records_cube_actions_and_results(client):
    g = new_game(client, mode="local", length=1, cube=True)
    s = _until_double(client, g)
    doubler = s["view"]["turn"]
    s = act(client, g["game"], g["token"], s["version"], {"type": "double"}).json()
    s = act(client, g["game"], g["token"], s["version"], {"type": "drop"}).json()
    listed = client.get(f"/api/games/{g['game']}/moves").json()["moves"]
    assert listed[-3:] == [{"kind": "double", "seat": doubler, "cube": 1},
                           {"kind": "drop", "seat": 1 - doubler, "cube": 1},
                           {"kind": "result", "winner": doubler, "points": 1, "score": s["view"]["score"]}]


def test_the_move_list_is_asked_for_from_an_entry_on(client):
    # A client following a long match asks only for what came after the entries it has.
    g = new_game(client, mode="local", length=3)
    for _ in range(3):
        s = to_move(client, g["game"], g["token"])
        act(client, g["game"], g["token"], s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])})
    url = f"/api/games/{g['game']}/moves"
    whole = client.get(url).json()
    assert whole["from"] == 0 and whole["count"] == len(whole["moves"]) == 4  # the game's heading, three plays
    tail = client.get(url, params={"from": 2}).json()
    assert tail["from"] == 2 and tail["moves"] == whole["moves"][2:] and tail["count"] == 4
    assert tail["version"] == whole["version"]
    assert client.get(url, params={"from": 4}).json()["moves"] == []
    # Asked from past its end (a list restored shorter than the client's): the whole list.
    past = client.get(url, params={"from": 9}).json()
    assert past["from"] == 0 and past["moves"] == whole["moves"]
    for bad in ("-1", "two", "1.5", "9" * 12):
        r = client.get(url, params={"from": bad})
        assert r.status_code == 400 and "from is a whole number" in r.json()["message"], bad
    assert client.get(url).json() == whole


def test_no_move_list_of_a_game_that_does_not_exist_or_with_a_wrong_token(client):
    assert client.get("/api/games/nosuchgame/moves").status_code == 404
    g = new_game(client)
    assert client.get(f"/api/games/{g['game']}/moves", headers=auth("wrong")).status_code == 403


def test_the_hint_is_greus_ranking_of_the_position(client):
    g = new_game(client, mode="local", length=3)
    s = to_move(client, g["game"], g["token"])
    r = client.get(f"/api/games/{g['game']}/hint", headers=auth(g["token"]))
    assert r.status_code == 200, r.text
    hint = r.json()
    position = Position.from_id(hint["ids"]["position"])
    expected = Bot("hard").ranked_plays(position, s["view"]["dice"])
    assert hint["kind"] == "play" and len(hint["plays"]) == min(5, len(expected))
    assert [p["play"] for p in hint["plays"]] == [str(p) for p, _ in expected[:5]]
    for p, (_, equity) in zip(hint["plays"], expected):
        assert p["equity"] == pytest.approx(equity, abs=1e-9)
        assert p["diff"] == pytest.approx(equity - expected[0][1], abs=1e-9)
        assert 0.0 <= p["probabilities"]["winG"] <= p["probabilities"]["win"] <= 1.0


def test_the_hint_before_a_roll_is_the_cube_decision(client):
    g = new_game(client, mode="local", length=1, cube=True)
    s = _until_double(client, g)
    hint = client.get(f"/api/games/{g['game']}/hint", headers=auth(g["token"])).json()
    assert hint["kind"] == "cube"
    assert {"no_double", "double_take", "double_pass", "double", "take"} <= set(hint)
    # Doubling is right exactly when it gains over not doubling, given the opponent's best answer.
    assert hint["double"] == (min(hint["double_take"], hint["double_pass"]) > hint["no_double"])


def test_the_hint_is_refused_to_spectators_and_to_the_player_not_on_turn(client):
    g = new_game(client, length=3)  # against the computer
    s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    assert client.get(f"/api/games/{g['game']}/hint").status_code == 403
    r = client.get(f"/api/games/{g['game']}/hint", headers=auth(g["token"]))
    mine = s["view"]["to_act"] == s["config"]["seat"]
    assert r.status_code == (200 if mine else 409), r.text


def test_the_hint_is_refused_in_online_games(tmp_path):
    storage, now, clock, app = make_site(tmp_path / "db.sqlite3")
    with TestClient(app()) as c:
        site = Site(c, storage, now, clock)
        ana, ion, table = site.match(length=3)
        for token in (ana, ion):
            r = c.get(f"/api/games/{table['game']}/hint", headers=auth(token))
            assert (r.status_code, r.json()["code"]) == (403, "online")
    storage.close()


def test_export_parses_back_and_its_ids_describe_the_position(client):
    g = new_game(client, mode="local", length=3)
    s = to_move(client, g["game"], g["token"])
    s = act(client, g["game"], g["token"], s["version"],
            {"type": "move", "steps": first_path(s["view"]["moves"])}).json()
    assert client.get(f"/api/games/{g['game']}/export").status_code == 403
    out = client.get(f"/api/games/{g['game']}/export", headers=auth(g["token"])).json()
    from_mat = Match.from_mat(out["mat"])
    from_sgf = Match.from_sgf(out["sgf"])
    assert from_mat.position == from_sgf.position
    assert from_mat.position.id == out["position"] and from_mat.match_id == out["match"]
    info = from_xgid(out["xgid"])
    on_roll = s["view"]["turn"]
    assert info.position == Position.from_id(out["position"])
    assert info.match_length == 3 and info.turn == (1 if on_roll == 0 else -1)


def _wait_review(c, game, token, timeout=120.0):
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = c.get(f"/api/games/{game}/review", headers=auth(token)).json()
        seen.append(r)
        if r["state"] != "running":
            return r, seen
        time.sleep(0.2)
    raise AssertionError("the review did not finish")


def test_the_review_runs_in_a_worker_and_reports_progress(db):
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(3), limits=Limits(games_burst=1000), bot_workers=1)) as c:
        g = new_game(c, mode="local", length=1)
        token, game = g["token"], g["game"]
        for _ in range(6):
            s = to_move(c, game, token)
            act(c, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])})
        assert c.post(f"/api/games/{game}/review").status_code == 403
        assert c.post(f"/api/games/{game}/review", json={"depth": 5}, headers=auth(token)).status_code == 400
        assert c.get(f"/api/games/{game}/review", headers=auth(token)).status_code == 404
        loop_thread = []
        c.portal.call(lambda: loop_thread.append(threading.get_ident()))
        calls = []
        real = c.app.state.pool.run

        async def spy(fn, *args):
            calls.append(fn)
            return await real(fn, *args)

        c.app.state.pool.run = spy
        r = c.post(f"/api/games/{game}/review", json={"depth": 0}, headers=auth(token))
        assert r.status_code == 202 and r.json()["state"] == "running"
        result, seen = _wait_review(c, game, token)
        assert calls == [learn.review_for_web]
        assert result["state"] == "done", result
        review = result["review"]
        assert review["depth"] == 0 and len(review["totals"]) == 2
        assert result["done"] == result["total"] > 0
        assert all(a["done"] <= b["done"] for a, b in zip(seen, seen[1:]))
        # Asked again with nothing new played: the same review, not a second one.
        assert c.post(f"/api/games/{game}/review", json={"depth": 0}, headers=auth(token)).json()["state"] == "done"
        assert calls == [learn.review_for_web]
    storage.close()


def test_a_game_starts_from_an_xgid_position(client):
    # Seat 0 (bottom) to play 6-2 at 3-4 to 7, the cube at 2 owned by seat 1 (top, "-1").
    xgid = "XGID=-C-----------------ba-----:1:-1:1:62:3:4:0:7:10"
    r = client.post("/api/games", json={"mode": "computer", "cube": True, "start": {"xgid": xgid}})
    assert r.status_code == 201, r.text
    s = r.json()
    v = s["view"]
    assert (v["phase"], v["turn"], sorted(v["dice"]), v["length"], v["score"]) == ("move", 0, [2, 6], 7, [3, 4])
    assert v["cube"] == {"value": 2, "owner": 1, "enabled": True}
    assert s["config"]["start"]["position"] == from_xgid(xgid).position.id
    out = client.get(f"/api/games/{s['game']}/export", headers=auth(s["token"])).json()
    assert out["mat"] is None and out["sgf"] is None  # records cannot start from a position
    assert from_xgid(out["xgid"]).position == from_xgid(xgid).position
    listed = client.get(f"/api/games/{s['game']}/moves").json()["moves"]
    assert listed == [{"kind": "game", "game": 1, "score": [3, 4]}]


@pytest.mark.parametrize("start, words", [
    ({"position": "4HPwATDgc/ABMA"}, "start is"),
    ({"xgid": "XGID=nonsense"}, "cannot be read"),
    ({"position": "4HPwATDgc/ABMA", "match": "AAAA"}, "cannot be read"),
])
def test_a_bad_position_to_start_from_is_refused(client, start, words):
    r = client.post("/api/games", json={"mode": "computer", "start": start})
    assert r.status_code == 400 and words in r.json()["message"]


def test_a_pasted_match_is_reviewed_and_a_bad_one_refused(client):
    m = Match(length=1, seed=3)
    while not m.is_over:
        m.apply(m.legal_actions()[-1])
    r = client.post("/api/review", json={"text": "not a match", "depth": 0})
    assert r.status_code == 400
    assert client.post("/api/review", json={"text": m.to_mat(), "depth": 7}).status_code == 400
    r = client.post("/api/review", json={"text": m.to_mat(), "depth": 0})
    assert r.status_code == 202, r.text
    job = r.json()["id"]
    deadline = time.monotonic() + 120
    while (answer := client.get(f"/api/review/{job}").json())["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert answer["state"] == "done"
    expected = learn.review_for_web(m.to_mat(), 0)
    assert answer["review"] == expected
    assert client.get("/api/review/import-nothing").status_code == 404
