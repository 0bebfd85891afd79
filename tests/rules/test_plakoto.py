"""Plakoto's rules (docs/variants.md, "Plakoto"), each on a position made by hand."""

from __future__ import annotations

import pickle

import pytest

from table import Position
from table.errors import IllegalPlayError, NotationError, PositionError, PositionIdError
from table.rules.variant import ENGINE_ONLY, VARIANTS, find_variant

PINS = 25  # the pinned flag of point p is board[25 + p]


def plakoto(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position.from_checkers(mover, opponent, "plakoto")


def pinned(p: Position, mover_points: dict[int, int], opponent_points: dict[int, int],
           pins_of_mover: tuple[int, ...] = (), pins_of_opponent: tuple[int, ...] = ()) -> Position:
    """A position with pinned checkers, written through the extended Position ID."""
    base = plakoto(mover_points, opponent_points)
    if not pins_of_mover and not pins_of_opponent:
        return base
    text = f"{base.id}:{','.join(map(str, pins_of_mover))}:{','.join(map(str, pins_of_opponent))}"
    return Position.from_id(text, "plakoto")


def test_engine_only_and_the_start():
    assert "plakoto" in ENGINE_ONLY and "plakoto" not in VARIANTS
    p = Position.initial("plakoto")
    assert p.checkers() == {24: 15} and p.checkers(mover=False) == {24: 15}
    assert p.pip_counts() == (360, 360) and p.borne_off() == (0, 0)
    assert (p.result(), p.is_game_over, p.swapped(), p.id) == (0, False, p, "AACA/z8AAID/Pw")
    assert find_variant("plakoto").scoring == (1, 2, 2) and not find_variant("plakoto").cube


def test_landing_on_a_single_checker_pins_it_and_the_pinned_checker_cannot_move():
    # The opponent's blot on its 20-point is the mover's 5-point.
    p = plakoto({24: 14, 8: 1}, {24: 14, 20: 1})
    play = p.parse_play("8/5*", "21")
    assert str(play) == "8/5*" and play.hits == (False, True)
    after = play.position  # the pinned side is on roll
    assert after.board[20] < 0 and after.board[PINS + 20] == 1
    assert after.checkers()[20] == 1 and after.pip_counts()[0] == p.pip_counts()[1]
    for roll in [(a, b) for a in range(1, 7) for b in range(1, 7)]:
        for q in after.legal_plays(roll):
            assert all(src != 20 for src, _ in q.steps), (roll, q)
    with pytest.raises(IllegalPlayError, match="pinned and cannot move"):
        after.parse_play("20/18", "21")


def test_a_point_with_ones_own_checker_pinned_is_closed_even_under_one_captor():
    # The mover has a checker pinned on its 10-point under one opposing checker.
    p = pinned(Position.initial("plakoto"), {24: 13, 12: 1}, {24: 14, 15: 1}, pins_of_mover=(10,))
    assert p.board[10] == -1 and p.board[PINS + 10] == 1
    assert all((12, 10) not in q.steps for q in p.legal_plays((2, 1)))
    with pytest.raises(IllegalPlayError, match="point 10 is closed"):
        p.parse_play("12/10", "21")
    # Two opposing checkers close a point as well; one free one is pinned.
    q = plakoto({24: 14, 12: 1}, {24: 13, 15: 2})
    assert all(dst != 10 for play in q.legal_plays((2, 1)) for _, dst in play.steps)


def test_the_captor_leaving_frees_the_pinned_checker_and_more_may_join_it():
    p = pinned(Position.initial("plakoto"), {24: 13, 8: 1, 5: 1}, {24: 14}, pins_of_opponent=(20,))
    assert p.board[5] == 1 and p.board[PINS + 5] == -1
    left = p.parse_play("5/2 24/23", "31").position  # the only captor leaves
    assert left.board[20] == 1 and left.board[PINS + 20] == 0  # the opponent's checker, free
    joined = p.parse_play("8/5 24/23", "31").position
    assert joined.board[20] == -2 and joined.board[PINS + 20] == 1  # still pinned, under two


def test_bearing_off_needs_every_checker_home_and_none_pinned():
    free = plakoto({6: 2, 3: 12}, {24: 10, 2: 5})
    assert any(dst == 0 for play in free.legal_plays((6, 3)) for _, dst in play.steps)
    held = pinned(free, {6: 2, 4: 12}, {13: 10, 2: 4, 22: 1}, pins_of_mover=(3,))
    assert held.checkers()[3] == 1 and held.board[PINS + 3] == 1
    assert held.legal_plays((6, 3))
    assert all(dst != 0 for play in held.legal_plays((6, 3)) for _, dst in play.steps)
    with pytest.raises(IllegalPlayError, match="not bear off while one of your checkers is pinned"):
        held.parse_play("6/off 4/1", "63")


def test_a_pinned_mother_loses_two_when_the_pinner_has_left_its_own_starting_point():
    # The mover's last checker on its 24-point is pinned; the opponent has nothing on its 24.
    p = pinned(Position.initial("plakoto"), {6: 14}, {1: 1, 10: 13}, pins_of_mover=(24,))
    assert p.board[24] == -1 and p.board[PINS + 24] == 1  # the captor on the opponent's 1-point
    assert (p.result(), p.is_game_over, p.is_draw, p.legal_plays((6, 5))) == (-2, True, False, [])
    assert p.swapped().result() == 2


def test_the_exception_play_goes_on_while_the_pinner_has_checkers_on_its_own_starting_point():
    p = pinned(Position.initial("plakoto"), {8: 14}, {24: 5, 1: 1, 10: 8}, pins_of_mover=(24,))
    assert (p.result(), p.is_game_over) == (0, False)
    assert p.legal_plays((6, 5)) and p.swapped().legal_plays((6, 5))
    # The pinner clears its 24-point while the mother is still pinned: the pinned side loses then.
    last = pinned(Position.initial("plakoto"), {6: 14}, {24: 1, 1: 1, 10: 13}, pins_of_mover=(24,))
    assert last.result() == 0
    after = last.swapped().parse_play("24/18 10/5", "65").position
    assert (after.result(), after.is_game_over) == (-2, True)


def test_both_mothers_pinned_is_a_draw():
    p = pinned(Position.initial("plakoto"), {1: 1, 10: 13}, {1: 1, 10: 13}, pins_of_mover=(24,),
               pins_of_opponent=(24,))
    assert (p.result(), p.is_game_over, p.is_draw, p.legal_plays((3, 1))) == (0, True, True, [])
    assert p.swapped().is_draw


def test_bearing_off_scores_one_or_two_and_never_three():
    assert plakoto({}, {6: 1}).result() == 1
    assert plakoto({}, {24: 15}).result() == 2  # a backgammon counts as a gammon
    assert plakoto({20: 1, 3: 14}, {}).result() == -2


def test_position_ids_round_trip_and_malformed_ones_say_what_is_wrong():
    p = pinned(Position.initial("plakoto"), {24: 13, 12: 1}, {24: 14, 15: 1}, pins_of_mover=(10,))
    assert Position.from_id(p.id, "plakoto") == p and p.id.endswith(":10:")
    assert pickle.loads(pickle.dumps(p)) == p
    assert p.swapped().id.endswith("::10") and p.swapped().swapped() == p
    base = p.id.split(":")[0]
    for text, problem in [
        (f"{base}::", "lists no pinned checker"),
        (f"{base}:10", "not a Plakoto Position ID"),
        (f"{base}:x:", "not numbers 1-24"),
        (f"{base}:25:", "cannot have a checker pinned on 25"),
        (f"{base}:11:", "has no opposing checker on top"),
        (f"{base}:10,10:", "pins two checkers"),
        ("4HPwATDgc/ABMA:24:", "has no opposing checker on top"),
    ]:
        with pytest.raises(PositionIdError, match=problem):
            Position.from_id(text, "plakoto")
    with pytest.raises(PositionIdError, match="on the bar"):
        Position.from_id(Position.from_checkers({25: 1}, {1: 1}).id, "plakoto")
    with pytest.raises(PositionIdError, match="it is a Plakoto position, not one of Backgammon"):
        Position.from_id(p.id)
    with pytest.raises(PositionIdError, match="at most 15"):
        Position.from_id(Position.initial("plakoto").id + ":1:", "plakoto")


def test_bad_boards_are_refused():
    with pytest.raises(PositionError, match="no bar"):
        plakoto({25: 1}, {})
    with pytest.raises(PositionError, match="50 entries"):
        Position([0] * 26, "plakoto")
    board = list(plakoto({10: 1}, {10: 1}).board)
    board[PINS + 10] = 1  # the mover's checker pinned under its own
    with pytest.raises(PositionError, match="needs the other side's checkers on top"):
        Position(board, "plakoto")


def test_a_newline_inside_the_pinned_lists_is_refused_saying_so():
    # Found by the browser engine's port: a pattern anchored with "$" let "20\n" pass as point 20
    # and made "\n" fail int() with a bare ValueError.
    for text in ("EAAA/z8AAID/Hw:20\n:", "AACA/z8AAID/Pw:\n:5"):
        with pytest.raises(PositionIdError, match="not numbers 1-24"):
            Position.from_id(text, "plakoto")


def test_reserve_notation_is_not_read_in_plakoto():
    with pytest.raises(NotationError, match="cannot read 'in'"):
        Position.initial("plakoto").parse_play("in/20", (4, 1))
