"""The review routes take Acey-Deucey (issue 50): a game at the server and a pasted record are
reviewed (202, then done: no longer 409 ``no_review``), the named double among the decisions; and
a Tavli record (issue 51)."""

from __future__ import annotations

import json
import time

from table.match import Match

from tests.bot.test_review_acey_deucey import one_two_then
from tests.server.server_helpers import auth, first_path
from tests.server.test_api import act, new_game


def _done(client, url, token=None, timeout=120.0):
    deadline = time.monotonic() + timeout
    while (answer := client.get(url, headers=auth(token) if token else {}).json())["state"] == "running":
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.2)
    return answer


def test_an_acey_deucey_game_at_the_server_is_reviewed(client):
    g = new_game(client, mode="local", length=1, variant="acey-deucey")
    game, token = g["game"], g["token"]
    s = client.get(f"/api/games/{game}", headers=auth(token)).json()
    for _ in range(6):  # a few actions of either player, whatever the dice
        v = s["view"]
        action = ({"type": "roll"} if v["phase"] == "roll" else
                  {"type": "name_double", "number": 6} if v["phase"] == "name_double" else
                  {"type": "move", "steps": first_path(v["moves"])})
        r = act(client, game, token, s["version"], action)
        assert r.status_code == 200, r.text
        s = r.json()
    url = f"/api/games/{game}/review"
    r = client.post(url, json={"depth": 0}, headers=auth(token))
    assert r.status_code == 202, r.text  # before issue 50's review of Acey-Deucey: 409 no_review
    answer = _done(client, url, token)
    assert answer["state"] == "done", answer
    assert answer["review"]["depth"] == 0 and len(answer["review"]["totals"]) == 2


def test_a_pasted_acey_deucey_record_is_reviewed_with_its_named_double(client):
    text = json.dumps(one_two_then(1, "6/5(4)").to_json())
    r = client.post("/api/review", json={"text": text, "depth": 0})
    assert r.status_code == 202, r.text
    answer = _done(client, f"/api/review/{r.json()['id']}")
    assert answer["state"] == "done", answer
    named = [d for d in answer["review"]["decisions"] if d["kind"] == "name"]
    assert [(d["played"], d["best"], d["mark"]) for d in named] == [("1-1", "6-6", "??")]


def test_an_unfinished_tavli_record_is_reviewed_too(client):
    # Before issue 51's review of a Tavli match: 409 no_review ("each of its games is another variant").
    text = json.dumps(Match(3, variant="tavli", cube=False).to_json())
    r = client.post("/api/review", json={"text": text, "depth": 0})
    assert r.status_code == 202, r.text
    answer = _done(client, f"/api/review/{r.json()['id']}")
    assert answer["state"] == "done" and answer["review"]["decisions"] == []
