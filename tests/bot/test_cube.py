"""Cube decisions: the textbook race rules, money theory, match equities, resignations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.bot import Bot
from table.bot.cube import (
    Chances,
    CubeError,
    accept_resignation,
    efficiency,
    last_roll,
    match_double,
    money_double,
    money_equity,
)
from table.bot.met import match_equity, post_crawford

BOT = Bot("medium")


def smooth(pips: int) -> dict[int, int]:
    """15 checkers spread over the home board as evenly as the pip count allows."""
    cur = {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3}

    def total() -> int:
        return sum(p * n for p, n in cur.items())

    while total() != pips:
        if total() < pips:
            src = min((p for p in range(1, 6) if cur[p] > 0), key=lambda p: cur[p + 1] - cur[p])
            cur[src] -= 1
            cur[src + 1] += 1
        else:
            src = max((p for p in range(2, 7) if cur[p] > 0), key=lambda p: cur[p - 1] - cur[p])
            cur[src] -= 1
            cur[src - 1] += 1
    return {p: n for p, n in cur.items() if n}


def race(leader: int, lead: float) -> Position:
    return Position.from_checkers(smooth(leader), smooth(round(leader * (1 + lead))))


# The race rules (double with about an 8% lead, take up to about 12%), checked on
# home-board races, where the bear-off database makes the chances exact; the
# tolerance allows for the wastage of short races.
@pytest.mark.parametrize("leader", [60, 65])
def test_race_small_lead_no_double(leader: int) -> None:
    assert not BOT.cube_decision(race(leader, 0.02)).double


@pytest.mark.parametrize("leader", [60, 65])
@pytest.mark.parametrize("lead", [0.08, 0.10, 0.12])
def test_race_double_take(leader: int, lead: float) -> None:
    d = BOT.cube_decision(race(leader, lead))
    assert d.double and d.take


@pytest.mark.parametrize("leader", [60, 65])
def test_race_big_lead_pass(leader: int) -> None:
    d = BOT.cube_decision(race(leader, 0.20))
    assert d.double and not d.take


def test_money_gammonless_window() -> None:
    # Live-cube theory without gammons: double from about 68-70%, pass beyond about 78-80%.
    assert not money_double(Chances(0.65, 0, 0, 0, 0)).double
    d = money_double(Chances(0.74, 0, 0, 0, 0))
    assert d.double and d.take
    d = money_double(Chances(0.82, 0, 0, 0, 0))
    assert d.double and not d.take


def test_money_too_good_to_double() -> None:
    d = money_double(Chances(0.90, 0.60, 0.05, 0.0, 0.0))
    assert not d.double and d.no_double > 1.0


def test_money_too_good_on_a_fraction_of_janowskis_line() -> None:
    # 85% wins, 30% gammons, 2% lost gammons: W = 1.353, L = 1.133, dead equity 0.980, cash
    # point 0.7144.  Capped at +1 the live cube made it 0.72 + 0.28 * 0.980 = 0.994: a double
    # and a pass.  Rising past the cash point at 0.15 of the slope to W, the live cube is worth
    # 1 + 0.15 * 0.353 * (0.85 - 0.7144) / (1 - 0.7144) = 1.0251 and no double 1.0125: too good.
    d = money_double(Chances(0.85, 0.30, 0.0, 0.02, 0.0))
    assert not d.double and not d.take
    assert d.no_double == pytest.approx(1.0125, abs=2e-4)
    # Without gammons W is 1: past the cash point a fully live cube is worth a cash, no more.
    for owner in ("centre", "player"):
        assert money_equity(Chances(0.90, 0.0, 0.0, 0.0, 0.0), owner, 1.0) == pytest.approx(1.0)


def test_money_owner_and_cube_value() -> None:
    d1 = money_double(Chances(0.74, 0, 0, 0, 0), cube=1)
    d4 = money_double(Chances(0.74, 0, 0, 0, 0), cube=4)
    assert d4.no_double == pytest.approx(4 * d1.no_double)
    # Without access (the opponent owns the cube) there is no double.
    assert not money_double(Chances(0.74, 0, 0, 0, 0), owner="opponent").double


def test_bad_cube_parameters() -> None:
    with pytest.raises(CubeError, match="power of two"):
        money_double(Chances(0.5, 0, 0, 0, 0), cube=3)
    with pytest.raises(CubeError, match="owner"):
        money_double(Chances(0.5, 0, 0, 0, 0), owner="me")
    with pytest.raises(CubeError, match="ordered"):
        money_double(Chances(0.5, 0.6, 0, 0, 0))
    with pytest.raises(CubeError, match="not a live score"):
        match_double(Chances(0.5, 0, 0, 0, 0), 5, (5, 0))


def test_match_equity_table() -> None:
    assert match_equity(1, 1) == 0.5
    for a in range(2, 12):
        assert match_equity(a, a) == pytest.approx(0.5)
        for b in range(2, 12):
            assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0)
            if b > 2:
                assert match_equity(a, b) > match_equity(a, b - 1)
    # Published tables put the Crawford leader at 1-away 2-away near 0.68-0.70,
    # and 2-away 4-away near 0.67-0.68.
    assert 0.66 <= match_equity(1, 2, crawford=True) <= 0.72
    assert 0.64 <= match_equity(2, 4) <= 0.71
    assert post_crawford(1, 3) > post_crawford(1, 2)


def test_match_crawford_and_post_crawford() -> None:
    p = Chances(0.7, 0.1, 0.0, 0.1, 0.0)
    assert not match_double(p, 5, (4, 0), crawford=True).double  # no cube in the Crawford game
    even = Chances(0.5, 0.1, 0.0, 0.1, 0.0)
    d = match_double(even, 5, (0, 4))  # the trailer, post-Crawford: double at once
    assert d.double and d.take
    assert not match_double(even, 5, (4, 0)).double  # the leader gains nothing
    assert not match_double(p, 1, (0, 0)).double  # double match point: a dead cube


def test_match_two_away_two_away() -> None:
    d = match_double(Chances(0.6, 0.1, 0.0, 0.1, 0.0), 2, (0, 0))
    assert d.double and d.take


def test_resignations() -> None:
    crushing = Chances(0.99, 0.5, 0.0, 0.0, 0.0)
    assert not accept_resignation(crushing, 1)
    assert accept_resignation(crushing, 2)
    assert accept_resignation(Chances(0.3, 0.0, 0.0, 0.2, 0.0), 1)
    with pytest.raises(CubeError, match="1, 2 or 3"):
        accept_resignation(crushing, 4)
    # Match play: at 4-away each in a 5-point match, a single game is worth less than a gammon.
    assert not accept_resignation(crushing, 1, length=5, score=(1, 1))
    assert accept_resignation(crushing, 2, length=5, score=(1, 1))


def test_bot_resignation_from_the_resigners_side() -> None:
    # The resigner is on roll in a hopeless race; the bot accepts a single game.
    p = Position.from_checkers({6: 14}, {1: 1})
    assert BOT.accepts_resignation(p, 1)


def test_jacoby_makes_gammonish_positions_double() -> None:
    # Big gammon chances: too good to double normally, but under Jacoby the gammons
    # count only after a double, so the cube is turned.
    p = Chances(0.80, 0.45, 0.02, 0.0, 0.0)
    assert not money_double(p).double
    assert money_double(p, jacoby=True).double


def test_crawford_game_has_a_dead_cube_and_post_crawford_scores_after_it() -> None:
    # Trailer 3-away in the Crawford game, even chances, no gammons: a win leaves him
    # 2-away post-Crawford, a loss ends the match.  The cube's efficiency cannot matter.
    even = Chances(0.5, 0.0, 0.0, 0.0, 0.0)
    d = match_double(even, 5, (2, 4), crawford=True)
    assert not d.double
    assert d.no_double == pytest.approx(0.5 * (1.0 - post_crawford(1, 2)))
    assert match_double(even, 5, (2, 4), crawford=True, efficiency=0.0).no_double == \
        pytest.approx(d.no_double)
    # Post-Crawford 2-away differs from the Crawford game's 2-away by the free drop.
    assert d.no_double != pytest.approx(0.5 * (1.0 - match_equity(1, 2, crawford=True)))


def test_post_crawford_free_drop() -> None:
    # 1-away 2-away: a drop gives double match point (50%), so the leader is above 50%
    # by the free drop; published tables put it near 51.2% (docs/cube.md).
    assert 0.505 <= post_crawford(1, 2) <= 0.52
    # Trailer 3-away and 4-away need the same two doubled games: nearly the same score.
    assert abs(post_crawford(1, 3) - post_crawford(1, 4)) < 0.02
    assert post_crawford(1, 4) > post_crawford(1, 3)
    # Published post-Crawford trailer chances (2 to 6 away): 48.6, 31.9, 30.6, 18.7, 17.7.
    for b, published in zip(range(2, 7), (0.486, 0.319, 0.306, 0.187, 0.177)):
        assert abs((1.0 - post_crawford(1, b)) - published) < 0.025


def test_answer_first_double() -> None:
    from table.bot.met import answer_first_double

    # Taking with q: q + (1 - q) keep.  A drop worth less than any take is never chosen.
    assert answer_first_double(0.3, 0.1, 0.06) == pytest.approx(0.5 + 0.5 * 0.3)
    # A drop worth more than every take is always chosen.
    assert answer_first_double(0.0, 0.9, 0.06) == pytest.approx(0.9)
    # Spread or not, the choice never loses to always taking.
    for keep, drop in ((0.0, 0.5), (0.2, 0.55), (0.4, 0.6)):
        assert answer_first_double(keep, drop, 0.1) >= 0.5 + 0.5 * keep - 1e-12


@given(st.floats(1.0, 2.0), st.floats(1.0, 2.0), st.floats(0.0, 1.0),
       st.sampled_from(["centre", "player", "opponent"]))
def test_money_equity_rises_with_the_chance_of_winning(w: float, ell: float, x: float,
                                                       owner: str) -> None:
    def eq(pw: float) -> float:
        return money_equity(Chances(pw, (w - 1) * pw, 0.0, (ell - 1) * (1 - pw), 0.0), owner, x)

    values = [eq(i / 200) for i in range(1, 200)]
    # Rising, and with no jumps: the live part is continuous through the cube points.
    assert all(b >= a - 1e-9 for a, b in zip(values, values[1:]))
    assert all(b - a < 0.1 for a, b in zip(values, values[1:]))
    # Between the dead-cube and the fully-live-cube value at every chance.
    assert -ell - 1e-9 <= values[0] and values[-1] <= w + 1e-9


# --- the last roll: a dead cube ---------------------------------------------------------------

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A bear-off race: the mover's checkers on his points, the opponent's on his own points."""
    board = [0] * 26
    for point, n in mine.items():
        board[point] = n
    for point, n in theirs.items():
        board[25 - point] = -n
    return Position(board)


def _sure_off(p: Position) -> bool:
    """Every roll has a play that bears off all the mover's checkers (by the rules engine)."""
    return all(any(play.position.is_game_over for play in p.legal_plays(d)) for d in ROLLS)


def _chance_off(p: Position) -> float:
    """The mover's chance to bear off all his checkers with this roll (by the rules engine)."""
    return sum((1 if a == b else 2) for a, b in ROLLS
               if any(play.position.is_game_over for play in p.legal_plays((a, b)))) / 36


_home = st.dictionaries(st.integers(1, 6), st.integers(1, 2), min_size=1, max_size=3)


@settings(deadline=None)  # the first example compiles the check
@given(_home, _home)
def test_the_cube_is_dead_exactly_when_the_opponent_surely_finishes_next_roll(
        mine: dict[int, int], theirs: dict[int, int]) -> None:
    p = _race(mine, theirs)
    assert (efficiency(p) == 0.0) == _sure_off(p.swapped())
    assert last_roll(np.array(p.board, dtype=np.int8)) == _sure_off(p.swapped())


def test_no_dead_cube_while_the_opponent_can_still_be_hit() -> None:
    board = [0] * 26
    board[24], board[5] = 1, 1  # a checker still behind the opponent's last one
    board[23] = -1
    assert not last_roll(np.array(board, dtype=np.int8))
    assert efficiency(Position(board)) > 0


@pytest.mark.parametrize("mine", [{4: 1, 1: 1}, {5: 1, 2: 1}, {6: 1, 1: 1}, {3: 2}, {6: 1, 5: 1}])
def test_last_roll_doubles_when_more_likely_than_not_and_takes_up_to_three_in_four(
        mine: dict[int, int]) -> None:
    # Dead cube: no double is worth 2p - 1, double-take twice that, double-pass 1.
    p = _race(mine, {2: 1})
    win = _chance_off(p)
    decision = Bot("hard").cube_decision(p)
    assert decision.double == (win > 0.5) and decision.take == (win <= 0.75), win
    assert decision.no_double == pytest.approx(2 * win - 1, abs=1e-6)
