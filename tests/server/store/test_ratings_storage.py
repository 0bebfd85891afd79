"""Stored match results: ratings are always recomputable from them, in order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.server.online.ledger import Entry
from table.server.online.ratings import Rating, replay
from table.server.online.results import Outcome
from table.server.store import StorageError, open_storage

from tests.server.storage_fixtures import storage, where  # noqa: F401 - fixtures

results = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 3), st.sampled_from([1, 3, 5, 7, 21]),
                             st.integers(0, 1), st.sampled_from(["normal", "resign", "left", "timeout"]),
                             st.booleans()), min_size=1, max_size=40)


@settings(max_examples=30, deadline=None)
@given(results)
def test_stored_ratings_equal_a_recomputation_from_the_stored_results(draws):
    s = open_storage(":memory:")
    try:
        ids = [s.create_player(f"P{i}", f"p{i}", f"h{i}").id for i in range(4)]
        for n, (a, step, length, winner, ended, rated) in enumerate(draws):
            b = (a + step) % 4  # never the same player twice
            game = f"g{n}"
            s.create(game, {"mode": "online"}, {})
            s.append_online(game, 0, {"type": "forfeit"}, match=Outcome(
                game, None, (ids[a], ids[b]), length, winner, (0, 0), ended, rated),
                ledger=[Entry(ids[a], 1, "x", game)], now=1000.0 + n)
        stored = s.match_results(limit=10_000, newest_first=False)
        assert [r.outcome.game_id for r in stored] == [f"g{n}" for n in range(len(draws))]
        expected = replay((r.outcome.players[r.outcome.winner], r.outcome.players[1 - r.outcome.winner],
                           r.outcome.length) for r in stored if r.outcome.rated)
        for i in ids:
            assert s.rating(i) == pytest.approx(expected.get(i, Rating()))
        # Each row's "before" is the player's "after" in their previous row: an unbroken chain.
        last: dict[int, Rating] = {}
        for r in stored:
            for seat, p in enumerate(r.outcome.players):
                assert r.before[seat] == last.get(p, Rating())
                if not r.outcome.rated:
                    assert r.after[seat] == r.before[seat]
                last[p] = r.after[seat]
    finally:
        s.close()


def test_a_bad_result_is_refused_and_changes_nothing(storage):
    a, b = storage.create_player("A", "a", "ha").id, storage.create_player("B", "b", "hb").id
    storage.create("g", {"mode": "online"}, {})
    for bad in (Outcome("g", None, (a, b), 3, 2, (0, 0), "normal", True),
                Outcome("g", None, (a, a), 3, 0, (0, 0), "normal", True),
                Outcome("g", None, (a, b), 3, 0, (0, 0), "gave-up", True)):
        with pytest.raises(StorageError, match="a match result has two players"):
            storage.record_match(bad)
    storage.record_match(Outcome("g", None, (a, b), 3, 1, (0, 3), "normal", True))
    with pytest.raises(StorageError, match="already has a result"):
        storage.record_match(Outcome("g", None, (a, b), 3, 1, (0, 3), "normal", True))
    assert len(storage.match_results()) == 1
    assert storage.rating(b).experience == 3 and storage.rating(b).rating > 1500
