"""Invariants of Plakoto and Fevga plays, on positions from seeded random games.

Each play is replayed step by step in the oracle's own model (``greek_oracle``: each side's
checkers by its own numbering, pins as sets), so that what is checked (conservation, pinned
checkers, closed points, Fevga's blocks, the dice used) does not rest on the generator's word.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position

from . import greek_oracle as oracle
from .test_reserve_properties import random_position  # a seeded random game of any variant


def _free(side: dict[int, int], pins: set[int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((q, n - (q in pins)) for q, n in side.items() if n - (q in pins)))


def state_of(p: Position) -> oracle.State:
    """The oracle's view of a position, read through the public API (by each side's numbering)."""
    game = p.variant.name
    mine, theirs = p.checkers(), p.checkers(mover=False)
    mine_pinned, theirs_pinned = set(), set()
    if game == "plakoto":  # a pinned checker is one under the other side's checkers
        b = p.board
        mine_pinned = {i for i in range(1, 25) if b[25 + i] > 0}
        theirs_pinned = {25 - i for i in range(1, 25) if b[25 + i] < 0}
    return oracle.State(_free(mine, mine_pinned), frozenset(mine_pinned),
                        _free(theirs, theirs_pinned), frozenset(theirs_pinned))


positions = st.builds(random_position, st.sampled_from(["plakoto", "fevga"]),
                      st.integers(0, 10**6), st.integers(0, 90))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def on_board(state: oracle.State) -> tuple[int, int]:
    return (sum(n for _, n in state.mine) + len(state.mine_pinned),
            sum(n for _, n in state.theirs) + len(state.theirs_pinned))


@settings(max_examples=50, deadline=None)
@given(positions, dice)
def test_plays_keep_every_checker_and_obey_the_board(p, roll):
    game = p.variant.name
    before = state_of(p)
    assert Position.from_id(p.id, game) == p and p.swapped().swapped() == p
    plays = p.legal_plays(roll)
    for play in plays:
        here = before
        for src, dst in play.steps:
            # A checker to move that is not pinned, and a landing point that is not closed.
            assert dict(here.mine).get(src, 0) > 0, (str(play), src)
            die = src - dst if dst else min(d for d in roll if d >= src)
            assert die in roll
            assert oracle._may_step(game, dict(here.mine), set(here.mine_pinned), dict(here.theirs),
                                    src, die) == dst
            here = oracle._step(game, here, src, dst)[0]
        after = state_of(play.position.swapped())
        assert after == here
        # 15 a side: on the board (pinned or not) or borne off.
        assert [a + b for a, b in zip(on_board(after), play.position.swapped().borne_off())] == [15, 15]
        # A pinned checker of the side that moved is still pinned where it was.
        assert before.mine_pinned <= after.mine_pinned
        if game == "fevga":
            assert not oracle.holds_start_quarter(after)
    if game == "fevga" and plays:
        trapping = [oracle.traps(state_of(q.position.swapped())) for q in plays]
        assert all(trapping) or not any(trapping)


@settings(max_examples=40, deadline=None)
@given(positions, dice)
def test_every_play_uses_the_dice_as_maximum_use_requires(p, roll):
    # The oracle tries every sequence itself: the plays must be exactly its plays.
    game = p.variant.name
    plays = p.legal_plays(roll)
    expected = oracle.plays(game, state_of(p), roll)
    assert {state_of(q.position.swapped()) for q in plays} == set(expected)
    assert len(plays) == len(expected)
    used = {len(q.steps) for q in plays}
    assert len(used) <= 1  # every play uses as many dice as any other
    if used == {1} and roll[0] != roll[1]:
        dies = {src - dst for q in plays for src, dst in q.steps if dst}
        assert dies <= set(roll)
