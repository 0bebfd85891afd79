"""The cube's efficiency in contact follows the position's volatility (issue 13)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.bot import Bot, cube, search


def _board(mine: dict[int, int], theirs: dict[int, int]) -> list[int]:
    board = [0] * 26
    for i, n in mine.items():
        board[i] = n
    for i, n in theirs.items():
        board[i] = -n
    assert sum(v for v in board if v > 0) == 15 and -sum(v for v in board if v < 0) == 15
    return board


# The opponent on the bar against a 4-point board with two blots inside: every roll swings it.
BLITZ = _board({6: 3, 5: 2, 4: 2, 8: 3, 13: 3, 1: 1, 2: 1}, {0: 1, 19: 5, 17: 3, 12: 4, 24: 2})
# An anchor on the opponent's 1-point against a closed-out bear-in: few rolls change much.
QUIET = _board({6: 4, 5: 3, 4: 3, 3: 2, 2: 1, 24: 2}, {19: 4, 20: 4, 21: 3, 22: 2, 23: 2})


@settings(deadline=None)  # the first call compiles
@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_efficiency_falls_as_volatility_rises(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    x_lo, x_hi = cube.contact_efficiency(lo), cube.contact_efficiency(hi)
    assert cube.CONTACT_EFFICIENCY <= x_hi <= x_lo <= cube.QUIET_EFFICIENCY


def test_quiet_positions_get_a_livelier_cube_than_volatile_ones() -> None:
    bot = Bot("medium")
    net = search.make_net(bot.weights, bot._db)
    blitz = search.volatility(net, bot._work, np.array(BLITZ, np.int8))
    quiet = search.volatility(net, bot._work, np.array(QUIET, np.int8))
    assert 0.0 < quiet < blitz
    assert search.volatility(net, bot._work, np.array(BLITZ, np.int8)) == blitz  # deterministic
    assert bot.cube_efficiency(Position(QUIET)) > bot.cube_efficiency(Position(BLITZ))
    assert bot.cube_efficiency(Position(QUIET)) == cube.QUIET_EFFICIENCY


def test_races_and_the_last_roll_keep_their_efficiencies() -> None:
    bot = Bot("hard")
    race = [0] * 26
    race[5], race[6], race[20] = 1, 2, -3
    assert bot.cube_efficiency(Position(race)) == cube.RACE_EFFICIENCY
    last = [0] * 26
    last[5], last[6], last[23] = 1, 1, -1
    assert bot.cube_efficiency(Position(last)) == 0.0


def test_a_quiet_position_is_doubled_later() -> None:
    # Chances in the doubling window of the volatile cube but short of the quiet one's.
    p = cube.Chances(0.73, 0.0, 0.0, 0.0, 0.0)
    assert cube.money_double(p, efficiency=cube.CONTACT_EFFICIENCY).double
    assert not cube.money_double(p, efficiency=cube.QUIET_EFFICIENCY).double
