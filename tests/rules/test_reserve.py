"""Checkers waiting off the board: the 28-entry board, its Position ID, notation, counting.

Race, Dutch and Acey-Deucey share all of this; their rules have their own test files.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from table import Position
from table.errors import NotationError, PositionError, PositionIdError, VariantError
from table.rules import kernel
from table.rules.reserve import flip_reserve_rows
from table.rules.reservekernel import flip_reserve
from table.rules.variant import ACEY_DEUCEY, DUTCH, RACE, STANDARD, VARIANTS, Rules, Variant

RESERVE_VARIANTS = ["race", "dutch", "acey-deucey"]


@pytest.mark.parametrize("name", RESERVE_VARIANTS)
def test_every_checker_starts_waiting(name):
    p = Position.initial(name)
    assert p.board == (0,) * 26 + (15, -15)
    assert p.waiting() == (15, 15)
    assert p.borne_off() == (0, 0)
    assert p.pip_counts() == (15 * 25, 15 * 25)  # a waiting checker needs 25 pips, as from the bar
    assert p.checkers() == {26: 15} and p.checkers(mover=False) == {26: 15}
    assert p.id == "AAAAAAAAAAAAAA:15:15"
    assert not p.is_race() and p.result() == 0


def test_the_engine_plays_the_reserve_variants_and_the_product_lists_them():
    assert all(kernel.supports(v.rules) for v in (RACE, DUTCH, ACEY_DEUCEY))
    assert set(RESERVE_VARIANTS) <= set(VARIANTS)
    assert pickle.loads(pickle.dumps(RACE)) is RACE
    with pytest.raises(VariantError, match="need entry 'reserve'"):
        Variant(name="x", title="x", start=((24, 15),), rules=Rules(hit_needs_home=1))


def test_the_reserve_is_not_the_bar():
    # One hit checker and two waiting: the board keeps them apart, the counts add them.
    p = Position.from_checkers({25: 1, 26: 2, 6: 12}, {26: 15}, "race")
    assert p.board[25] == 1 and p.board[26] == 2 and p.board[27] == -15
    assert p.waiting() == (2, 15) and p.borne_off() == (0, 0)
    assert p.pip_counts() == (3 * 25 + 12 * 6, 15 * 25)


def test_turning_round_swaps_the_reserves():
    p = Position.from_checkers({24: 2, 26: 3, 25: 1}, {10: 4, 26: 7, 25: 2}, "race")
    s = p.swapped()
    assert s.checkers() == p.checkers(mover=False) and s.checkers(mover=False) == p.checkers()
    assert s.swapped() == p
    raw = np.array([p.board], dtype=np.int8)
    out = np.empty(28, dtype=np.int8)
    flip_reserve(raw[0], out)
    assert tuple(out) == s.board == tuple(flip_reserve_rows(raw)[0])


@pytest.mark.parametrize("name", RESERVE_VARIANTS)
def test_ids_round_trip(name):
    p = Position.from_checkers({24: 2, 13: 1, 26: 11, 25: 1}, {6: 5, 26: 10}, name)
    assert p.id.endswith(":11:10")
    q = Position.from_id(p.id, name)
    assert q == p and q.variant.name == name
    assert pickle.loads(pickle.dumps(p)) == p


def test_ids_are_refused_for_the_wrong_kind_of_variant():
    with pytest.raises(PositionIdError, match="waiting off the board.*not of Backgammon"):
        Position.from_id("AAAAAAAAAAAAAA:15:15")
    with pytest.raises(PositionIdError, match="waiting checkers of the player on roll"):
        Position.from_id("4HPwATDgc/ABMA", "race")
    with pytest.raises(PositionIdError, match="at most 15"):
        Position.from_id("4HPwATDgc/ABMA:1:0", "race")  # 15 on the board and 1 waiting
    with pytest.raises(PositionIdError, match="not a Position ID"):
        Position.from_id("4HPwATDgc/ABM!:0:0", "race")


def test_bad_boards_are_refused_with_a_reason():
    with pytest.raises(PositionError, match="28 entries"):
        Position((0,) * 26, "race")
    with pytest.raises(PositionError, match="entry 26"):
        Position((0,) * 26 + (-1, 0), "dutch")
    with pytest.raises(PositionError, match="26 for the checkers waiting"):
        Position.from_checkers({27: 1}, {}, "race")
    with pytest.raises(PositionError, match="at most 15"):
        Position.from_checkers({26: 15, 6: 1}, {}, "race")
    with pytest.raises(PositionError, match="1-24, or 25 for the bar$"):
        Position.from_checkers({26: 1}, {}, STANDARD)


def test_entering_from_the_reserve_is_written_from_in():
    p = Position.initial("race")
    assert sorted(str(q) for q in p.legal_plays((6, 5))) == ["in/14", "in/20 in/19"]
    # 2-2: one checker enters and goes on 6 pips (in/17), or two share the three moves after
    # entering (in/19 in/23, in/21(2)), or three enter and one moves on, or four enter: 5 plays.
    doubles = {str(q) for q in p.legal_plays((2, 2))}
    assert len(doubles) == 5 and {"in/17", "in/21(2)", "in/23(4)"} <= doubles
    play = p.parse_play("in/20 in/19", (6, 5))
    assert play.steps in (((26, 19), (26, 20)), ((26, 20), (26, 19)))
    assert str(p.parse_play("in/19/14", (6, 5))) == "in/14"
    assert str(p.parse_play("in/23(4)", (2, 2))) == "in/23(4)"
    with pytest.raises(NotationError):
        p.parse_play("in/x", (6, 5))


def test_a_hit_on_entering_is_marked():
    p = Position.from_checkers({26: 15}, {3: 1, 26: 14}, "race")  # their blot on our 22
    assert {"in/24 in/22*", "in/22*/21", "in/21"} <= {str(q) for q in p.legal_plays((3, 1))}
    after = p.parse_play("in/22* in/24", (3, 1)).position
    assert after.board[25] == 1 and after.waiting() == (14, 13)  # hit: on the bar, not waiting


def test_the_standard_board_and_generator_are_untouched():
    p = Position.initial()
    assert len(p.board) == 26 and p.id == "4HPwATDgc/ABMA" and p.waiting() == (0, 0)
    assert len(p.legal_plays((3, 1))) == 16
