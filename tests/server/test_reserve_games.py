"""Race, Dutch and Acey-Deucey on the server (made through the API only): the view's 28-entry
board (the waiting checkers), Acey-Deucey's stages and named doubles, a whole game between two
people over the WebSocket and against the computer over HTTP; online tables and the web form's
catalogue do not offer them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.match import OpeningRoll, Phase
from table.rules.dice import SeededDice
from table.rules.variant import ENGINE_ONLY, VARIANTS
from table.server.app import create_app
from table.server.play.computer import choose_action, task_for, think
from table.server.edge.limits import Limits
from table.server.play.game import Game, GameConfig
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path
from tests.server.test_api import act, new_game

RESERVE = ("race", "dutch", "acey-deucey")
WEB_VARIANTS = Path(__file__).resolve().parents[2] / "src/table/web/js/engine/variants.json"


@pytest.fixture
def fast(db):
    """The server of ``client``, letting one connection send a whole game's messages at once."""
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(7), limits=Limits(ws_messages_burst=10**6))) as c:
        yield c
    storage.close()


def checkers(view: dict) -> tuple[int, int]:
    """Each seat's checkers as the view counts them: points, bar, waiting and borne off."""
    points = view["points"]
    return (sum(v for v in points if v > 0) + view["bar"][0] + view["waiting"][0] + view["off"][0],
            -sum(v for v in points if v < 0) + view["bar"][1] + view["waiting"][1] + view["off"][1])


def check_progress(before: dict | None, view: dict) -> None:
    """Within a game no checker goes back to waiting (a hit one goes to the bar) and none comes
    back once borne off; every side has its fifteen."""
    assert checkers(view) == (15, 15) and all(0 <= n <= 15 for n in view["waiting"] + view["off"])
    if before is not None:
        assert all(a >= b for a, b in zip(before["waiting"], view["waiting"])), (before, view)
        assert all(a <= b for a, b in zip(before["off"], view["off"])), (before, view)


def decide(view: dict, stages: list) -> dict:
    """A decision for the seat to act: roll, name the double that was asked least, or play."""
    acts = view["actions"]
    stages.append(view.get("stage"))
    if view.get("stage") in ("name_double", "extra_roll"):
        assert view["dice"] is None  # the extra roll is not rolled before the player rolls it
    if "name_double" in acts:
        return {"type": "name_double", "number": 6 - stages.count("name_double") % 6}
    if view["phase"] == "move":
        return {"type": "move", "steps": first_path(view["moves"])}
    return {"type": "take" if "take" in acts else "roll"}  # Dutch: the computer may double


@pytest.mark.parametrize("variant, cube", [("race", False), ("dutch", True), ("acey-deucey", False)])
def test_a_reserve_game_is_made_through_the_api_and_its_view_shows_the_waiting_checkers(client, variant, cube):
    g = new_game(client, mode="local", length=1, variant=variant)
    v = g["view"]
    assert v["variant"] == variant and g["config"]["cube"] is cube and v["cube"]["enabled"] is cube
    # The first roll is played, or about to be: fifteen a side, those not entered waiting.
    assert checkers(v) == (15, 15) and v["off"] == [0, 0] and sum(v["waiting"]) >= 28
    assert v["pips"] == [25 * v["waiting"][0] + sum(p * n for p, n in enumerate(v["points"], 1) if n > 0),
                         25 * v["waiting"][1] + sum((25 - p) * -n for p, n in enumerate(v["points"], 1) if n < 0)]
    assert ("stage" in v) is (variant == "acey-deucey")
    if v["phase"] == "move":  # the opening roll: the mover may enter from 26
        assert any(step[0] == 26 for step in v["moves"]["nodes"][0])


@pytest.mark.parametrize("variant", ["race", "acey-deucey", " RACE "])
def test_a_cube_is_refused_where_the_game_has_none(client, variant):
    r = client.post("/api/games", json={"mode": "local", "variant": variant, "cube": True})
    assert r.status_code == 400 and "without the doubling cube: cube must be false" in r.json()["message"]


@pytest.mark.parametrize("variant", RESERVE)
def test_two_people_play_a_game_of_each_to_the_end_over_the_websocket(fast, variant):
    client = fast
    g = new_game(client, mode="local", length=1, variant=variant)
    stages: list = []
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        s = ws.receive_json()
        before = None
        for _ in range(1500):
            v = s["view"]
            check_progress(before, v)
            before = v
            if v["over"]:
                break
            ws.send_json({"type": "action", "version": s["version"], "action": decide(v, stages)})
            s = ws.receive_json()
            assert s["type"] == "state", s
    v = s["view"]
    assert v["over"] and v["result"]["how"] == "checkers" and v["off"][v["winner"]] == 15
    loser_left = 15 - v["off"][1 - v["winner"]]
    if variant == "acey-deucey":
        # The loser pays a point per checker not borne off; the turn went through every stage.
        assert v["result"]["points"] == loser_left
        assert {"one_two", "name_double", "named_double", "extra_roll"} <= set(stages)
    else:
        assert v["result"]["points"] == v["result"]["level"] * v["cube"]["value"]
    again = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()["view"]
    assert again == v


@pytest.mark.parametrize("variant", RESERVE)
def test_a_game_of_each_against_the_computer_runs_to_the_end_over_http(client, variant):
    g = new_game(client, level="easy", length=1, variant=variant)
    s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    stages: list = []
    before = None
    for _ in range(1000):
        v = s["view"]
        check_progress(before, v)
        before = v
        if v["over"]:
            break
        r = act(client, g["game"], g["token"], s["version"], decide(v, stages))
        assert r.status_code == 200, r.text
        s = r.json()
    assert s["view"]["over"] and s["view"]["result"]["how"] == "checkers"
    moves = client.get(f"/api/games/{g['game']}/moves", headers=auth(g["token"])).json()["moves"]
    named = {e["seat"] for e in moves if e["kind"] == "name_double"}
    assert named == ({0, 1} if variant == "acey-deucey" else set())  # the computer named its own


def test_the_computer_names_a_double_after_its_one_two():
    # The computer's seat opens with a 1-2 in Acey-Deucey: it plays both dice, then names a
    # double, the same in its worker process (from a task) as in the server's.
    game = Game(GameConfig("computer", length=1, cube=False, variant="acey-deucey", human_seat=1),
                SeededDice(1))
    game.apply_automatic(OpeningRoll((2, 1)))  # seat 0's die is the 2: the computer starts
    play = choose_action(game, 0)
    assert play["type"] == "move" and len(play["steps"]) == 2
    game.act(frozenset({0}), play)
    assert game.match.phase == Phase.NAME_DOUBLE and game.view(frozenset({1}))["stage"] == "name_double"
    named = think(task_for(game, 0))
    assert named == choose_action(game, 0) and named["type"] == "name_double" and 1 <= named["number"] <= 6
    entry = game.act(frozenset({0}), named)
    assert entry == {"seat": 0, "type": "name_double", "number": named["number"]}
    assert game.moves[-1] == {"kind": "name_double", "seat": 0, "number": named["number"]}
    assert game.match.dice == (named["number"],) * 2 and game.to_act == 0
    assert game.view(frozenset({1}))["stage"] == "named_double"


def test_a_named_double_out_of_turn_is_refused_and_changes_nothing(client):
    g = new_game(client, mode="local", length=1, variant="acey-deucey")
    s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    assert s["view"]["phase"] == "move"  # the server made the opening roll: a play is due, not a double
    r = act(client, g["game"], g["token"], s["version"], {"type": "name_double", "number": 6})
    assert r.status_code == 422 and r.json()["message"] == "name_double is not possible now"
    assert client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json() == s
    r = act(client, g["game"], g["token"], s["version"], {"type": "name_double", "number": 9})
    assert r.status_code == 422 and "a number from 1 to 6" in r.json()["message"]


def test_a_restarted_server_replays_an_acey_deucey_game_with_its_named_doubles(db):
    storage = open_storage(db)
    stages: list = []
    with TestClient(create_app(storage, SeededDice(3))) as c:
        g = new_game(c, mode="local", length=3, variant="acey-deucey")
        s = c.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
        while "name_double" not in stages[-2:-1] and len(stages) < 400:
            s = act(c, g["game"], g["token"], s["version"], decide(s["view"], stages)).json()
    storage.close()
    assert "name_double" in stages
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(99))) as c:
        again = c.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    storage.close()
    assert again["view"] == s["view"] and again["config"]["variant"] == "acey-deucey"


def test_the_web_forms_offer_them_and_not_the_engine_only_games(client):
    # The new-game and new-table forms list the variants of the web engine's catalogue: VARIANTS.
    # (Online tables play them: tests/server/test_reserve_online.py.)
    listed = json.loads(WEB_VARIANTS.read_text())["variants"]
    assert set(listed) == set(VARIANTS) and {"race", "dutch", "acey-deucey"} <= set(listed)
    assert not set(listed) & set(ENGINE_ONLY)


def test_a_variant_the_server_does_not_play_yet_is_refused_by_name(monkeypatch):
    from table.server.play import game

    monkeypatch.setattr(game, "SERVED", ("standard", "race"))
    with pytest.raises(game.GameConfigError) as refused:
        GameConfig.from_json({"mode": "local", "variant": "dutch"})
    assert str(refused.value) == ("variant: Dutch backgammon is not played on the server yet; "
                                  "it plays standard, race")
