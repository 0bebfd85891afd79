"""Export works in every state a player can reach, a finished match included (issue 48, 2.1)."""

from __future__ import annotations

from table.match import Match
from table.notation.matchid import GameState, decode_match_id
from table.notation.xgid import from_xgid
from table.rules.position import Position

from tests.server.server_helpers import auth, first_path
from tests.server.test_api import act, new_game
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_learn import _until_double
from tests.server.test_online_tables import site  # noqa: F401 - fixture


def _export(client, g):
    r = client.get(f"/api/games/{g['game']}/export", headers=auth(g["token"]))
    assert r.status_code == 200, r.text
    return r.json()


def _each(client, g, s, *actions):
    """Apply ``actions`` (a type, or the whole action) one after another; the last state."""
    for a in actions:
        s = act(client, g["game"], g["token"], s["version"], a if isinstance(a, dict) else {"type": a}).json()
    return s


def test_a_match_won_by_a_doubled_gammon_past_its_length_exports(client):
    # The play-test's case: a 3-point match ended 0-4 (a gammon on a 2-cube) answered 500.
    g = new_game(client, mode="local", length=3, cube=True)
    s = _until_double(client, g)
    doubler = s["view"]["turn"]
    s = _each(client, g, s, "double", "take")
    assert s["view"]["cube"]["value"] == 2
    # The doubler, on roll, gives up a gammon: 2 x 2 = 4 points to the taker.
    if s["view"]["phase"] == "roll":
        s = act(client, g["game"], g["token"], s["version"], {"type": "roll"}).json()
    assert s["view"]["turn"] == doubler and "resign" in s["view"]["actions"]
    s = _each(client, g, s, {"type": "resign", "level": 2}, "accept_resignation")
    assert s["view"]["over"]
    final = [0, 0]
    final[1 - doubler] = 4
    assert s["view"]["score"] == final

    out = _export(client, g)
    assert out["match_over"] is True
    # The records hold the whole match and read back to its end.
    for m in (Match.from_mat(out["mat"]), Match.from_sgf(out["sgf"])):
        assert m.is_over and list(m.score) == final
    # The Match ID is GNU Backgammon's "game over" one with the final score.
    info = decode_match_id(out["match"])
    assert info.game_state == GameState.RESIGNED and list(info.score) == final and info.match_length == 3
    assert info.cube_value == 2
    # The XGID: the same board at the score the last game was played at (0-0), no dice.
    x = from_xgid(out["xgid"])
    assert x.position == Position.from_id(out["position"])
    assert x.score == (0, 0) and x.match_length == 3 and x.dice is None and x.cube_value == 2


def test_every_state_of_a_local_match_exports(client):
    """Rolling, moving and the end of a match won on the board: each export answers 200 and its
    XGID holds the Position ID's board."""
    g = new_game(client, mode="local", length=1)
    s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    phases = set()
    for _ in range(600):
        v = s["view"]
        out = _export(client, g)
        phases.add(v["phase"])
        assert from_xgid(out["xgid"]).position == Position.from_id(out["position"])
        assert out["match_over"] is v["over"]
        if v["over"]:
            break
        if "roll" in v["actions"]:
            action = {"type": "roll"}
        else:
            action = {"type": "move", "steps": first_path(v["moves"])}
        s = act(client, g["game"], g["token"], s["version"], action).json()
    assert s["view"]["over"] and {"roll", "move"} <= phases
    assert decode_match_id(out["match"]).game_state == GameState.OVER


def test_an_online_match_ended_by_leaving_exports_where_it_stopped(site):
    ana, ion, table = site.match(length=3)
    assert site.c.post(f"/api/tables/{table['id']}/leave", headers=auth(ion)).status_code == 200
    r = site.c.get(f"/api/games/{table['game']}/export", headers=auth(ana))
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["match_over"] is True  # ended by the forfeit, not on the board: the IDs are where it stopped
    assert from_xgid(out["xgid"]).position == Position.from_id(out["position"])
    assert decode_match_id(out["match"]).score == (0, 0)
