"""Ratings are kept per variant: a match moves only its own variant's rating and leaderboard."""

from __future__ import annotations

import pytest

from table.server.online.ratings import Rating, rate
from table.server.online.results import Outcome
from table.server.store import StorageError

from tests.server.storage_fixtures import storage, where  # noqa: F401 - fixtures


def _players(s):
    return [s.create_player(n, n.lower(), "h" + n).id for n in ("Ana", "Bo", "Cy")]


def test_each_variant_has_its_own_rating_chain(storage):
    ana, bo, cy = _players(storage)
    plays = [("standard", ana, bo, 3), ("nackgammon", bo, ana, 5), ("nackgammon", bo, cy, 1),
             ("standard", cy, ana, 1), ("nackgammon", ana, cy, 7)]
    expected: dict[tuple[str, int], Rating] = {}
    for n, (variant, winner, loser, length) in enumerate(plays):
        storage.create(f"g{n}", {"mode": "online"}, {})
        storage.record_match(Outcome(f"g{n}", None, (winner, loser), length, 0, (length, 0), "normal", True, variant))
        w, lo = rate(expected.get((variant, winner), Rating()), expected.get((variant, loser), Rating()), length)
        expected[variant, winner], expected[variant, loser] = w, lo
    for (variant, player), rating in expected.items():
        assert storage.rating(player, variant) == pytest.approx(rating)
    assert storage.rating(bo) == pytest.approx(expected["standard", bo])
    assert [r.outcome.variant for r in storage.match_results(ana, newest_first=False)] == [
        "standard", "nackgammon", "standard", "nackgammon"]
    assert [r.outcome.game_id for r in storage.match_results(ana, variant="nackgammon")] == ["g4", "g1"]
    assert storage.match_record(ana, "nackgammon") == {"games": 2, "wins_white": 1, "wins_black": 0, "draws": 0,
                                                       "points_played": 12}
    assert storage.match_record(ana)["games"] == 4
    standard = {p.id: v for p, v in storage.board("rating")[0]}
    assert standard == pytest.approx({p: expected["standard", p].rating for p in (ana, bo, cy)})
    nack = {p.id: v for p, v in storage.board("rating", variant="nackgammon")[0]}
    assert nack == pytest.approx({p: expected["nackgammon", p].rating for p in (ana, bo, cy)})
    assert storage.variants_played(bo) == ["standard", "nackgammon"]


def test_an_unknown_variant_is_refused_and_nothing_is_kept(storage):
    ana, bo, _ = _players(storage)
    storage.create("g", {"mode": "online"}, {})
    with pytest.raises(StorageError, match="variant among standard, nackgammon"):
        storage.record_match(Outcome("g", None, (ana, bo), 1, 0, (1, 0), "normal", True, "grasshopper"))
    assert storage.match_results() == [] and storage.variants_played(ana) == []
