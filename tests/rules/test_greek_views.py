"""How Plakoto and Fevga positions are shown: the text board with pinned checkers, and a move
written in the other side's numbers (issue 51's two display defects)."""

from __future__ import annotations

import random
import re

import pytest

from table import Position
from table.rules.movetext import as_seen_by_opponent


def _column(lines: list[str], point: int) -> int:
    """The character column of ``point``'s label on the board's top or bottom label row."""
    label_row = lines[0] if point >= 13 else lines[14]
    return next(m.end() - 1 for m in re.finditer(r"\d+", label_row) if int(m.group()) == point)


def test_the_text_board_shows_a_pinned_checker_under_its_captor():
    # The mover has one checker pinned on its 20-point under one of the opponent's.
    p = Position.from_id("EAAA/z8AAID/Hw:20:", "plakoto")
    assert p.board[20] == -1 and p.checkers()[20] == 1
    lines = str(p).splitlines()
    col = _column(lines, 20)
    top = lines[2:7]  # the five rows of the top half, the edge first
    assert [row[col] for row in top[:3]] == ["x", "O", " "]
    assert "pinned 1" in lines[lines.index(next(x for x in lines if x.startswith("X (on roll)")))]
    assert any("pinned checker" in line for line in lines)


def test_the_opponents_pinned_checker_is_drawn_on_the_movers_side_of_the_board():
    # Seen from the side that pinned it: the opponent's checker on the mover's 5-point, under X.
    p = Position.from_id("EAAA/z8AAID/Hw:20:", "plakoto").swapped()
    lines = str(p).splitlines()
    col = _column(lines, 5)
    bottom = lines[8:13][::-1]  # the bottom half's rows, the edge first
    assert [row[col] for row in bottom[:3]] == ["o", "X", " "]
    assert "pinned 1" in next(x for x in lines if x.startswith("O:"))


def test_without_pins_the_board_has_no_lower_case_checker_and_no_bar():
    text = str(Position.initial("plakoto"))
    assert all(c not in "xo" for line in text.splitlines()[2:13] for c in line)
    assert "bar" not in text.splitlines()[-3] and "bar" not in str(Position.initial("fevga"))


@pytest.mark.parametrize("variant", ["fevga", "plakoto", "standard"])
def test_a_move_in_the_other_sides_numbers_names_where_the_checkers_are_on_its_board(variant):
    """Each point of the mover's play, renumbered, is where the viewer (the opponent, on roll in
    ``swapped()``) sees the mover's checkers: before the play for a source, after it for a target."""
    rng = random.Random(7)
    checked = 0
    p = Position.initial(variant)
    for _ in range(60):
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if p.is_game_over:
            break
        if not plays:
            p = p.swapped()
            continue
        play = rng.choice(plays)
        text = str(play)
        seen = as_seen_by_opponent(text, variant)
        viewer_before = p.swapped()  # the viewer on roll: the mover's checkers are negative
        viewer_after = play.position  # the viewer is on roll after the play
        assert len(seen.split()) == len(text.split())
        for word in seen.split():
            path = word.split("(")[0].replace("*", "").split("/")
            src, dst = path[0], path[-1]
            if src.isdigit():
                assert viewer_before.board[int(src)] < 0, (variant, text, seen)
            if dst.isdigit():
                assert viewer_after.board[int(dst)] < 0, (variant, text, seen)
            checked += 1
        p = play.position
    assert checked > 20


def test_fevga_numbers_go_round_the_board():
    # The mover's 24 is the opponent's 12, its 13 the opponent's 1; off stays off.
    assert as_seen_by_opponent("24/18", "fevga") == "12/6"
    assert as_seen_by_opponent("13/7", "fevga") == "1/19"
    assert as_seen_by_opponent("6/off(2)", "fevga") == "18/off(2)"
    assert as_seen_by_opponent("24/18", "plakoto") == as_seen_by_opponent("24/18") == "1/7"
