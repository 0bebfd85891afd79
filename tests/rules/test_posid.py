"""GNU Backgammon Position IDs: vectors produced by GNU Backgammon, and bad input."""

from __future__ import annotations

import base64

import pytest

from table import Position, PositionError, PositionIdError


def test_start() -> None:
    assert Position.initial().id == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == Position.initial()


def test_after_31_with_the_opponent_on_roll() -> None:
    play = Position.initial().parse_play("8/5 6/5", (3, 1))
    assert play.position.id == "sGfwATDgc/ABMA"


def test_asymmetric_vector() -> None:
    p = Position.from_id("yOeDATDsnIMBMA")
    assert p.checkers(mover=True) == {24: 2, 13: 2, 8: 3, 6: 3, 4: 3, 3: 2}
    assert p.checkers(mover=False) == {24: 2, 13: 2, 8: 5, 6: 5, 4: 1}
    assert Position.from_checkers(
        {24: 2, 13: 2, 8: 3, 6: 3, 4: 3, 3: 2}, {24: 2, 13: 2, 8: 5, 6: 5, 4: 1}
    ).id == "yOeDATDsnIMBMA"


def _id_from_bits(bits: str) -> str:
    key = int(bits[::-1], 2) if bits else 0
    return base64.b64encode(key.to_bytes(10, "little")).decode().rstrip("=")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "14 characters"),
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMA=", "14 characters"),
        ("4HPwATDgc/AB!A", "14 characters"),
        (_id_from_bits("1" * 16 + "0" * 25 + "1" * 14 + "0" * 25), "16 checkers"),
        (_id_from_bits("1" * 80), "ends before"),
        (_id_from_bits("0" * 25 + "0" * 25 + "1"), "stray bits"),
        # Opponent on its own 24-point = mover's 1, and the mover on its 1 too.
        (_id_from_bits("0" * 23 + "10" + "0" + "10" + "0" * 24), "both sides"),
    ],
)
def test_malformed_ids_are_rejected(text: str, message: str) -> None:
    with pytest.raises(PositionIdError, match=message):
        Position.from_id(text)


def test_non_string_id() -> None:
    with pytest.raises(PositionIdError, match="string"):
        Position.from_id(123)  # type: ignore[arg-type]


def test_bad_boards_are_rejected() -> None:
    with pytest.raises(PositionError, match="16 checkers"):
        Position.from_checkers({6: 16}, {})
    with pytest.raises(PositionError, match="both sides"):
        Position.from_checkers({1: 1}, {24: 1})
    with pytest.raises(PositionError, match="26 entries"):
        Position([0] * 25)
    with pytest.raises(PositionError, match="negative"):
        Position([1] + [0] * 25)


def test_positions_are_immutable_and_hashable() -> None:
    p = Position.initial()
    with pytest.raises(AttributeError):
        p.foo = 1  # type: ignore[attr-defined]
    assert {p: 1}[Position.from_id(p.id)] == 1
