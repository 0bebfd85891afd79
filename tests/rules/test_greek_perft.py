"""Exact play counts for Plakoto and Fevga against tests/fixtures/greek-perft.json.

The fixture is written by ``python3 -m tests.rules.make_greek_perft`` from the naive
``greek_oracle`` (no engine code). The counts from the start are worked out by hand below,
so that the oracle is checked as well.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from table import Position
from table.rules.greekkernel import FEVGA, PLAKOTO, count_tree

FIXTURE = json.loads((Path(__file__).parents[1] / "fixtures" / "greek-perft.json").read_text())
ROLLS = [(int(r[0]), int(r[1])) for r in FIXTURE["rolls"]]
CASES = [(name, row) for name, rows in FIXTURE["games"].items() for row in rows]
CODES = {"plakoto": PLAKOTO, "fevga": FEVGA}


def test_the_fixture_covers_each_game_from_the_start_and_from_random_positions():
    assert set(FIXTURE["games"]) == {"plakoto", "fevga"}
    for name, rows in FIXTURE["games"].items():
        assert rows[0]["id"] == "AACA/z8AAID/Pw" and rows[0]["plies"] == (2 if name == "plakoto" else 3)
        assert len(rows) >= 10 and any(row["plies"] == 2 for row in rows[1:])
    # The random Plakoto positions reach pins, and some of them bearing off.
    boards = [row["board"] for row in FIXTURE["games"]["plakoto"]]
    assert any(any(b[25 + p] for p in range(1, 25)) for b in boards)


def test_hand_worked_counts_from_the_start():
    start = {name: rows[0]["counts"] for name, rows in FIXTURE["games"].items()}
    # Plakoto: a non-double moves one checker twice or two checkers once (2 plays); a double
    # shares four moves among checkers from the 24-point: the partitions of 4 (4, 3+1, 2+2,
    # 2+1+1, 1+1+1+1), but 6-6 cannot take one checker 24 pips (that would bear off).
    assert start["plakoto"] == [(4 if a == 6 else 5) if a == b else 2 for a, b in ROLLS]
    # Fevga: only the first checker may leave until it passes the 11-point, and the opponent
    # holds the mover's 12: a non-double moves it by both dice (1 play); 3-3, 4-4 and 6-6 stop
    # short of the 12 (one play), 5-5 takes it 24/9, after which a second one may leave
    # (24/4, or 24/9 24/19: 2 plays).
    assert start["fevga"] == [2 if (a, b) == (5, 5) else 1 for a, b in ROLLS]


@pytest.mark.parametrize("name,row", CASES, ids=[f"{n}-{r['id']}" for n, r in CASES])
def test_plays_per_roll(name, row):
    p = Position.from_id(row["id"], name)
    assert list(p.board) == row["board"]
    assert [len(p.legal_plays(roll)) for roll in ROLLS] == row["counts"]


@pytest.mark.parametrize("name,row", CASES, ids=[f"{n}-{r['id']}" for n, r in CASES])
def test_leaves(name, row):
    board = np.array(row["board"], dtype=np.int8)
    assert count_tree(board, row["plies"], CODES[name]) == row["leaves"]
