"""Exact play counts over a fixed set of positions from random games (perft-style).

The counts in data/perft.json were computed by the independent oracle in
oracle.py (see make_perft.py); any change in move generation shows up here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from table import Position
from table.rules import kernel

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def test_fixture_counts_match_the_generator() -> None:
    mismatches = []
    for row in DATA["positions"]:
        position = Position.from_id(row["id"])
        for roll_text, expected in zip(DATA["rolls"], row["counts"]):
            roll = (int(roll_text[0]), int(roll_text[1]))
            got = len(position.legal_plays(roll))
            if got != expected:
                mismatches.append((row["id"], roll_text, expected, got))
    assert not mismatches, mismatches[:10]


def test_compiled_total_matches_fixture_total() -> None:
    boards = np.array([Position.from_id(r["id"]).board for r in DATA["positions"]], dtype=np.int8)
    assert kernel.count_all_rolls(boards) == DATA["total"]


def test_opening_position_counts() -> None:
    # Counted by hand from the start, e.g. 6-5: 24/13, 24/18 13/8, 24/18 8/3,
    # 13/8 13/7, 13/7 8/3, 13/2, 8/3 8/2 (24/19 and 6/1 are blocked).
    start = Position.initial()
    assert len(start.legal_plays((6, 5))) == 7
    assert sorted(str(p) for p in start.legal_plays((6, 5))) == sorted(
        ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"]
    )
