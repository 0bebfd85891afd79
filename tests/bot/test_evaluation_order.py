"""Evaluations are ordered exactly, as the cube code requires, at every level."""

from __future__ import annotations

import pytest

from table import Position
from table.bot import Bot
from table.tools.corpus import random_positions

# Positions whose single-precision chances once put a gammon loss a hair
# above the chance of losing (1 - win), which the cube code rejects.
KNOWN = [Position.from_id(i) for i in ("jL8BEBPgAQXkNw", "jH8DRBDgCUHINw",
                                       "/z0wAAA3gBi4DQ", "jL9AghjgAYDmPQ")]
POSITIONS = KNOWN + random_positions(400, seed=3)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_chances_are_ordered_in_double_precision(level: str) -> None:
    bot = Bot(level=level, seed=1)
    # Greu looks two plies ahead (tens of milliseconds a position): a quarter of them will do.
    for position in POSITIONS if level != "hard" else POSITIONS[:104]:
        e = bot.evaluate(position)
        assert 0.0 <= e.win_backgammon <= e.win_gammon <= e.win <= 1.0, (position.id, e)
        assert 0.0 <= e.lose_backgammon <= e.lose_gammon <= 1.0 - e.win, (position.id, e)
