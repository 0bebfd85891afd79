"""The depth-parameterised search: same results as the search it replaced, filters, legality."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from table import Position
from table.bot import Bot, BotError
from table.bot import bearoff
from table.bot.net import Weights
from table.bot.bot import SETTINGS
from table.bot.search import COUNT_JUDGED, COUNT_OVER, MAX_DEPTH, choose, filters, make_net, make_work
from table.rules.kernel import MAX_PLAYS

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("data") / "search_fixture.npz"
WEIGHTS = ROOT / "training" / "checkpoints" / "refine-3.npz"


@cache
def fixture() -> dict[str, np.ndarray]:
    with np.load(FIXTURE) as data:
        return {k: data[k] for k in data.files}


@cache
def weights() -> Weights:
    return Weights.load(WEIGHTS)


def cases(depth: int) -> list[tuple[int, Position, tuple[int, int]]]:
    f = fixture()
    n = int(f["deep"]) if depth == 2 else len(f["boards"])
    return [(i, Position(int(v) for v in f["boards"][i]), (int(f["rolls"][i, 0]), int(f["rolls"][i, 1])))
            for i in range(n)]


def _without_representatives(bot: Bot) -> Bot:
    """``bot`` judging home boards as they stand, as the recorded search did.

    Since issue 48 a race's home board is judged as its bear-off class's representative
    (tests/bot/test_bearoff_equivalence.py); the database's two distributions alone leave
    the search as it was recorded.
    """
    bot._db = bearoff.database()[:2]
    return bot


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_same_plays_and_chances_as_the_search_it_replaced(depth: int) -> None:
    # Recorded by tests/bot/make_search_fixture.py with eval_1ply/eval_2ply (commit c8f3e3f).
    f = fixture()
    bot = _without_representatives(Bot("hard", weights=weights(), depth=depth))
    for i, pos, dice in cases(depth):
        play = bot.choose_play(pos, dice)
        assert play is not None
        assert play.position.board == tuple(int(v) for v in f["chosen"][depth, i]), (i, dice)
        got = bot.evaluate(pos, depth=depth).as_tuple()
        assert got == pytest.approx(tuple(f["chances"][depth, i]), abs=1e-6), i


def test_noisy_plays_draw_the_same_noise_as_before() -> None:
    f = fixture()
    easy = _without_representatives(Bot("easy", seed=int(f["easy_seed"]), weights=weights()))
    for i, pos, dice in cases(0):
        play = easy.choose_play(pos, dice)
        assert play is not None
        assert play.position.board == tuple(int(v) for v in f["easy_chosen"][i]), i


def _choice(pos: Position, dice: tuple[int, int], depth: int, keep: tuple[int, ...],
            margin: tuple[float, ...]) -> tuple[int, ...]:
    """The board after the play ``search.choose`` makes with these filters."""
    work = make_work(weights().hidden)
    net = make_net(weights(), bearoff.database())
    board = np.array(pos.board, dtype=np.int8)
    _, best = choose(net, work, board, dice[0], dice[1], depth, 0.0, *filters(keep, margin))
    return tuple(-int(v) for v in work.boards[0, best, ::-1])


def test_an_unfiltered_one_ply_search_picks_the_best_play_at_one_ply() -> None:
    judge = Bot("hard", weights=weights())
    for _, pos, dice in cases(1)[:6]:
        plays = pos.legal_plays(dice)
        by_hand = max(plays, key=lambda p: -judge.evaluate(p.position, depth=1).equity)
        assert _choice(pos, dice, 1, (10_000,), (100.0,)) == by_hand.position.board


@pytest.mark.parametrize("depth, keep, margin", [(2, (1,), (100.0,)), (1, (8,), (0.0,))])
def test_a_filter_that_keeps_only_the_best_play_gives_the_zero_ply_choice(
        depth: int, keep: tuple[int, ...], margin: tuple[float, ...]) -> None:
    zero = Bot("medium", weights=weights())
    for _, pos, dice in cases(0)[:20]:
        play = zero.choose_play(pos, dice)
        assert play is not None
        assert _choice(pos, dice, depth, keep, margin) == play.position.board


@pytest.mark.parametrize("depth", range(MAX_DEPTH + 1))
def test_each_depth_is_deterministic_and_legal(depth: int) -> None:
    a, b = Bot("hard", depth=depth), Bot("hard", depth=depth)
    for _, pos, dice in cases(depth)[:8]:
        play = a.choose_play(pos, dice)
        assert play in pos.legal_plays(dice)
        assert b.choose_play(pos, dice) == play
        e = a.evaluate(pos)
        assert e == b.evaluate(pos)
        assert e.win_backgammon <= e.win_gammon <= e.win <= 1.0


def test_depths_beyond_the_search_are_refused() -> None:
    with pytest.raises(BotError, match="search depth 3"):
        Bot("hard", depth=MAX_DEPTH + 1)
    with pytest.raises(BotError, match="search depth 3"):
        Bot("hard").evaluate(Position.initial(), depth=MAX_DEPTH + 1)


@pytest.mark.parametrize("keep, margin", [((), (0.1,)), ((0,), (0.1,)), ((3,), (-0.1,)),
                                          ((3,), ())])
def test_bad_filters_are_refused(keep: tuple[int, ...], margin: tuple[float, ...]) -> None:
    with pytest.raises(ValueError, match="move filter"):
        filters(keep, margin)


def _budgeted(pos: Position, dice: tuple[int, int], depth: int,
              budget: int) -> tuple[tuple[int, ...], int, bool, list[float]]:
    """The board after Greu's filters' choice with ``budget``, the plays judged, whether a
    stage was given up, and each play's equity at the deepest stage kept."""
    work = make_work(weights().hidden)
    net = make_net(weights(), bearoff.database())
    board = np.array(pos.board, dtype=np.int8)
    keep, margin = filters(SETTINGS["hard"].keep, SETTINGS["hard"].margin)
    n, best = choose(net, work, board, dice[0], dice[1], depth, 0.0, keep, margin, budget)
    return (tuple(-int(v) for v in work.boards[0, best, ::-1]), int(work.tally[COUNT_JUDGED]),
            bool(work.tally[COUNT_OVER]), work.eqs[0, :n].tolist())


@pytest.mark.parametrize("budget", [1_500, 6_000, 20_000])
def test_a_budget_caps_the_plays_judged_and_gives_up_whole_stages(budget: int) -> None:
    given_up = kept = 0
    for _, pos, dice in cases(2):
        full, judged, over, _ = _budgeted(pos, dice, 2, 0)
        assert not over
        capped, spent, over, eqs = _budgeted(pos, dice, 2, budget)
        # At most one roll's plays past the budget: it is looked at before each roll's.
        assert spent <= budget + MAX_PLAYS
        if not over:
            kept += 1
            assert (capped, spent) == (full, judged)
        else:
            given_up += 1
            assert judged > budget or spent < judged  # spent, or foreseen to be
            # The stage before decides, as if the search had stopped there: one ply ahead, or
            # none when the first ply was given up too.
            one = _budgeted(pos, dice, 1, budget)
            before = _budgeted(pos, dice, 0, 0) if one[2] else _budgeted(pos, dice, 1, 0)
            assert (capped, eqs) == (before[0], before[3])
    assert given_up and kept


def test_greu_budget_binds_rarely_in_standard_positions() -> None:
    hard = SETTINGS["hard"]
    assert 0 < hard.budget
    over = sum(_budgeted(pos, dice, 2, hard.budget)[2] for _, pos, dice in cases(2))
    assert over <= len(cases(2)) // 10
