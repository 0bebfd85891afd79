"""Invariants of Race, Dutch and Acey-Deucey plays, on positions from seeded random games.

Each play is replayed step by step here, so that what is checked (conservation, closed
points, the dice used, Dutch's entering first) does not rest on the generator's word.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position

from . import reserve_oracle

FLAGS = {"race": reserve_oracle.RACE, "dutch": reserve_oracle.DUTCH,
         "acey-deucey": reserve_oracle.ACEY}


def random_position(variant: str, seed: int, turns: int) -> Position:
    rng = random.Random(seed)
    p = Position.initial(variant)
    for _ in range(turns):
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        nxt = rng.choice(plays).position if plays else p.swapped()
        if nxt.is_game_over:
            break
        p = nxt
    return p


def in_play(board: tuple[int, ...], side: int) -> int:
    """A side's checkers on the board, on the bar or waiting (1: the mover, -1: the opponent)."""
    return sum(n * side for n in board if n * side > 0)


positions = st.builds(random_position, st.sampled_from(sorted(FLAGS)),
                      st.integers(0, 10**6), st.integers(0, 60))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(positions, dice)
def test_plays_keep_every_checker_and_obey_the_board(p, roll):
    before = p.board
    for play in p.legal_plays(roll):
        # Replayed in the oracle's own model (two dicts): a checker to move, no closed point.
        mine, theirs = reserve_oracle.from_board(before)
        for src, dst in play.steps:
            where = {26: "R", 25: "B"}.get(src, src)
            assert mine.get(where, 0) > 0, f"{play}: no checker to move from {src}"
            assert not dst or theirs.get(25 - dst, 0) <= 1, f"{play} lands on closed point {dst}"
            mine, theirs = reserve_oracle.move(mine, theirs, where, dst)
        after = play.position.swapped()
        assert reserve_oracle.to_board(mine, theirs) == after.board
        # Checkers conserved: on the board + bar + waiting + borne off = 15, for each side.
        off = sum(1 for _, dst in play.steps if dst == 0)
        assert in_play(after.board, 1) + off == in_play(before, 1)
        assert in_play(after.board, -1) == in_play(before, -1)
        assert sum(after.borne_off()) + in_play(after.board, 1) + in_play(after.board, -1) == 30


@settings(max_examples=60, deadline=None)
@given(positions, dice)
def test_each_play_uses_the_dice_as_the_rules_require(p, roll):
    plays = p.legal_plays(roll)
    d1, d2 = roll
    for play in plays:
        left = [d1] * 4 if d1 == d2 else [d1, d2]
        for src, dst in play.steps:
            pips = (25 if src == 26 else src) - dst
            # Each step uses one die of the roll: its number, or more when bearing off.
            die = min((d for d in left if d == pips or (dst == 0 and d > pips)), default=None)
            assert die is not None, f"{play}: no die of {roll} left for {src}/{dst}"
            left.remove(die)
        assert len(play.steps) == len(plays[0].steps)  # no play uses fewer dice than another
    # The same set of results as the naive oracle: the most dice, the higher die.
    expected = reserve_oracle.plays(p.board, roll, FLAGS[p.variant.name])
    assert {play.position.swapped().board for play in plays} == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 20), dice)
def test_in_dutch_nothing_but_entering_while_a_checker_waits(seed, turns, roll):
    p = random_position("dutch", seed, turns)
    for play in p.legal_plays(roll):
        waiting = p.board[26]
        for src, _ in play.steps:
            if waiting:
                assert src in (25, 26), f"{play} moves on the board while a checker waits"
            waiting -= src == 26
