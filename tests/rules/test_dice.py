"""Reading dice and rolling them."""

from __future__ import annotations

import pytest

from table import DiceError, Position, parse_dice
from table.rules.dice import SecretDice, SeededDice, opening_roll, roll


@pytest.mark.parametrize("text", ["31", "3-1", "3,1", "3 1", " (3, 1) "])
def test_parse_dice_forms(text: str) -> None:
    assert parse_dice(text) == (3, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "two digits"), ("3", "two digits"), ("71", "not 7"), ("30", "not 0"), ("3-1-2", "two digits"), ("ab", "two digits")],
)
def test_bad_dice_text(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse_dice(text)


@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (1,), (1, 2, 3), (1.0, 2), (True, 2)])
def test_bad_dice_values(dice: tuple[int, ...]) -> None:
    with pytest.raises(DiceError):
        Position.initial().legal_plays(dice)


def test_seeded_dice_repeat_and_secret_dice_are_in_range() -> None:
    a, b = SeededDice(5), SeededDice(5)
    assert [roll(a) for _ in range(20)] == [roll(b) for _ in range(20)]
    secret = SecretDice()
    values = {secret.roll_die() for _ in range(600)}
    assert values == {1, 2, 3, 4, 5, 6}


def test_opening_roll_never_ties() -> None:
    source = SeededDice(3)
    for _ in range(200):
        starter, (mine, theirs) = opening_roll(source)
        assert mine > theirs and starter in (0, 1)


def test_secret_dice_throw_away_the_bytes_that_would_favour_low_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    # 252..255 would make faces 1-4 more likely than 5 and 6: they must be skipped, not reduced.
    blocks = iter([bytes([255, 252, 5]), bytes([253, 0, 251, 6])])
    monkeypatch.setattr("table.rules.dice.os.urandom", lambda n: next(blocks))
    secret = SecretDice()
    assert [secret.roll_die() for _ in range(4)] == [6, 1, 6, 1]


def test_secret_dice_are_uniform() -> None:
    secret = SecretDice()
    n = 60_000
    counts = [0] * 6
    for _ in range(n):
        counts[secret.roll_die() - 1] += 1
    # Chi-square with 5 degrees of freedom: above 25 happens by chance once in about 7,000 runs.
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts)
    assert chi2 < 25
