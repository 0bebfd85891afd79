"""A move carrying its play (``Move.of``) applies as its text does, and only when it is this roll's play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import IllegalActionError
from table.match import Match, Move, Phase, Roll
from table.rules.position import Play, Position


def _to_move_phase(seed: int, dice: tuple[int, int]) -> Match:
    m = Match(length=5, seed=seed)
    m.apply(m.legal_actions()[0])  # the opening roll
    m.apply(Move(str(m.position.legal_plays(m.dice)[0])))
    m.apply(Roll(dice))
    return m


@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(1, 6))
@settings(max_examples=60, deadline=None)
def test_a_held_play_applies_exactly_as_its_text(seed: int, a: int, b: int) -> None:
    by_text, by_play = _to_move_phase(seed, (a, b)), _to_move_phase(seed, (a, b))
    plays = by_play.position.legal_plays(by_play.dice)
    if not plays:
        return
    play = random.Random(seed).choice(plays)
    logged_text = by_text.apply(Move(str(play)))
    logged_play = by_play.apply(Move.of(play))
    assert logged_text == logged_play and logged_play.play == str(play)
    assert by_text.position == by_play.position and by_text.phase == by_play.phase == Phase.ROLL


def test_a_play_built_by_hand_is_checked_by_its_text() -> None:
    m = _to_move_phase(3, (6, 5))
    # A "play" that moves a checker from the 24 to the 13 and makes a position no roll reaches.
    fake = Play(m.position, ((24, 18), (18, 13)), Position.initial(), (6, 5))
    assert not fake.generated
    before = m.position
    with pytest.raises(IllegalActionError):
        m.apply(Move("bar/20", fake))  # the text is what counts when the play was not generated
    assert m.position == before and m.phase == Phase.MOVE


def test_a_play_of_another_roll_is_not_taken_on_trust() -> None:
    m = _to_move_phase(5, (2, 1))
    other = m.position.legal_plays((6, 6))[0]  # generated, but for a roll that was not rolled
    with pytest.raises(IllegalActionError):
        m.apply(Move.of(other))
    assert m.phase == Phase.MOVE


@given(st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_legal_kinds_are_the_kinds_of_the_legal_actions(seed: int) -> None:
    rng = random.Random(seed)
    m = Match(length=3, seed=seed)
    for _ in range(60):
        if m.phase == Phase.MATCH_OVER:
            break
        actions = m.legal_actions()
        assert m.legal_kinds() == frozenset(a.kind for a in actions)
        m.apply(rng.choice(actions))
