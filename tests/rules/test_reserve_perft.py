"""Exact play counts for Race, Dutch and Acey-Deucey against tests/fixtures/variants-perft.json.

The fixture is written by ``python3 -m tests.rules.make_reserve_perft`` from the naive
``reserve_oracle`` (no engine code); the JavaScript engine is to read the same file. A few
of its numbers are worked out by hand below, so that the oracle is checked as well.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from table import Position
from table.rules.reservekernel import count_tree

FIXTURE = json.loads((Path(__file__).parents[1] / "fixtures" / "variants-perft.json").read_text())
ROLLS = [(int(r[0]), int(r[1])) for r in FIXTURE["rolls"]]
CASES = [(name, row) for name, rows in FIXTURE["variants"].items() for row in rows]


def test_the_fixture_covers_each_variant_from_the_start_and_from_random_positions():
    assert set(FIXTURE["variants"]) == {"race", "dutch", "acey-deucey"}
    for rows in FIXTURE["variants"].values():
        assert rows[0]["id"] == "AAAAAAAAAAAAAA:15:15" and rows[0]["plies"] == 3
        assert len(rows) >= 10 and any(row["plies"] == 2 for row in rows[1:])


def test_hand_worked_counts():
    start = {name: rows[0] for name, rows in FIXTURE["variants"].items()}
    # Race and Acey-Deucey from the start: a non-double enters two checkers or one that goes
    # on (2 plays); a double enters k = 1..4 checkers sharing 4 - k moves (1+2+1+1 = 5 plays).
    by_hand = [5 if a == b else 2 for a, b in ROLLS]
    assert start["race"]["counts"] == start["acey-deucey"]["counts"] == by_hand
    # Dutch: each die must enter a checker while any wait, so every roll has one play, and
    # for three plies nobody can touch anybody (each side enters into the other's home board,
    # where only its own checkers stand, and nothing moves on): 21 ** 3 leaves.
    assert start["dutch"]["counts"] == [1] * 21
    assert start["dutch"]["leaves"] == 21 ** 3
    # Race and Acey-Deucey differ only once a hit checker waits on the bar, which needs a hit
    # first: the first ply cannot hit (the board is empty) and the second hit is a leaf, so the
    # two agree two plies deep; three plies deep they need not.
    assert sum(start["race"]["counts"]) == 60
    board = np.array(start["race"]["board"], dtype=np.int8)
    race, acey = (count_tree(board, 2, 0, 0, bar_first) for bar_first in (1, 0))
    assert race == acey and start["race"]["leaves"] != start["acey-deucey"]["leaves"]


@pytest.mark.parametrize("name,row", CASES, ids=[f"{n}-{r['id']}" for n, r in CASES])
def test_plays_per_roll(name, row):
    p = Position.from_id(row["id"], name)
    assert list(p.board) == row["board"]
    assert [len(p.legal_plays(roll)) for roll in ROLLS] == row["counts"]


@pytest.mark.parametrize("name,row", CASES, ids=[f"{n}-{r['id']}" for n, r in CASES])
def test_leaves(name, row):
    rules = Position.initial(name).variant.rules
    board = np.array(row["board"], dtype=np.int8)
    assert count_tree(board, row["plies"], rules.reserve_first, rules.hit_needs_home,
                      rules.bar_first) == row["leaves"]
