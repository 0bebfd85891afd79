"""HTTP API: creating, viewing and playing games; every refusal changes nothing."""

from __future__ import annotations

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path


def new_game(client, **settings):
    r = client.post("/api/games", json={"mode": "computer", **settings})
    assert r.status_code == 201, r.text
    return r.json()


def act(client, game, token, version, action):
    return client.post(f"/api/games/{game}/actions", json={"version": version, "action": action},
                       headers=auth(token))


def test_new_game_against_the_computer(client):
    g = new_game(client, level="easy", length=1, cube=False)
    assert g["seats"] == [0] and len(g["token"]) >= 30
    v = g["view"]
    assert v["points"][23] == 2 and v["points"][0] == -2 or v["last"] is not None
    assert v["cube"]["enabled"] is False
    # Without a cube nothing waits on a decision but the roll; the opening roll is the server's.
    assert g["version"] >= 1
    assert v["to_act"] in (0, None) or v["turn"] == 1


@pytest.mark.parametrize("body, words", [
    ({"mode": "robot"}, "mode must be"),
    ({"mode": "local", "length": 4}, "length must be one of"),
    ({"mode": "computer", "level": "expert"}, "level must be"),
    ({"mode": "local", "cube": "yes"}, "cube must be"),
    ({"mode": "local", "colour": 1}, "unknown setting"),
    ([1, 2], "JSON object"),
])
def test_bad_new_game_requests(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["message"]


def test_malformed_json_body(client):
    r = client.post("/api/games", content=b"{nope", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["message"]


def test_views_depend_on_the_token(client):
    g = new_game(client, mode="local", length=3)
    game, token = g["game"], g["token"]
    mine = client.get(f"/api/games/{game}", headers=auth(token)).json()
    assert mine["seats"] == [0, 1] and mine["view"]["actions"]
    spectator = client.get(f"/api/games/{game}").json()
    assert spectator["seats"] == [] and spectator["view"]["actions"] == [] and spectator["view"]["moves"] is None
    assert spectator["version"] == mine["version"]
    r = client.get(f"/api/games/{game}", headers=auth("not-the-token"))
    assert r.status_code == 403
    assert client.get("/api/games/nosuchgame").status_code == 404


def to_move(client, game, token):
    """Bring a local game to a move decision (rolling when needed); return the state."""
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    if s["view"]["phase"] == "roll":
        r = act(client, game, token, s["version"], {"type": "roll"})
        assert r.status_code == 200, r.text
        s = r.json()
    assert s["view"]["phase"] == "move", s["view"]["phase"]
    return s


def test_refused_actions_change_nothing(client):
    g = new_game(client, mode="local", length=3)
    game, token = g["game"], g["token"]
    s = to_move(client, game, token)
    version = s["version"]
    seat = s["view"]["to_act"]
    bad = [
        ({"type": "move", "steps": [[1, 2, 3]]}, 422, "steps"),
        ({"type": "move", "steps": [[24 if seat == 0 else 1, 0]]}, 422, "not a legal move"),
        ({"type": "move", "steps": []}, 422, "complete"),
        ({"type": "fly"}, 422, "unknown action"),
        ({"type": "double"}, 422, "before rolling"),
        ("move", 400, "JSON object"),
    ]
    for action, status, words in bad:
        r = act(client, game, token, version, action)
        assert r.status_code == status, (action, r.text)
        assert words in r.json()["message"], (action, r.json())
    r = act(client, game, token, version - 1, {"type": "move", "steps": first_path(s["view"]["moves"])})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    r = client.post(f"/api/games/{game}/actions", content=b"[", headers=auth(token))
    assert r.status_code == 400
    r = act(client, game, "", version, {"type": "roll"})
    assert r.status_code == 409  # a spectator may not act
    after = client.get(f"/api/games/{game}", headers=auth(token)).json()
    assert after["version"] == version and after["view"] == s["view"]


def test_the_player_cannot_choose_the_dice(client):
    g = new_game(client, mode="local", length=3)
    game, token = g["game"], g["token"]
    s = to_move(client, game, token)
    r = act(client, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])})
    assert r.status_code == 200
    s = r.json()
    assert s["view"]["phase"] == "roll"
    r = act(client, game, token, s["version"], {"type": "roll", "dice": [6, 6]})
    assert r.status_code == 422 and s["version"] == client.get(f"/api/games/{game}").json()["version"]


def test_a_move_against_the_computer_gets_a_reply(client):
    g = new_game(client, level="easy", length=1, cube=False)
    game, token = g["game"], g["token"]
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    if s["view"]["phase"] == "roll":
        s = act(client, game, token, s["version"], {"type": "roll"}).json()
    assert s["view"]["to_act"] == 0 and s["view"]["moves"]
    r = act(client, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])})
    assert r.status_code == 200
    after = r.json()
    # The computer (seat 1) has rolled and played; it is the person's turn again.
    assert after["view"]["last"]["seat"] == 1 or after["view"]["phase"] == "game_over"
    assert after["version"] >= s["version"] + 3


def test_restart_keeps_the_game(db):
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(3))) as c:
        g = new_game(c, mode="local", length=5)
        s = to_move(c, g["game"], g["token"])
        s = act(c, g["game"], g["token"], s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])}).json()
    storage.close()
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(99))) as c:
        again = c.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    storage.close()
    assert again["version"] == s["version"] and again["view"] == s["view"]


def play_out(client, game, token, decide):
    """Answer every decision with ``decide(actions)`` (moves: the first legal play) until the end."""
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    kinds = set()
    for _ in range(3000):
        v = s["view"]
        if v["over"]:
            return s["view"], kinds
        acts = v["actions"]
        action = ({"type": "next_game"} if "next_game" in acts
                  else {"type": "move", "steps": first_path(v["moves"])} if v["phase"] == "move"
                  else decide(acts))
        kinds.add(action["type"])
        r = act(client, game, token, s["version"], action)
        assert r.status_code == 200, r.text
        s = r.json()
    raise AssertionError("the match did not end")


def test_two_players_play_a_whole_match_with_the_cube(client):
    g = new_game(client, mode="local", length=3, cube=True)
    answers = {"take": 0, "double": 0}

    def decide(acts):
        if "take" in acts:
            # Take the first double of the match, drop the rest, so both answers are seen.
            answers["take"] += 1
            return {"type": "take" if answers["take"] == 1 else "drop"}
        if "double" in acts and answers["double"] < 2:
            answers["double"] += 1
            return {"type": "double"}
        return {"type": "roll"}

    v, kinds = play_out(client, g["game"], g["token"], decide)
    assert v["over"] and max(v["score"]) >= 3 and v["winner"] == v["score"].index(max(v["score"]))
    assert {"double", "take", "drop"} <= kinds
    assert v["actions"] == []


def test_the_computer_answers_a_resignation(client):
    g = new_game(client, level="easy", length=3, cube=True)
    game, token = g["game"], g["token"]
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    for _ in range(20):  # reach a moment where the person may resign
        if "resign" in s["view"]["actions"]:
            break
        s = act(client, game, token, s["version"], {"type": "move", "steps": first_path(s["view"]["moves"])}
                if s["view"]["phase"] == "move" else {"type": "roll"}).json()
    r = act(client, game, token, s["version"], {"type": "resign", "level": 3})
    assert r.status_code == 200, r.text
    after = r.json()["view"]
    # Offered a backgammon at the start, the computer accepts: the game is its, for 3 points.
    assert after["result"] == {"winner": 1, "points": 3, "level": 3, "cube": 1, "how": "resign"}
    assert after["over"] and after["score"] == [0, 3]


def test_a_player_who_has_rolled_may_resign_and_a_refusal_keeps_the_dice(client):
    g = new_game(client, mode="local", length=3)
    game, token = g["game"], g["token"]
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    v = s["view"]
    assert v["phase"] == "move" and v["moves"]  # the opening roll is the server's
    assert set(v["actions"]) == {"move", "resign"}
    mover, dice, moves = v["to_act"], v["dice"], v["moves"]
    s = act(client, game, token, s["version"], {"type": "resign", "level": 1}).json()
    assert s["view"]["phase"] == "resign" and s["view"]["to_act"] == 1 - mover
    assert s["view"]["resignation"] == {"level": 1, "by": mover} and s["view"]["dice"] == dice
    s = act(client, game, token, s["version"], {"type": "reject_resignation"}).json()
    v = s["view"]
    assert (v["phase"], v["to_act"], v["dice"], v["moves"]) == ("move", mover, dice, moves)
    assert v["actions"] == ["move"]  # no second offer before this roll is played
    r = act(client, game, token, s["version"], {"type": "resign", "level": 2})
    assert r.status_code == 422 and "not possible" in r.json()["message"]
    s = act(client, game, token, s["version"], {"type": "move", "steps": first_path(v["moves"])}).json()
    s = act(client, game, token, s["version"], {"type": "roll"}).json()
    assert s["view"]["to_act"] == 1 - mover and "resign" in s["view"]["actions"]
    s = act(client, game, token, s["version"], {"type": "resign", "level": 2}).json()
    s = act(client, game, token, s["version"], {"type": "accept_resignation"}).json()
    assert s["view"]["result"] == {"winner": mover, "points": 2, "level": 2, "cube": 1, "how": "resign"}


def test_a_cube_match_against_the_computer_runs_to_the_end(client):
    """The person doubles whenever allowed and always takes; the computer answers for itself."""
    g = new_game(client, level="medium", length=3, cube=True)

    def decide(acts):
        return {"type": next(k for k in ("take", "double", "roll") if k in acts)}

    v, kinds = play_out(client, g["game"], g["token"], decide)
    assert v["over"] and max(v["score"]) >= 3
    assert "double" in kinds
