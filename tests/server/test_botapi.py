"""The HTTP API for bots and tools: wildbg's query format, the bot's own ranking, clear refusals."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from table.bot import Bot
from table.rules.position import Position
from table.server.learn.botapi import position_from_query, query_from_position

# A wildbg-style query, written by hand: the mover has a checker on the bar and
# the opponent one on the mover's bar side (p0) and one on the mover's 1-point.
WILDBG_QUERY = ("die1=6&die2=4&p25=1&p24=1&p13=5&p8=3&p6=5"
                "&p0=-1&p1=-1&p12=-5&p17=-3&p19=-5&x_away=0&o_away=0")


@pytest.fixture(scope="module")
def hard() -> Bot:
    return Bot("hard")


def _apply(board: list[int], steps: list[dict[str, int]]) -> tuple[int, ...]:
    """The mover's steps applied by hand: a lone opposing checker hit goes to p0."""
    b = list(board)
    for step in steps:
        src, dst = step["from"], step["to"]
        assert b[src] > 0, f"no checker of the mover on {src}"
        b[src] -= 1
        if dst > 0:
            if b[dst] == -1:
                b[dst] = 0
                b[0] -= 1
            assert b[dst] >= 0, f"{dst} is blocked"
            b[dst] += 1
    return tuple(b)


def test_moves_are_the_bots_ranking(client, hard: Bot) -> None:
    query = query_from_position(Position.initial(), (3, 1))
    answer = client.get("/api/move", params=query)
    assert answer.status_code == 200
    moves = answer.json()["moves"]
    expected = hard.ranked_plays(Position.initial(), (3, 1))
    assert [[(s["from"], s["to"]) for s in m["play"]] for m in moves] == \
        [[tuple(s) for s in play.steps] for play, _ in expected]
    for m, (_, equity) in zip(moves, expected):
        assert m["equity"] == pytest.approx(equity, abs=1e-9)
        p = m["probabilities"]
        # The equity is made of the five chances, as the wildbg fields name them.
        assert 2 * p["win"] - 1 + p["winG"] + p["winBg"] - p["loseG"] - p["loseBg"] == \
            pytest.approx(equity, abs=1e-9)
    assert client.app.state.pool.running  # the bot ran in the worker pool


def test_a_wildbg_query_round_trips(client) -> None:
    params = dict(parse_qsl(WILDBG_QUERY))
    position, dice, _, _ = position_from_query(params)
    assert dice == (6, 4) and position.board[25] == 1 and position.board[0] == -1
    zero_aways = {k: v for k, v in params.items() if k not in ("x_away", "o_away")}
    assert query_from_position(position, dice) == zero_aways
    answer = client.get("/api/move?" + WILDBG_QUERY)
    assert answer.status_code == 200
    moves = answer.json()["moves"]
    # Each answered play, replayed by hand on the query's board, is a legal play; all are there.
    legal = {play.position.swapped().board for play in position.legal_plays(dice)}
    replayed = [_apply(list(position.board), m["play"]) for m in moves]
    assert set(replayed) == legal and len(replayed) == len(legal)
    assert all(m["play"][0]["from"] == 25 for m in moves)  # the bar first


def test_at_double_match_point_plays_rank_by_winning_chance(client) -> None:
    # At 1-away each, gammons count for nothing: only the chance of winning matters.
    race_with_contact = Position.from_checkers({24: 2, 13: 4, 8: 3, 6: 6}, {24: 2, 13: 5, 8: 3, 6: 5})
    query = {**query_from_position(race_with_contact, (6, 6)), "x_away": "1", "o_away": "1"}
    moves = client.get("/api/move", params=query).json()["moves"]
    wins = [m["probabilities"]["win"] for m in moves]
    assert len(wins) > 1 and wins == sorted(wins, reverse=True)


def test_eval_gives_the_five_chances_and_the_equity(client, hard: Bot) -> None:
    position = Position.initial()
    answer = client.get("/api/eval", params={"position": position.id})
    assert answer.status_code == 200
    data = answer.json()
    e = hard.evaluate(position)
    assert data["probabilities"] == pytest.approx(
        {"win": e.win, "winG": e.win_gammon, "winBg": e.win_backgammon,
         "loseG": e.lose_gammon, "loseBg": e.lose_backgammon}, abs=1e-12)
    assert data["equity"] == pytest.approx(e.equity, abs=1e-12)


@pytest.mark.parametrize("query, words", [
    ("die2=1&p24=2&p1=-2", "die1 is missing"),
    ("die1=7&die2=1&p24=2&p1=-2", "die1=7 is out of range"),
    ("die1=3&die2=1&p24=two&p1=-2", "p24='two' is not a whole number"),
    ("die1=3&die2=1&p24=2&p1=-2&p0=1", "p0 is the opponent's bar"),
    ("die1=3&die2=1&p24=2&p1=-2&p25=-1", "p25 is your bar"),
    ("die1=3&die2=1&p24=10&p13=10&p1=-2", "15"),
    ("die1=3&die2=1&p24=2&p1=-2&x_away=3", "x_away and o_away"),
    ("die1=3&die2=1&p1=-2", "the game is over"),
])
def test_bad_move_queries_get_400_with_the_reason(client, query: str, words: str) -> None:
    answer = client.get("/api/move?" + query)
    assert answer.status_code == 400
    assert words in answer.json()["message"]


@pytest.mark.parametrize("query, words", [
    ("", "position is missing"),
    ("position=%21%21%21", "Position ID"),
    ("position=", "position is empty"),
    ("position=4HPwATDgc%2FABMA&p24=2", "not both"),
    ("p1=1&p0=2&p20=-1", "p0 is the opponent's bar"),
    ("p1=1", "the game is over"),
    ("p1=1&p20=-1&x_away=2", "x_away and o_away"),
])
def test_bad_eval_queries_get_400(client, query: str, words: str) -> None:
    answer = client.get("/api/eval?" + query)
    assert answer.status_code == 400
    assert words.lower() in answer.json()["message"].lower()


def test_one_address_asking_too_often_is_told_when_to_retry() -> None:
    from starlette.applications import Starlette

    from table.server.learn import botapi
    from table.server.edge.limits import RateLimiter
    from table.server.play.pool import BotPool

    from tests.server.server_helpers import TestClient

    pool = BotPool(1)
    app = Starlette(routes=botapi.routes(pool, RateLimiter(0.01, 1, clock=lambda: 0.0)))
    try:
        with TestClient(app) as c:
            first = c.get("/api/eval", params={"position": Position.initial().id})
            second = c.get("/api/eval", params={"position": Position.initial().id})
            malformed = c.get("/api/eval", params={"position": "nope"})
    finally:
        pool.shutdown()
    assert first.status_code == 200
    assert second.status_code == 429 and "too many questions" in second.json()["message"]
    assert int(second.headers["Retry-After"]) >= 1
    assert malformed.status_code == 400  # a bad question is refused before it costs a token


# wildbg's own documented requests (its README and OpenAPI examples), with only the host changed.
# What a wildbg client reads: /eval -> {"cube": {"double", "accept"}, "probabilities": {win,
# winG, winBg, loseG, loseBg}}; /move -> {"moves": [{"play": [{"from", "to"}], "probabilities"}]},
# best first, and exactly one move with an empty play when nothing can move.
WILDBG_PROBABILITIES = {"win", "winG", "winBg", "loseG", "loseBg"}


def _wildbg_probabilities(p: dict[str, float]) -> None:
    assert WILDBG_PROBABILITIES <= set(p)
    assert all(0.0 <= p[k] <= 1.0 for k in WILDBG_PROBABILITIES)
    assert p["winBg"] <= p["winG"] <= p["win"] and p["loseBg"] <= p["loseG"] <= 1 - p["win"]


@pytest.mark.parametrize("prefix", ["", "/api"])
def test_wildbgs_eval_request_gets_a_wildbg_answer(client, hard: Bot, prefix: str) -> None:
    answer = client.get(f"{prefix}/eval?p1=1&p20=-1&p24=-1")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert set(data["cube"]) == {"double", "accept"}
    assert all(isinstance(v, bool) for v in data["cube"].values())
    _wildbg_probabilities(data["probabilities"])
    # The mover's last checker on the 1-point is off with any roll: the game is won.
    assert data["probabilities"]["win"] == pytest.approx(1.0)
    # The same position as a Position ID gives the same answer.
    position = Position.from_checkers({1: 1}, {5: 1, 1: 1})
    assert data["position"] == position.id
    by_id = client.get(f"{prefix}/eval", params={"position": position.id}).json()
    assert by_id == data


def test_eval_cube_advice_follows_the_chances(client) -> None:
    # Both sides bearing off, no gammons: the player on roll wins 92% (the bear-off database
    # knows it exactly), so doubles, and the opponent should pass.
    far_ahead = Position.from_checkers({6: 3, 5: 3, 4: 2}, {6: 3, 5: 3, 4: 3, 3: 3})
    data = client.get("/eval", params={"position": far_ahead.id}).json()
    assert data["cube"] == {"double": True, "accept": False}
    # The opening position: nobody doubles, and a double would be taken.
    opening = client.get("/eval", params={"position": Position.initial().id}).json()
    assert opening["cube"] == {"double": False, "accept": True}
    # At one point away each there is nothing to double for.
    dmp = client.get("/eval", params={"position": far_ahead.id, "x_away": 1, "o_away": 1}).json()
    assert dmp["cube"]["double"] is False


@pytest.mark.parametrize("prefix", ["", "/api"])
def test_wildbgs_move_request_gets_a_wildbg_answer(client, hard: Bot, prefix: str) -> None:
    # wildbg's example: the starting position, 3-1.
    query = "die1=3&die2=1&p24=2&p19=-5&p17=-3&p13=5&p12=-5&p8=3&p6=5&p1=-2"
    answer = client.get(f"{prefix}/move?{query}")
    assert answer.status_code == 200, answer.text
    moves = answer.json()["moves"]
    assert len(moves) == 16
    for m in moves:
        _wildbg_probabilities(m["probabilities"])
        assert all(set(step) == {"from", "to"} for step in m["play"])
    assert [(s["from"], s["to"]) for s in moves[0]["play"]] == [(8, 5), (6, 5)]


def test_no_legal_play_is_one_move_with_an_empty_play(client, hard: Bot) -> None:
    # The mover's checker on the bar faces a closed board: 6-6 cannot enter.
    closed = Position.from_checkers({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    assert closed.legal_plays((6, 6)) == []
    for prefix in ("", "/api"):
        answer = client.get(f"{prefix}/move", params=query_from_position(closed, (6, 6)))
        assert answer.status_code == 200
        moves = answer.json()["moves"]
        assert len(moves) == 1 and moves[0]["play"] == []
        _wildbg_probabilities(moves[0]["probabilities"])
        # The mover's chances with the turn passed: the opponent on roll, judged as every play is.
        e = hard.evaluate(closed.swapped(), depth=hard.settings.analysis).swapped()
        assert moves[0]["equity"] == pytest.approx(e.equity, abs=1e-9)


def test_unknown_parameters_are_ignored_as_wildbg_ignores_them(client) -> None:
    plain = client.get("/move?die1=3&die2=1&p24=2&p1=-2").json()
    extra = client.get("/move?die1=3&die2=1&p24=2&p1=-2&p26=1&format=json&foo=").json()
    assert extra == plain
    assert client.get("/eval?p1=1&p20=-1&p24=-1&depth=2").status_code == 200
