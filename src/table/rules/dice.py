"""Dice: parsing a roll from text, and where random dice come from.

>>> parse_dice("31")
(3, 1)
>>> parse_dice("2-5")
(2, 5)
>>> opening_roll(SeededDice(7))
(0, (3, 2))
"""

from __future__ import annotations

import os
import random
import re
import threading
from typing import Protocol, Sequence

from table.errors import DiceError

Dice = tuple[int, int]

_DICE_RE = re.compile(r"^\s*\(?\s*([0-9])\s*[-,/ x]?\s*([0-9])\s*\)?\s*$")


def check_dice(dice: tuple[int, ...]) -> Dice:
    """Return ``dice`` as a pair, or raise ``DiceError`` saying what is wrong."""
    if not isinstance(dice, (tuple, list)) or len(dice) != 2:
        raise DiceError(f"a roll is two dice, got {dice!r}")
    a, b = dice
    for d in (a, b):
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise DiceError(f"each die must be a whole number from 1 to 6, got {d!r}")
    return (a, b)


def as_dice(dice: Sequence[int] | str) -> Dice:
    """A roll given as a pair such as ``(3, 1)`` or as text such as ``"31"`` or ``"3-1"``.

    >>> as_dice("6-5"), as_dice([2, 2])
    ((6, 5), (2, 2))
    """
    if isinstance(dice, str):
        return parse_dice(dice)
    if not isinstance(dice, (tuple, list)):
        raise DiceError(f"a roll is two dice such as (3, 1) or '31', got {dice!r}")
    return check_dice(tuple(dice))


def parse_dice(text: str) -> Dice:
    """Read a roll written like ``31``, ``3-1``, ``3,1`` or ``3 1``."""
    m = _DICE_RE.match(text)
    if not m:
        raise DiceError(f"cannot read dice {text!r}: write two digits such as 31 or 3-1")
    a, b = int(m.group(1)), int(m.group(2))
    for d in (a, b):
        if not 1 <= d <= 6:
            raise DiceError(f"cannot read dice {text!r}: each die is 1 to 6, not {d}")
    return (a, b)


class DiceSource(Protocol):
    """Anything that rolls one fair die at a time."""

    def roll_die(self) -> int:
        """Return a number from 1 to 6."""
        ...


class SecretDice:
    """Dice from the operating system's cryptographic generator (production).

    Bytes are fetched a block at a time (one system call per few hundred
    dice, not two per roll); a byte of 252 or more is thrown away so that
    each face keeps exactly 42 of the 252 accepted values.
    """

    _BLOCK = 512

    def __init__(self) -> None:
        self._bytes = b""
        self._next = 0
        self._lock = threading.Lock()  # one byte, one die, even when threads share a source

    def roll_die(self) -> int:
        with self._lock:
            while True:
                if self._next >= len(self._bytes):
                    self._bytes, self._next = os.urandom(self._BLOCK), 0
                value = self._bytes[self._next]
                self._next += 1
                if value < 252:
                    return value % 6 + 1


class SeededDice:
    """Reproducible dice for tests and bot-versus-bot play."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll_die(self) -> int:
        return self._rng.randint(1, 6)


def roll(source: DiceSource) -> Dice:
    """Roll two dice."""
    return (source.roll_die(), source.roll_die())


def opening_roll(source: DiceSource) -> tuple[int, Dice]:
    """Roll one die per player until they differ.

    Returns the player who starts (0 or 1, the one with the higher die) and
    the roll that player plays, its own die first.
    """
    while True:
        d0, d1 = source.roll_die(), source.roll_die()
        if d0 != d1:
            return (0, (d0, d1)) if d0 > d1 else (1, (d1, d0))
