"""FIBS ratings: what a rated match does to both players' ratings.

Every player starts at 1500 with experience 0.  After an n-point match (a
single game counts as n = 1) between ratings r1 and r2, with D = |r1 - r2|,
the underdog's chance is P_upset = 1 / (10^(D·√n/2000) + 1); P is 1 - P_upset
when the underdog won and P_upset when the favourite did.  Each player's
factor is K = max(1, 5 - experience/100); the winner gains 4·K·√n·P and the
loser loses 4·K·√n·P, each with their own K, and both gain n experience.

Pure functions: storage keeps every match result with the ratings before and
after (``match_results``), so ratings can always be recomputed with
:func:`replay`.

>>> winner, loser = rate(Rating(), Rating(), 1)
>>> round(winner.rating, 3), round(loser.rating, 3), winner.experience
(1510.0, 1490.0, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from table.errors import TableError

START = 1500.0
"""Every player's rating before their first rated match."""


class RatingError(TableError):
    """A match that cannot be rated (a length that is not a positive whole number)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating and experience (the sum of the lengths of their rated matches)."""

    rating: float = START
    experience: int = 0


def k_factor(experience: int) -> float:
    """How much a player's rating moves: 5 for a newcomer, down to 1 from 400 points of experience.

    >>> k_factor(0), k_factor(150), k_factor(500)
    (5.0, 3.5, 1.0)
    """
    return max(1.0, 5.0 - experience / 100)


def upset_chance(difference: float, length: int) -> float:
    """The underdog's chance of winning a ``length``-point match ``difference`` rating points apart."""
    return 1.0 / (10 ** (abs(difference) * math.sqrt(length) / 2000) + 1)


def rate(winner: Rating, loser: Rating, length: int) -> tuple[Rating, Rating]:
    """The winner's and the loser's ratings after a rated ``length``-point match."""
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise RatingError(f"a rated match is at least 1 point long, got {length!r}")
    upset = upset_chance(winner.rating - loser.rating, length)
    p = 1 - upset if winner.rating < loser.rating else upset
    step = 4 * math.sqrt(length) * p
    return (Rating(winner.rating + k_factor(winner.experience) * step, winner.experience + length),
            Rating(loser.rating - k_factor(loser.experience) * step, loser.experience + length))


def replay(results: Iterable[tuple[int, int, int]]) -> dict[int, Rating]:
    """Every player's rating after the rated ``(winner, loser, length)`` results, in order.

    >>> replay([(1, 2, 1), (2, 1, 1)])[1].experience
    2
    """
    ratings: dict[int, Rating] = {}
    for winner, loser, length in results:
        ratings[winner], ratings[loser] = rate(ratings.get(winner, Rating()), ratings.get(loser, Rating()), length)
    return ratings
