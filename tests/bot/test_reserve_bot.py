"""The computer opponent in the variants whose checkers start off the board: Race, Dutch,
Acey-Deucey (28-entry boards, ``table.rules.reservekernel``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from table.bot.bot import Bot, BotError
from table.bot.evaluator import WIN, evaluator_for
from table.rules import aceydeucey
from table.rules.position import Position
from table.rules.reserve import folded
from table.tools import rulebased
from table.tools.duel import NETWORK, RULES, Player, duel, start_board
from table.bot.net import bundled
from tests.bot.games import play_seeded

RESERVE_VARIANTS = ("race", "dutch", "acey-deucey")


def _play_out(bot: Bot, variant: str, seed: int) -> None:
    """A seeded game of ``bot`` against itself to its end, every play checked legal."""
    assert play_seeded(bot.choose_play, Position.initial(variant), seed).result() != 0


@pytest.mark.parametrize("variant", RESERVE_VARIANTS)
def test_seeded_games_are_legal_to_the_end(variant: str) -> None:
    for seed in (1, 2):
        _play_out(Bot("medium"), variant, seed)
    _play_out(Bot("easy", seed=3), variant, 3)


@pytest.mark.parametrize("variant", RESERVE_VARIANTS)
def test_hard_plays_legally_from_the_start(variant: str) -> None:
    bot = Bot("hard", depth=1)
    p = play_seeded(bot.choose_play, Position.initial(variant), 7, turns=4)
    for dice in ((6, 5), (2, 2)):
        ranked = bot.ranked_plays(p, dice, depth=0)
        assert {str(q) for q, _ in ranked} == {str(q) for q in p.legal_plays(dice)}


def test_the_choice_does_not_depend_on_later_dice() -> None:
    # Two games with the same first ten rolls and different rolls after: the same first ten plays.
    def game(later: int) -> list[str]:
        rng, other = random.Random(11), random.Random(later)
        bot = Bot("medium")
        p = Position.initial("race")
        moves = []
        for t in range(20):
            src = rng if t < 10 else other
            dice = (src.randint(1, 6), src.randint(1, 6))
            play = bot.choose_play(p, dice)
            moves.append(str(play))
            p = p.swapped() if play is None else play.position
            if p.result():
                break
        return moves[:10]
    assert game(1) == game(2)


@pytest.mark.parametrize("variant", RESERVE_VARIANTS)
def test_it_bears_off_to_win_when_it_can(variant: str) -> None:
    # 2/off 1/off wins; 2/1 1/off is legal too (both dice used) and does not.
    p = Position.from_checkers({2: 1, 1: 1}, {26: 5, 20: 10}, variant)
    for level in ("easy", "medium", "hard"):
        play = Bot(level).choose_play(p, (2, 1))
        assert play is not None and play.position.result() < 0, level


@pytest.mark.parametrize("variant", RESERVE_VARIANTS)
def test_evaluation_reads_the_waiting_checkers(variant: str) -> None:
    bot = Bot("medium")
    # Far ahead: all home against a third still waiting and the rest just entered.
    ahead = Position.from_checkers({1: 5, 2: 5, 3: 5}, {26: 5, 20: 10}, variant)
    behind = ahead.swapped()
    assert bot.evaluate(ahead).win > 0.9
    assert bot.evaluate(behind).win < 0.1
    start = bot.evaluate(Position.initial(variant))
    assert 0.35 < start.win < 0.65
    # The evaluator seam judges the folded board alike.
    chances = evaluator_for(variant).evaluate(np.array([folded(ahead.board)], dtype=np.int8))
    assert chances[0, WIN] > 0.9


def test_resignation_and_cube_answers_in_dutch() -> None:
    bot = Bot("medium")
    lost = Position.from_checkers({1: 5, 2: 5, 3: 5}, {26: 15}, "dutch")  # the opponent resigns
    assert bot.accepts_resignation(lost.swapped(), 3)  # a backgammon: all it can win
    assert not bot.accepts_resignation(lost.swapped(), 1)  # gammons are likely
    decision = bot.cube_decision(Position.initial("dutch"))
    assert not decision.double


def test_choose_double_names_a_legal_double_and_play() -> None:
    bot = Bot("medium")
    rng = random.Random(5)
    p = Position.initial("acey-deucey")
    checked = 0
    for _ in range(200):
        if p.result():
            break
        if aceydeucey.can_play_both(p):
            first = bot.choose_play(p, (2, 1))
            assert first is not None and aceydeucey.played_both(first)
            if first.position.result() == 0:
                after = aceydeucey.still_on_roll(first)
                d, play = bot.choose_double(after)
                assert 1 <= d <= 6
                legal = after.legal_plays((d, d))
                assert (play is None) == (legal == [])
                assert play is None or play in legal
                checked += 1
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = bot.choose_play(p, dice)
        p = p.swapped() if play is None else play.position
    assert checked >= 3


def test_choose_double_prefers_the_double_that_wins() -> None:
    # Four checkers on the 6-point: 6-6 bears them all off, no other double does.
    p = Position.from_checkers({6: 4}, {26: 15}, "acey-deucey")
    d, play = Bot("medium").choose_double(p)
    assert d == 6 and play is not None and play.position.result() < 0


def test_choose_double_is_acey_deuceys() -> None:
    with pytest.raises(BotError, match="Acey-Deucey"):
        Bot("medium").choose_double(Position.initial("race"))


@pytest.mark.parametrize("variant", RESERVE_VARIANTS)
def test_rule_based_player_plays_reserve_variants(variant: str) -> None:
    assert play_seeded(rulebased.choose_play, Position.initial(variant), 9).result() != 0


@pytest.mark.parametrize("variant", RESERVE_VARIANTS)
def test_duel_plays_reserve_games_to_the_end(variant: str) -> None:
    res = duel(Player(NETWORK, bundled()), Player(RULES), 3, 1, start_board(variant), variant)
    assert len(res) == 3 and all(-6 <= r <= 6 for r in res)
    assert any(r != 0 for r in res)  # none abandoned as unfinished, and not all drawn pairs
