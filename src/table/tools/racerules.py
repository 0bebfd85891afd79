"""Known rules for money cube decisions in pure races, to check the bot's decisions against.

The Keith count (Tom Keith, 2004): to each side's pip count add 2 for each
checker beyond the first on the 1-point, 1 for each beyond the first on the
2-point, 1 for each beyond the third on the 3-point, and 1 for each empty
4-, 5- and 6-point; then add a seventh to the count of the player on roll.
He doubles when his count exceeds the opponent's by no more than 4
(redoubles: no more than 3); the opponent takes when it exceeds his by at
least 2.

The 8-9-12 rule (pip counts, for races of about 100 pips): double with a
lead of 8%, redouble with 9%, take up to 12%.

>>> from table.rules.position import Position
>>> p = Position.from_checkers({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
>>> keith_counts(p)
(85.71428571428571, 75)
>>> keith(p)
(False, True)
"""

from __future__ import annotations

from table.rules.position import Position


def _adjusted(checkers: dict[int, int], pips: int) -> int:
    extra = 2 * max(0, checkers.get(1, 0) - 1) + max(0, checkers.get(2, 0) - 1)
    extra += max(0, checkers.get(3, 0) - 3)
    extra += sum(1 for point in (4, 5, 6) if not checkers.get(point, 0))
    return pips + extra


def keith_counts(position: Position) -> tuple[float, int]:
    """The Keith counts of the player on roll (with its seventh added) and of the opponent."""
    mine, theirs = position.pip_counts()
    k_mine = _adjusted(position.checkers(True), mine)
    return k_mine * 8 / 7, _adjusted(position.checkers(False), theirs)


def keith(position: Position, redouble: bool = False) -> tuple[bool, bool]:
    """(double, take) by the Keith count in a race, the player on roll to decide."""
    if not position.is_race():
        raise ValueError("the Keith count is for races: this position still has contact")
    k_mine, k_theirs = keith_counts(position)
    margin = k_mine - k_theirs
    return margin <= (3 if redouble else 4), margin >= 2


def eight_nine_twelve(position: Position, redouble: bool = False) -> tuple[bool, bool]:
    """(double, take) by the 8-9-12 rule on pip counts, the player on roll to decide.

    >>> from table.rules.position import Position
    >>> eight_nine_twelve(Position.from_checkers({6: 15}, {6: 10, 12: 5}))  # 33% ahead
    (True, False)
    """
    if not position.is_race():
        raise ValueError("the 8-9-12 rule is for races: this position still has contact")
    mine, theirs = position.pip_counts()
    lead = (theirs - mine) / mine
    return lead >= (0.09 if redouble else 0.08), lead <= 0.12
