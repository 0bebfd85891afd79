"""The FIBS rating formula against hand-computed cases."""

from __future__ import annotations

import pytest

from table.server.online.ratings import Rating, RatingError, k_factor, rate, replay


def test_equal_ratings_one_point_move_by_ten() -> None:
    # D = 0: P_upset = 1/(1+1) = 0.5, the favourite's formula; 4 * 5 * 1 * 0.5 = 10.
    w, l = rate(Rating(), Rating(), 1)
    assert w == Rating(1510.0, 1) and l == Rating(1490.0, 1)


def test_equal_ratings_five_points() -> None:
    # 4 * 5 * sqrt(5) * 0.5 = 22.3607
    w, l = rate(Rating(1600, 0), Rating(1600, 0), 5)
    assert w.rating == pytest.approx(1622.3607, abs=1e-4)
    assert l.rating == pytest.approx(1577.6393, abs=1e-4)
    assert w.experience == l.experience == 5


def test_favourite_wins_300_points_apart() -> None:
    # n = 1, D = 300: 10^(300/2000) = 1.41254, P_upset = 1/2.41254 = 0.41450;
    # the favourite won, P = 0.41450; K = 5: 4 * 5 * 0.41450 = 8.2900.
    w, l = rate(Rating(1800, 0), Rating(1500, 0), 1)
    assert w.rating == pytest.approx(1808.2900, abs=1e-3)
    assert l.rating == pytest.approx(1491.7100, abs=1e-3)


def test_underdog_wins_300_points_apart() -> None:
    # The underdog won: P = 1 - 0.41450 = 0.58550; 4 * 5 * 0.58550 = 11.7100.
    w, l = rate(Rating(1500, 0), Rating(1800, 0), 1)
    assert w.rating == pytest.approx(1511.7100, abs=1e-3)
    assert l.rating == pytest.approx(1788.2900, abs=1e-3)


def test_300_points_apart_in_a_nine_point_match() -> None:
    # n = 9: 10^(300*3/2000) = 10^0.45 = 2.81838, P_upset = 0.26189;
    # favourite wins: 4 * 5 * 3 * 0.26189 = 15.7135.
    w, l = rate(Rating(1800, 0), Rating(1500, 0), 9)
    assert w.rating == pytest.approx(1815.7135, abs=1e-3)
    assert l.rating == pytest.approx(1484.2865, abs=1e-3)


def test_k_factor_by_experience() -> None:
    assert k_factor(0) == 5
    assert k_factor(150) == 3.5
    assert k_factor(400) == 1
    assert k_factor(500) == 1


def test_each_player_moves_by_their_own_k() -> None:
    # Equal ratings, n = 1, P = 0.5: the winner (experience 150, K 3.5) gains 7,
    # the loser (experience 500, K 1) loses 2.
    w, l = rate(Rating(1500, 150), Rating(1500, 500), 1)
    assert w == Rating(1507.0, 151) and l == Rating(1498.0, 501)


@pytest.mark.parametrize("length", [0, -3, 1.5, True])
def test_a_match_has_a_positive_length(length: object) -> None:
    with pytest.raises(RatingError, match="at least 1 point"):
        rate(Rating(), Rating(), length)  # type: ignore[arg-type]


def test_replay_applies_results_in_order() -> None:
    # 1 beats 2 (1510/1490), then 2 beats 1 back: 20 points apart, 2 the underdog.
    # 10^(20/2000) = 1.023293, P_upset = 0.494244, P = 0.505756; both now have
    # experience 1, K = 4.99: 4 * 4.99 * 0.505756 = 10.09489.
    got = replay([(1, 2, 1), (2, 1, 1)])
    assert got[2].rating == pytest.approx(1500.09489, abs=1e-4)
    assert got[1].rating == pytest.approx(1499.90511, abs=1e-4)
    assert got[1].experience == got[2].experience == 2
