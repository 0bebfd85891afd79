"""A whole rated match over real sockets moves both ratings exactly as the FIBS formula says."""

from __future__ import annotations

import threading

import pytest

from table.client import OnlineClient

from tests.server.test_online_bots import server  # noqa: F401 - fixture


def play(url, storage, names, *, person):
    """Two protocol clients (guests marked as bots, or as people) play a 3-point match; the creator's outcome."""
    a, b = OnlineClient(url, "easy", timeout=60), OnlineClient(url, "easy", timeout=60)
    for client, name in zip((a, b), names):
        answer = client.request("POST", "/api/guests", {"name": name, "bot": not person})
        client.token, client.name = answer["token"], answer["player"]["name"]
    table = a.create(3, "relaxed")
    assert table["rated"] is True
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("a", a.play(a.wait_for_game(table["id"]))))
    thread.start()
    b.play(b.join(table["id"]))
    thread.join(120)
    return out["a"], a


def test_a_rated_match_between_two_clients_moves_both_ratings_by_the_formula(server):
    url, storage = server
    outcome, client = play(url, storage, ("Ana", "Ion"), person=True)
    assert outcome.forfeit is None and max(outcome.score) >= 3
    winner, loser = outcome.names[outcome.winner], outcome.names[1 - outcome.winner]
    # Both at 1500 with experience 0, n = 3: P = 0.5, 4 * 5 * sqrt(3) * 0.5 = 17.3205.
    w, lo = client.request("GET", f"/api/players/{winner}"), client.request("GET", f"/api/players/{loser}")
    assert w["rating"] == pytest.approx(1517.32, abs=0.01) and lo["rating"] == pytest.approx(1482.68, abs=0.01)
    assert w["experience"] == lo["experience"] == 3
    assert (w["wins"], w["losses"], lo["wins"], lo["losses"]) == (1, 0, 0, 1)
    [row] = storage.match_results()
    assert row.outcome.rated and row.outcome.ended in ("normal", "resign")
    assert row.outcome.score == outcome.score


def test_a_match_between_bots_is_kept_but_not_rated(server):
    url, storage = server
    outcome, client = play(url, storage, ("Ana-bot", "Ion-bot"), person=False)
    for name in outcome.names:
        page = client.request("GET", f"/api/players/{name}")
        assert (page["rating"], page["experience"], page["games"]) == (1500, 0, 1)
    [row] = storage.match_results()
    assert not row.outcome.rated and row.before == row.after
