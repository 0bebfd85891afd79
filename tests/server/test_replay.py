"""Replaying a match step by step: a finished game's and a pasted record's boards, and refusals."""

from __future__ import annotations

from pathlib import Path

from table.match import Match
from table.match.actions import Move
from table.server.app import create_app
from table.server.edge.limits import Limits, RateLimiter
from table.server.learn import routes as learn_routes
from table.rules.dice import SeededDice
from table.server.store import open_storage

from tests.server.server_helpers import TestClient, auth, first_path
from tests.server.test_api import act, new_game, to_move
from tests.server.test_history import leave
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import site  # noqa: F401 - fixture

DATA = Path(__file__).parents[1]
MAT_3PT = DATA / "notation" / "data" / "gnubg_3pt.mat"
MAT_7PT = DATA / "bot" / "data" / "bots_7pt.mat"


def play_out(client, g):
    """Play first plays in a local game until it is over."""
    for _ in range(400):
        s = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
        if s["view"]["over"]:
            return s
        s = to_move(client, g["game"], g["token"])
        r = act(client, g["game"], g["token"], s["version"],
                {"type": "move", "steps": first_path(s["view"]["moves"])})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def boards_after_moves(m: Match) -> list[tuple[list[int], tuple[int, int]]]:
    """Each play's position after it, seat 0's points 1..24 and the bar, replaying ``m`` with the engine."""
    replay = Match(length=m.length, cube=m.cube_enabled, jacoby=m.jacoby)
    out = []
    for action in m.actions:
        replay.apply(action)
        if isinstance(action, Move):
            board = replay.position_for(0).board
            out.append((list(board[1:25]), (board[25], -board[0])))
    return out


def check_steps(steps, m: Match) -> None:
    assert steps[0]["kind"] == "start"
    start = Match().position_for(0).board
    assert steps[0]["board"]["points"] == list(start[1:25])
    moves = [s for s in steps if s["kind"] == "move"]
    expected = boards_after_moves(m)
    assert len(moves) == len(expected) > 0
    for step, (points, bar) in zip(moves, expected):
        assert step["board"]["points"] == points
        assert tuple(step["board"]["bar"]) == bar
        assert len(step["text"]) == 2 and len(step["dice"]) == 2
    # A roll or a cube action shows the board the last play left.
    for before, after in zip(steps, steps[1:]):
        if after["kind"] in ("roll", "double", "take", "drop"):
            assert after["board"] == before["board"]
        if after["kind"] == "roll":
            assert len(after["dice"]) == 2


def test_a_finished_game_replays_board_by_board(client):
    g = new_game(client, mode="local", length=1, cube=False)
    r = client.get(f"/api/games/{g['game']}/replay")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    play_out(client, g)
    mat = client.get(f"/api/games/{g['game']}/export", headers=auth(g["token"])).json()["mat"]
    got = client.get(f"/api/games/{g['game']}/replay")  # anyone: no token
    assert got.status_code == 200, got.text
    data = got.json()
    assert data["length"] == 1 and len(data["players"]) == 2
    m = Match.from_mat(mat)
    check_steps(data["steps"], m)
    # One step per action played, after the start; the last one scores the game.
    assert [s["kind"] for s in data["steps"][1:]] == [a.kind for a in m.actions]
    assert data["steps"][0]["score"] == [0, 0] and sum(data["steps"][-1]["score"]) >= 1


def test_a_forfeited_online_match_replays_to_the_forfeit_for_anyone(site):
    ana, ion, table = site.match(length=3)
    game = table["game"]
    assert site.c.get(f"/api/games/{game}/replay").json()["code"] == "not_finished"
    leave(site, table, ana)
    log = site.c.get(f"/api/games/{game}/record.json").json()["log"]
    data = site.c.get(f"/api/games/{game}/replay").json()
    assert data["players"] == ["Ana", "Ion"] and data["length"] == 3
    assert len(data["steps"]) == len(log) + 1
    assert [s["entry"]["type"] for s in data["steps"][1:]] == [e["type"] for e in log]
    last = data["steps"][-1]
    assert last["kind"] == "forfeit" and last["seat"] == 0 and last["board"] == data["steps"][-2]["board"]


def test_unknown_games_are_not_found(client):
    assert client.get("/api/games/nope/replay").status_code == 404


def test_a_pasted_mat_replays_the_same_boards_and_scores(client):
    text = MAT_3PT.read_text()
    r = client.post("/api/replay", json={"record": text})
    assert r.status_code == 200, r.text
    data = r.json()
    m = Match.from_mat(text)
    assert data["players"] == list(m.players) and data["length"] == m.length
    check_steps(data["steps"], m)
    # The first game ends with gnubg's (seat 0's) double dropped: 1 point to gnubg.
    drops = [s for s in data["steps"] if s["kind"] == "drop"]
    assert drops[0]["score"] == [1, 0] and data["steps"][-1]["score"] == list(m.score)
    # Each game opens on the starting position.
    openings = [s for s in data["steps"] if s["kind"] == "opening_roll"]
    assert len(openings) == m.game_number and all(
        o["board"] == data["steps"][0]["board"] and len(o["dice"]) == 2 for o in openings)
    # Steps name who acted, for a record that says no seat.
    assert all(s["seat"] in (0, 1) for s in data["steps"][1:] if s["kind"] not in ("opening_roll", "next_game"))
    doubles = [s for s in data["steps"] if s["kind"] == "double"]
    # The cube turns when the double is taken, not when it is offered.
    assert doubles and doubles[0]["cube"] == 1
    for before, after in zip(data["steps"], data["steps"][1:]):
        if after["kind"] == "take":
            assert after["cube"] == 2 * before["cube"]


def test_a_longer_pasted_match_replays(client):
    text = MAT_7PT.read_text()
    data = client.post("/api/replay", json={"record": text}).json()
    check_steps(data["steps"], Match.from_mat(text))


def test_bad_pasted_records_are_refused_clearly(client):
    for body in ({"record": ""}, {"text": "x"}, {"record": 5}, [1]):
        r = client.post("/api/replay", json=body)
        assert r.status_code == 400 and "record" in r.json()["message"], body
    r = client.post("/api/replay", content=b"{not json")
    assert r.status_code == 400
    r = client.post("/api/replay", json={"record": " 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 99: 1/2\n"})
    assert r.status_code == 400 and r.json()["type"] == "error"
    r = client.post("/api/replay", content=b"x" * 400_000)
    assert r.status_code == 413


def test_pasted_replays_are_rate_limited(db, monkeypatch):
    # The limiter's clock stands still: each replay takes long enough on a loaded machine for a
    # running clock to refill the bucket, and what is tested is the count, not the machine's speed.
    monkeypatch.setattr(learn_routes, "RateLimiter",
                        lambda rate, burst: RateLimiter(rate, burst, clock=lambda: 0.0))
    storage = open_storage(db)
    with TestClient(create_app(storage, SeededDice(7), limits=Limits(games_burst=100_000))) as c:
        text = MAT_3PT.read_text()
        codes = [c.post("/api/replay", json={"record": text}).status_code for _ in range(15)]
    storage.close()
    assert codes == [200] * learn_routes.REPLAY_BURST + [429] * (15 - learn_routes.REPLAY_BURST)
