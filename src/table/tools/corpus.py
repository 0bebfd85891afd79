"""Seeded sample positions from random games, for benchmarks and count fixtures.

>>> positions = random_positions(5, seed=1)
>>> len(positions), positions[0] == Position.initial()
(5, True)
"""

from __future__ import annotations

import random

from table.rules.position import Position


def random_positions(count: int, seed: int, variant: str = "standard") -> list[Position]:
    """The positions met, each before its roll, in games of ``variant`` of uniformly random plays.

    Games restart from the opening position when one ends, so the sample
    covers openings, middle games, races and bear-offs in their natural mix.
    """
    rng = random.Random(seed)
    out: list[Position] = []
    position = Position.initial(variant)
    while len(out) < count:
        out.append(position)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = position.legal_plays(dice)
        position = rng.choice(plays).position if plays else position.swapped()
        if position.is_game_over:
            position = Position.initial(variant)
    return out
