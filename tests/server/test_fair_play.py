"""No computer help during a match between people online: the review opens when the match has
ended, hints are never given there, and the public bot API answers one address only at a pace a
person analysing positions never meets, too slow to play a live match through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.applications import Starlette

from table.rules.position import Position
from table.server.learn import botapi
from table.server.edge.limits import Limits, RateLimiter
from table.server.play.pool import BotPool

from tests.server.server_helpers import FakeClock, TestClient, auth
from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_api import new_game
from tests.server.test_online_tables import Site, site  # noqa: F401 - fixture

I18N = Path(__file__).resolve().parents[2] / "src" / "table" / "web" / "i18n"


def _state(site: Site, game: str, token: str) -> dict:
    return site.c.get(f"/api/games/{game}", headers=auth(token)).json()


def _act(site: Site, game: str, token: str, action: dict) -> dict:
    version = _state(site, game, token)["version"]
    r = site.c.post(f"/api/games/{game}/actions", headers=auth(token), json={"version": version, "action": action})
    assert r.status_code == 200, r.json()
    return r.json()


def _resign_the_match(site: Site, game: str, tokens: list[str]) -> None:
    """The player to act resigns the 1-point match and the other accepts: the match is over."""
    s = _state(site, game, tokens[0])
    seat = s["view"]["to_act"]
    if "resign" not in _state(site, game, tokens[seat])["view"]["actions"]:
        _act(site, game, tokens[seat], {"type": "roll"})
    _act(site, game, tokens[seat], {"type": "resign", "level": 1})
    after = _act(site, game, tokens[1 - seat], {"type": "accept_resignation"})
    assert after["view"]["over"], after["view"]


def test_the_review_of_an_online_match_opens_only_when_it_has_ended(site):
    ana, ion, table = site.match(length=1)
    game, tokens = table["game"], [ana, ion]
    for token in tokens:  # both players, asking to start it or to see it
        for method in (site.c.post, site.c.get):
            r = method(f"/api/games/{game}/review", headers=auth(token))
            assert (r.status_code, r.json()["code"]) == (409, "match_in_play"), r.json()
            assert "when the match has ended" in r.json()["message"]
        hint = site.c.get(f"/api/games/{game}/hint", headers=auth(token))
        assert (hint.status_code, hint.json()["code"]) == (403, "online")
    _resign_the_match(site, game, tokens)
    r = site.c.post(f"/api/games/{game}/review", json={"depth": 0}, headers=auth(ion))
    assert r.status_code == 202 and r.json()["state"] in ("running", "done"), r.json()
    assert site.c.get(f"/api/games/{game}/review", headers=auth(ana)).status_code == 200


def test_games_against_the_computer_and_on_one_device_keep_their_review_during_the_match(client):
    for mode in ("computer", "local"):
        g = new_game(client, mode=mode, length=3)
        r = client.post(f"/api/games/{g['game']}/review", json={"depth": 0}, headers=auth(g["token"]))
        assert r.status_code == 202, (mode, r.json())


def test_live_online_is_the_online_match_not_yet_over():
    from table.server.play.game import Game, GameConfig
    from table.server.learn.routes import live_online

    assert live_online(Game(GameConfig("online"))) and not live_online(Game(GameConfig("computer")))


def test_the_refusals_are_in_the_catalogue_in_both_languages():
    for lang in ("ro", "en"):
        words = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        for code in ("match_in_play", "online"):
            assert words.get(f"err_code_{code}"), (lang, code)
        rules = json.loads((I18N / f"pages.{lang}.json").read_text(encoding="utf-8"))["rules"]
        assert 'id="fair-play"' in rules, lang


# ---- the bot API's budget per address ---------------------------------------------------------


@pytest.fixture(scope="module")
def pool():
    pool = BotPool(1)
    yield pool
    pool.shutdown()


class _AtOnce:
    """A pool whose every answer is ready at once, for the tests of the budget alone: its hundreds
    of asks took a minute or more of real thinking, which the first test already shows."""

    async def run(self, fn, *args):
        return {"answer": fn.__name__}


def _api(pool, clock, address, limits=Limits()):
    """A client of the bot API (as ``create_app`` limits it) from ``address``, on a fake clock."""
    bucket = RateLimiter(limits.bot_api_per_minute / 60, limits.bot_api_burst, clock)
    return TestClient(Starlette(routes=botapi.routes(pool, bucket)), client=(address, 40000))


def _ask(c) -> int:
    return c.get("/api/eval", params={"position": Position.initial().id}).status_code


def test_the_bot_api_answers_a_small_burst_then_a_few_a_minute_per_address(pool):
    limits = Limits()
    clock = FakeClock(0.0)
    with _api(pool, clock, "10.0.0.1", limits) as one, _api(pool, clock, "10.0.0.2", limits) as two:
        assert [_ask(one) for _ in range(limits.bot_api_burst)] == [200] * limits.bot_api_burst
        refused = one.get("/move", params={"die1": "3", "die2": "1", "p24": "2", "p1": "-2"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        wait = int(refused.headers["Retry-After"])
        assert wait == round(60 / limits.bot_api_per_minute)
        assert _ask(two) == 200  # another address has its own budget
        clock.now += wait - 1
        assert _ask(one) == 429
        clock.now += 1
        assert _ask(one) == 200 and _ask(one) == 429


def test_a_match_cannot_be_played_through_the_bot_api_at_a_live_pace():
    # A rapid clock gives 8 s a decision: a player asking the API for every one of ~25 decisions
    # of each game of a 5-point match (~9 games) asks every 8 s or so for half an hour.
    clock = FakeClock(0.0)
    with _api(_AtOnce(), clock, "10.0.0.3") as c:
        answers = []
        for _ in range(9 * 25):
            answers.append(_ask(c))
            clock.now += 8
    answered = answers.count(200)
    # The burst and then one in every few: most decisions of the match go unanswered.
    assert answered < len(answers) / 2, answered
    assert answers[-20:].count(200) <= 6


def test_a_person_analysing_positions_never_meets_the_budget():
    # Twenty positions set up one after another, then one every 30 s for an hour.
    clock = FakeClock(0.0)
    with _api(_AtOnce(), clock, "10.0.0.4") as c:
        assert [_ask(c) for _ in range(20)] == [200] * 20
        for _ in range(120):
            clock.now += 30
            assert _ask(c) == 200


def test_the_app_gives_the_bot_api_that_budget(client):
    burst = Limits().bot_api_burst
    assert [_ask(client) for _ in range(burst)] == [200] * burst
    refused = client.get("/api/eval", params={"position": Position.initial().id})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
