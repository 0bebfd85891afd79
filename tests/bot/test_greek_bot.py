"""The computer's side of Plakoto and Fevga: the network inputs, the exact end, the search's
plays and the rule-based benchmark player, on positions of seeded random games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.bot import greekfeatures as gf
from table.bot.bot import Bot, BotError
from table.bot.features import PER_SIDE
from table.bot.net import Weights
from table.rules.greekkernel import PINS
from table.rules.plakoto import PLAKOTO_GAME
from table.tools import greekrules

from tests.rules.test_reserve_properties import random_position

positions = st.builds(random_position, st.sampled_from(["plakoto", "fevga"]),
                      st.integers(0, 10**6), st.integers(0, 120))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def side_counts(p: Position) -> tuple[int, int]:
    """Each side's checkers on the board, read through the public API (pinned ones included)."""
    return sum(p.checkers().values()), sum(p.checkers(mover=False).values())


def from_inputs(x: np.ndarray, game: str) -> int:
    """A side's checkers as its half of the inputs describes them (the module's layout:
    Plakoto's >=1, >=2, a third beyond two, pinned here; Fevga's >=1, >=2, >=3, half beyond three;
    then the share borne off)."""
    points = x[:gf.HAND_BASE].reshape(24, 4)
    if game == "plakoto":
        on = points[:, 0] + points[:, 1] + 3 * points[:, 2] + points[:, 3]
    else:
        on = points[:, 0] + points[:, 1] + points[:, 2] + 2 * points[:, 3]
    return int(round(float(on.sum() + 15 * x[gf.HAND_BASE])))


@settings(max_examples=80, deadline=None)
@given(positions)
def test_a_position_and_its_mirror_swap_the_two_halves(p: Position) -> None:
    x = gf.encode_position(p)
    y = gf.encode_position(p.swapped())
    assert x.shape == (gf.N_INPUTS,) and np.all(np.isfinite(x))
    assert np.array_equal(x[:PER_SIDE], y[PER_SIDE:]) and np.array_equal(x[PER_SIDE:], y[:PER_SIDE])


@settings(max_examples=80, deadline=None)
@given(positions)
def test_the_inputs_keep_every_checker(p: Position) -> None:
    x = gf.encode_position(p)
    game = p.variant.name
    mine, theirs = side_counts(p)
    borne = (15 - mine, 15 - theirs)
    assert (from_inputs(x[:PER_SIDE], game), from_inputs(x[PER_SIDE:], game)) == (15, 15)
    assert round(15 * float(x[gf.HAND_BASE])) == borne[0]
    assert round(15 * float(x[PER_SIDE + gf.HAND_BASE])) == borne[1]


def test_a_pin_is_an_input_of_the_pinned_side() -> None:
    p = Position.from_checkers({24: 14, 8: 1}, {24: 14, 20: 1}, "plakoto")
    after = p.parse_play("8/5*", "21").position  # the player now on roll is pinned on its 20
    x = gf.encode_position(after)
    assert x[(20 - 1) * 4 + 3] == 1.0 and x[(20 - 1) * 4] == 0.0  # pinned there, none on top
    assert x[PER_SIDE + (5 - 1) * 4] == 1.0  # the pinner on top of its 5-point
    assert x[:PER_SIDE][3:gf.HAND_BASE:4].sum() == 1.0  # no other pin


@settings(max_examples=60, deadline=None)
@given(positions, dice)
def test_the_exact_end_is_the_engines(p: Position, roll: tuple[int, int]) -> None:
    for play in p.legal_plays(roll):
        q = play.position
        out = np.zeros(5, dtype=np.float32)
        board = np.array(q.board, dtype=np.int8)
        over = gf.outcome(board, gf.game_code(len(board)), 15, out)
        assert over == q.is_game_over
        if over:
            expected = {2: [1, 1, 0, 0, 0], 1: [1, 0, 0, 0, 0], 0: [0.5, 0, 0, 0, 0],
                        -1: [0, 0, 0, 0, 0], -2: [0, 0, 0, 1, 0]}[q.result()]
            assert out.tolist() == expected and (q.result() == 0) == q.is_draw


def test_the_mothers_and_the_draw() -> None:
    # The mover's mother is pinned on its 24-point by one opposing checker; the opponent has
    # left its own 24-point: the mover has lost 2.
    board = np.zeros(50, dtype=np.int8)
    board[24], board[PINS + 24], board[6] = -1, 1, 14
    board[19] = -14
    out = np.zeros(5, dtype=np.float32)
    assert PLAKOTO_GAME.result(tuple(board.tolist()), 15) == (-2, True)
    assert gf.outcome(board, 0, 15, out) and out.tolist() == [0, 0, 0, 1, 0]
    # The mover has pinned the opponent's mother too (on the mover's 1-point): a draw.
    board[1], board[PINS + 1], board[6], board[19] = 1, -1, 13, -13
    assert PLAKOTO_GAME.result(tuple(board.tolist()), 15) == (0, True)
    assert gf.outcome(board, 0, 15, out) and out.tolist() == [0.5, 0, 0, 0, 0]


def test_the_race_network_once_no_checker_can_meet_another() -> None:
    plakoto = Position.from_checkers({6: 15}, {6: 15}, "plakoto")
    fevga = Position.from_checkers({12: 15}, {12: 14, 13: 1}, "fevga")
    for p, race in ((plakoto, True), (fevga, False), (Position.initial("fevga"), False)):
        board = np.array(p.board, dtype=np.int8)
        assert (gf.pick_net(board, gf.game_code(len(board))) == 1) == race == p.is_race()


@settings(max_examples=40, deadline=None)
@given(positions, dice)
def test_the_rule_based_player_plays_a_legal_play(p: Position, roll: tuple[int, int]) -> None:
    plays = p.legal_plays(roll)
    chosen = greekrules.choose_play(p, roll)
    assert (chosen is None) == (not plays)
    if chosen is not None:
        assert chosen in plays


# Small random networks: what is checked is that the search's choice is a legal play.
_BOTS = {depth: Bot("medium", weights=Weights.random(8, 3), depth=depth) for depth in (0, 1)}


@settings(max_examples=40, deadline=None)
@given(positions, dice, st.sampled_from([0, 1]))
def test_the_bot_plays_a_legal_play(p: Position, roll: tuple[int, int], depth: int) -> None:
    plays = p.legal_plays(roll)
    chosen = _BOTS[depth].choose_play(p, roll)
    assert (chosen is None) == (not plays)
    if chosen is not None:
        assert chosen in plays
    e = _BOTS[0].evaluate(p)
    assert 0.0 <= e.win <= 1.0 and e.win_backgammon == 0.0 and e.lose_backgammon == 0.0


def test_a_greek_game_played_by_the_bot_ends() -> None:
    bot = Bot("medium", weights=Weights.random(8, 4))
    for variant in ("plakoto", "fevga"):
        p = random_position(variant, 0, 0)
        rng = np.random.default_rng(5)
        for _ in range(2000):
            if p.is_game_over:
                break
            roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            play = bot.choose_play(p, roll)
            p = play.position if play is not None else p.swapped()
        assert p.is_game_over and p.result() in (-2, -1, 0)


def test_a_greek_game_without_networks_of_its_own_is_refused(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Never the standard networks: they read another board.
    from table.bot import bot as botmodule

    monkeypatch.setattr(botmodule, "bundled_path", lambda name: tmp_path / f"{name}.npz")
    p = random_position("fevga", 1, 30)
    with pytest.raises(BotError, match="no network ships for Fevga"):
        Bot("medium").evaluate(p)
    assert 0.0 <= Bot("medium", weights=Weights.random(8, 1)).evaluate(p).win <= 1.0


def test_the_levels_play_each_games_own_networks() -> None:
    from table.bot.net import bundled
    from table.tools.bench.strength import player

    for variant in ("plakoto", "fevga"):
        assert player("hard", variant)[1].weights is bundled(variant)
        p = random_position(variant, 2, 30)
        for level in ("easy", "medium"):
            assert Bot(level).choose_play(p, (6, 5)) in p.legal_plays((6, 5))
            assert 0.0 <= Bot(level).evaluate(p).win <= 1.0
