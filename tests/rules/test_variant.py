"""Variants: the Variant value, Positions that know their variant, Nackgammon's start."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import Position
from table.errors import PositionError, VariantError
from table.rules.variant import (
    NACKGAMMON,
    NO_CAPTURE,
    STANDARD,
    VARIANTS,
    Rules,
    Variant,
    find_variant,
)

# GNU Backgammon 1.07: `set variation nackgammon`, `new session`, `show board`.
NACKGAMMON_START_ID = "4Dl4ADbgOXgANg"

# Legal plays from Nackgammon's start, counted by GNU Backgammon 1.07:
# `set variation nackgammon`, `new session`, `set board 4Dl4ADbgOXgANg`,
# `set evaluation chequerplay evaluation plies 0`, `set dice A B`, `hint 5000`
# (one line per play).  The same commands give 16, 7, 11, 42, 15, 52, 8 for the
# standard start, which tests/rules checks too.
NACKGAMMON_PLAYS = {(3, 1): 22, (6, 5): 7, (6, 6): 3, (1, 1): 70, (2, 1): 23, (4, 4): 25, (5, 2): 16}

# A three-checker game as issue 50's Hypergammon will be; not shipped, only a value.
THREE = Variant(name="three", title="Three", start=((24, 1), (23, 1), (22, 1)), checkers=3)


def test_find_variant_by_any_of_its_names() -> None:
    assert find_variant("standard") is STANDARD
    assert find_variant("Backgammon") is STANDARD
    assert find_variant(" Nackgammon ") is NACKGAMMON
    assert find_variant("NackGammon") is NACKGAMMON
    assert find_variant(NACKGAMMON) is NACKGAMMON
    assert set(VARIANTS) == {"standard", "nackgammon", "hypergammon", "race", "dutch", "acey-deucey"}


@pytest.mark.parametrize("name", ["grasshopper", "", "hypergammon4", "standard2"])
def test_unknown_variant_is_a_clear_error(name: str) -> None:
    with pytest.raises(VariantError, match=f"unknown variant '{name}': Table plays standard, nackgammon, hypergammon, race, dutch, acey-deucey"):
        find_variant(name)
    with pytest.raises(VariantError):
        Position.initial(name)
    with pytest.raises(VariantError):
        Position.from_id(NACKGAMMON_START_ID, variant=name)


def test_nackgammon_start_is_gnubgs() -> None:
    p = Position.initial("nackgammon")
    assert p.id == NACKGAMMON_START_ID
    assert p.variant is NACKGAMMON
    assert p.checkers() == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    assert p.checkers(mover=False) == p.checkers()
    assert p.pip_counts() == (2 * 24 + 2 * 23 + 4 * 13 + 3 * 8 + 4 * 6,) * 2
    assert Position.from_id(NACKGAMMON_START_ID, variant=NACKGAMMON) == p
    assert Position.initial() == Position.initial(STANDARD) != Position.from_id(NACKGAMMON_START_ID)


@pytest.mark.parametrize("roll,count", sorted(NACKGAMMON_PLAYS.items()))
def test_plays_from_nackgammon_start_as_gnubg_counts_them(roll: tuple[int, int], count: int) -> None:
    plays = Position.initial("nackgammon").legal_plays(roll)
    assert len(plays) == count
    assert all(play.position.variant is NACKGAMMON for play in plays)


def test_the_variant_travels_with_the_position() -> None:
    p = Position.initial("nackgammon")
    after = p.parse_play("24/21 23/22", (3, 1)).position
    assert after.variant is NACKGAMMON and after.swapped().variant is NACKGAMMON
    assert pickle.loads(pickle.dumps(after)) == after
    assert pickle.loads(pickle.dumps(after)).variant is NACKGAMMON
    assert repr(p) == "Position.from_id('4Dl4ADbgOXgANg', variant='nackgammon')"
    assert repr(Position.initial()) == "Position.from_id('4HPwATDgc/ABMA')"
    same_board = Position(p.board)
    assert same_board.variant is STANDARD and same_board != p


def test_checkers_per_side_come_from_the_variant() -> None:
    p = Position.from_checkers({3: 1}, {20: 2}, variant=THREE)
    assert p.borne_off() == (2, 1)
    assert p.result() == 0
    over = Position.from_checkers({}, {10: 3}, variant=THREE)
    assert over.result() == 2  # all three of the loser's checkers are still on: a gammon
    assert Position.from_checkers({}, {10: 2}, variant=THREE).result() == 1
    assert Position.from_checkers({}, {20: 3}, variant=THREE).result() == 3  # in the winner's home
    assert Position.initial(THREE).borne_off() == (0, 0)
    assert pickle.loads(pickle.dumps(p)) == p and pickle.loads(pickle.dumps(p)).borne_off() == (2, 1)
    with pytest.raises(PositionError, match="at most 3 are allowed"):
        Position.from_checkers({3: 4}, {20: 1}, variant=THREE)
    with pytest.raises(PositionError, match="at most 3 are allowed"):
        Position.from_id(NACKGAMMON_START_ID, variant=THREE)


def test_rules_the_move_generator_does_not_play_are_refused() -> None:
    # One checker closing a point while the sides move in opposite directions: no game plays it.
    odd = replace(STANDARD, name="odd", hitting=False, rules=Rules(block=1, capture=NO_CAPTURE))
    with pytest.raises(VariantError, match="does not play"):
        Position.initial(odd)


@pytest.mark.parametrize("change,problem", [
    (dict(hitting=False), "hitting and rules.capture disagree"),
    (dict(direction="same"), "direction and rules.turn disagree"),
    (dict(direction="sideways"), "direction is 'opposite' or 'same'"),
    (dict(entry="air"), "entry is 'bar' or 'reserve'"),
    (dict(rules=Rules(reserve_first=1)), "needs entry 'reserve'"),
    (dict(checkers=16), "checkers is 1 to 15"),
])
def test_a_variant_that_contradicts_itself_is_refused(change: dict[str, object], problem: str) -> None:
    with pytest.raises(VariantError, match=problem):
        replace(STANDARD, **change)  # type: ignore[arg-type]


def _random_game(variant: Variant, seed: int) -> list[Position]:
    rng = random.Random(seed)
    p = Position.initial(variant)
    seen = [p]
    for _ in range(400):
        if p.result():
            break
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        p = rng.choice(plays).position if plays else p.swapped()
        seen.append(p)
    return seen


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([STANDARD, NACKGAMMON, THREE]), st.integers(0, 10**6))
def test_checkers_are_conserved_in_every_variant(variant: Variant, seed: int) -> None:
    for p in _random_game(variant, seed):
        assert p.variant is variant
        mine, theirs = p.borne_off()
        on = sum(p.checkers(True).values()), sum(p.checkers(False).values())
        assert (mine + on[0], theirs + on[1]) == (variant.checkers, variant.checkers)
        assert 0 <= mine <= variant.checkers and 0 <= theirs <= variant.checkers
        if p.result():
            assert 0 in on
