"""The player page and the leaderboard per variant, from stored results (over HTTP)."""

from __future__ import annotations

import pytest

from table.server.online.ratings import Rating, rate
from table.server.online.results import Outcome

from tests.server.storage_fixtures import where  # noqa: F401 - fixture
from tests.server.test_online_tables import START, site  # noqa: F401 - fixture


def results(site, *plays):
    """Stored rated results ``(variant, winner name, loser name, length)`` in order; the ratings they give."""
    ids = {}
    for name in {n for _, w, lo, _ in plays for n in (w, lo)}:
        site.guest(name)
        ids[name] = site.storage.player_by_name_key(name.lower()).id
    expected: dict[tuple[str, str], Rating] = {}
    for n, (variant, w, lo, length) in enumerate(plays):
        site.storage.create(f"g{n}", {"mode": "online"}, {})
        site.storage.record_match(Outcome(f"g{n}", None, (ids[w], ids[lo]), length, 0, (length, 0), "normal",
                                          True, variant), now=START + n)
        expected[variant, w], expected[variant, lo] = rate(expected.get((variant, w), Rating()),
                                                           expected.get((variant, lo), Rating()), length)
    return expected


def test_the_player_page_shows_each_variants_rating_and_record(site):
    r = results(site, ("standard", "Ana", "Ion", 3), ("nackgammon", "Ion", "Ana", 5),
                ("nackgammon", "Ion", "Ana", 1), ("standard", "Ion", "Ana", 1))
    a = site.c.get("/api/players/ana").json()
    # The rating and its history are standard backgammon's, as before; the record counts every match.
    assert a["rating"] == round(r["standard", "Ana"].rating, 2) and a["experience"] == 4
    assert len(a["rating_history"]) == 2 and (a["games"], a["wins"], a["losses"]) == (4, 1, 3)
    assert a["variants"] == [
        {"variant": "standard", "rating": round(r["standard", "Ana"].rating, 2), "experience": 4,
         "games": 2, "wins": 1, "losses": 1, "draws": 0},
        {"variant": "nackgammon", "rating": round(r["nackgammon", "Ana"].rating, 2), "experience": 6,
         "games": 2, "wins": 0, "losses": 2, "draws": 0}]
    games = site.c.get("/api/players/ana/games").json()["games"]
    assert [g["variant"] for g in games] == ["standard", "nackgammon", "nackgammon", "standard"]


def test_a_player_of_standard_backgammon_only_has_one_variant(site):
    r = results(site, ("standard", "Ana", "Ion", 1))
    assert site.c.get("/api/players/ion").json()["variants"] == [
        {"variant": "standard", "rating": round(r["standard", "Ion"].rating, 2), "experience": 1,
         "games": 1, "wins": 0, "losses": 1, "draws": 0}]
    site.guest("Bo")
    assert site.c.get("/api/players/bo").json()["variants"] == []



def test_the_leaderboard_is_standard_unless_asked_for_a_variant(site):
    r = results(site, ("nackgammon", "Ion", "Ana", 3), ("standard", "Ana", "Ion", 1))
    board = site.c.get("/api/leaderboard").json()
    assert board["variant"] == "standard"
    assert [(x["name"], x["value"]) for x in board["rows"]] == [
        ("Ana", pytest.approx(r["standard", "Ana"].rating, abs=0.01)),
        ("Ion", pytest.approx(r["standard", "Ion"].rating, abs=0.01))]
    nack = site.c.get("/api/leaderboard?variant=NackGammon").json()
    assert nack["variant"] == "nackgammon"
    assert [(x["name"], x["value"]) for x in nack["rows"]] == [
        ("Ion", pytest.approx(r["nackgammon", "Ion"].rating, abs=0.01)),
        ("Ana", pytest.approx(r["nackgammon", "Ana"].rating, abs=0.01))]
    refused = site.c.get("/api/leaderboard?variant=grasshopper")
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_variant"
    assert "Table plays standard, nackgammon" in refused.json()["message"]
