"""Writing and reading plays in standard notation."""

from __future__ import annotations

import pytest

from table import IllegalPlayError, NotationError, Position


def test_contract_examples() -> None:
    start = Position.initial()
    assert str(start.parse_play("8/5 6/5", (3, 1))) == "8/5 6/5"
    # bar/22*: entering with a 3 on a blot.
    p = Position.from_checkers({25: 1, 13: 14}, {3: 1, 1: 14})
    assert str(p.parse_play("bar/22* 13/12", (3, 1))) == "bar/22* 13/12"
    # 13/7*/5: one checker hits on the way.
    p = Position.from_checkers({13: 1, 6: 14}, {18: 1, 1: 14})
    assert str(p.parse_play("13/7*/5", (6, 2))) == "13/7*/5"
    # 6/off(2)
    p = Position.from_checkers({6: 2}, {1: 15})
    assert [str(x) for x in p.legal_plays((6, 6))] == ["6/off(2)"]


def test_parsing_is_lenient_about_order_joins_and_separators() -> None:
    start = Position.initial()
    play = start.parse_play("24/18 13/10", (6, 3))
    assert start.parse_play("13/10 24/18", (6, 3)) == play
    assert start.parse_play("24/18, 13/10", (3, 6)) == play
    assert start.parse_play("24/13", (6, 5)) == start.parse_play("24/18 18/13", (6, 5))
    assert start.parse_play("24/18/13", (6, 5)) == start.parse_play("24/13", (6, 5))
    assert str(start.parse_play("13/7(2) 24/18(2)", (6, 6))) == "24/18(2) 13/7(2)"
    p = Position.from_checkers({25: 1, 13: 14}, {1: 15})
    assert str(p.parse_play("b/21 13/11", (4, 2))) == "bar/21 13/11"
    assert str(p.parse_play("25/21 13/11", (4, 2))) == "bar/21 13/11"


def test_a_missing_hit_mark_is_fine_when_unambiguous() -> None:
    p = Position.from_checkers({10: 1}, {18: 1, 2: 14})
    assert str(p.parse_play("10/7 7/6", (3, 1))) == "10/7*/6"


def test_unmarked_text_means_no_hit_when_a_quiet_path_exists() -> None:
    # 13/5 with 6-2 may pass 7 (hitting) or 11 (not); notation marks hits.
    p = Position.from_checkers({13: 1, 6: 14}, {18: 1, 1: 14})
    assert p.parse_play("13/5", (6, 2)).hits == (False, False)
    assert str(p.parse_play("13/11/5", (6, 2))) == "13/5"
    assert str(p.parse_play("13/7*/5", (6, 2))) == "13/7*/5"
    assert str(p.parse_play("13/7/5", (6, 2))) == "13/7*/5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("24-18", "from/to"),
        ("24/", "from/to"),
        ("24/18x", "cannot read"),
        ("26/20", "does not exist"),
        ("18/24", "toward 'off'"),
        ("24/18(7)", "at most 4"),
        ("off/3", "toward 'off'"),
        ("13*/10", "starting point"),
    ],
)
def test_malformed_text_is_rejected_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Position.initial().parse_play(text, (6, 3))


@pytest.mark.parametrize(
    ("text", "dice", "message"),
    [
        ("24/20", (6, 3), "do not fit the roll"),
        ("24/18", (6, 3), "do not fit the roll"),
        ("6/off 6/3", (6, 3), "bear off"),
        ("20/14 13/10", (6, 3), "no checker on point 20"),
        ("13/7* 8/7", (6, 1), "marks a hit on 7"),
        ("24/22", (6, 2), "uses 2 dice"),
    ],
)
def test_illegal_plays_are_rejected_with_a_reason(text: str, dice: tuple[int, int], message: str) -> None:
    with pytest.raises(IllegalPlayError, match=message):
        Position.initial().parse_play(text, dice)


def test_illegal_reasons_for_bar_and_closed_points() -> None:
    p = Position.from_checkers({25: 1, 13: 14}, {1: 15})
    with pytest.raises(IllegalPlayError, match="on the bar"):
        p.parse_play("13/9 13/11", (4, 2))
    with pytest.raises(IllegalPlayError, match="point 24 is closed"):
        p.parse_play("bar/24 13/9", (1, 4))


def test_parse_when_nothing_can_be_played() -> None:
    closed = {25 - p: 2 for p in range(19, 25)}
    closed[13] = 3
    p = Position.from_checkers({25: 1, 13: 14}, closed)
    with pytest.raises(IllegalPlayError, match="no move is possible"):
        p.parse_play("bar/20", (5, 5))
