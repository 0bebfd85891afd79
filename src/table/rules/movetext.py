"""Standard move notation: writing a play's steps as text, and reading text back.

Points are numbered from the mover's side, ``bar`` is 25 and ``off`` is 0.
One checker's consecutive steps are joined (``24/13``), showing a point
passed through only where it hit (``13/7*/5``); identical moves are counted
(``6/off(2)``).

>>> format_steps([(8, 5), (6, 5)], [False, False])
'8/5 6/5'
>>> format_steps([(24, 18), (18, 13)], [False, False])
'24/13'
>>> format_steps([(13, 7), (7, 5)], [True, False])
'13/7*/5'
>>> format_steps([(6, 0), (6, 0), (5, 0), (5, 0)], [False] * 4)
'6/off(2) 5/off(2)'
>>> as_seen_by_opponent("bar/22* 13/7(2) 6/off")
'bar/3* 12/18(2) 19/off'
>>> parse_move_text("bar/22* 13/7(2)")
[Segment(src=25, dst=22, hit=True), Segment(src=13, dst=7, hit=False), Segment(src=13, dst=7, hit=False)]
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple, Sequence

from table.errors import NotationError
from table.rules.variant import Variant, find_variant

BAR = 25
OFF = 0


def point_name(p: int) -> str:
    """``bar``, ``off`` or the point's number."""
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(p)


def format_steps(
    steps: Sequence[tuple[int, int]], hits: Sequence[bool], doubles: bool = False
) -> str:
    """Write a play given as single-die steps in playing order, with hit flags."""
    # Each chain is one checker's path: a list of (point, hit-on-arrival).
    chains: list[list[tuple[int, bool]]] = []
    for (src, dst), hit in zip(steps, hits):
        for chain in chains:
            # A checker that stopped where this step starts is taken to go on:
            # checkers are alike, so the resulting position is the same.
            if chain[-1][0] == src:
                chain.append((dst, hit))
                break
        else:
            chains.append([(src, False), (dst, hit)])
    # Steps played out of path order (8/2 before 13/8) join up as well.
    merged = True
    while merged:
        merged = False
        for first in chains:
            later = next((c for c in chains if c is not first and c[0][0] == first[-1][0]), None)
            if later is not None:
                first.extend(later[1:])
                chains.remove(later)
                merged = True
                break
    # Checkers that travel the same path are written once with a count; a
    # point passed through is shown where any of them hit there.
    groups: dict[tuple[int, ...], tuple[int, set[int]]] = {}
    for chain in chains:
        path = tuple(p for p, _ in chain)
        count, hit_points = groups.get(path, (0, set()))
        groups[path] = (count + 1, hit_points | {p for p, h in chain if h})
    # Written from the back of the board forward, as GNU Backgammon writes
    # them: from one point, the shorter move first, except with doubles.
    words = []
    sign = 1 if doubles else -1
    for path in sorted(groups, key=lambda path: (-path[0], sign * path[-1])):
        count, hit_points = groups[path]
        shown = [p for i, p in enumerate(path) if i in (0, len(path) - 1) or p in hit_points]
        word = "/".join(point_name(p) + ("*" if p in hit_points else "") for p in shown)
        words.append(word if count == 1 else f"{word}({count})")
    return " ".join(words)


_NUMBERED_POINT_RE = re.compile(r"(^|[/ ])([0-9]+)")


def as_seen_by_opponent(text: str, variant: Variant | str | None = None) -> str:
    """Move text with each point numbered from the other side of ``variant``'s board.

    For showing a player the opponent's move in the numbers of that player's own board.
    Where the sides move in opposite directions point ``p`` is ``25 - p``; in Fevga, where
    both go the same way round, each side's 24-point is the other's 12-point:

    >>> as_seen_by_opponent("24/18 13/10", "fevga"), as_seen_by_opponent("3/off", "fevga")
    ('12/6 1/22', '15/off')
    """
    across = _across(variant)
    return _NUMBERED_POINT_RE.sub(lambda m: m.group(1) + str(across(int(m.group(2)))), text)


def _across(variant: Variant | str | None) -> Callable[[int], int]:
    """The other side's number for a point of 1..24 (bar and off are not numbers in move text)."""
    if variant is not None:
        # Imported here: the Greek games' modules build on this one through ``Position``.
        from table.rules.greek import game_for

        game = game_for(find_variant(variant).rules)
        if game is not None:
            return game.across
    return lambda p: 25 - p


class Segment(NamedTuple):
    """One checker moving from ``src`` to ``dst`` (maybe over several dice)."""

    src: int
    dst: int
    hit: bool


_WORD_RE = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>[0-9]+)\))?$")
_POINT_RE = re.compile(r"^(?P<p>bar|b|off|o|[0-9]{1,2})(?P<hit>\*?)$")


def _parse_point(text: str, word: str) -> tuple[int, bool]:
    m = _POINT_RE.match(text)
    if not m:
        raise NotationError(
            f"cannot read {text!r} in {word!r}: a point is 1-24, 'bar' or 'off'"
        )
    p = m.group("p")
    if p in ("bar", "b"):
        n = BAR
    elif p in ("off", "o"):
        n = OFF
    else:
        n = int(p)
        if not 0 <= n <= 25:
            raise NotationError(f"point {n} in {word!r} does not exist: points are 1-24")
    return n, bool(m.group("hit"))


def parse_move_text(text: str) -> list[Segment]:
    """Read move text into segments, one per checker per stretch between named points.

    Raises ``NotationError`` naming the part that cannot be read.
    """
    if not isinstance(text, str):
        raise NotationError(f"move text must be a string, got {type(text).__name__}")
    cleaned = text.strip().lower().replace(",", " ")
    if not cleaned:
        raise NotationError("empty move text: write moves like '24/18 13/10'")
    segments: list[Segment] = []
    for word in cleaned.split():
        m = _WORD_RE.match(word)
        if not m:
            raise NotationError(f"cannot read {word!r}: write a move like '13/7' or '6/off(2)'")
        count = int(m.group("count") or 1)
        if not 1 <= count <= 4:
            raise NotationError(f"{word!r} repeats a move {count} times; at most 4 are possible")
        parts = m.group("path").split("/")
        if len(parts) < 2 or any(not part for part in parts):
            raise NotationError(f"cannot read {word!r}: a move is 'from/to', such as '13/7'")
        points = [_parse_point(part, word) for part in parts]
        if points[0][1]:
            raise NotationError(f"{word!r} marks a hit on the starting point")
        for (a, _), (b, _) in zip(points, points[1:]):
            if b >= a:
                raise NotationError(
                    f"{word!r} moves from {point_name(a)} to {point_name(b)}: "
                    "checkers move toward 'off', to lower point numbers"
                )
            if a == OFF:
                raise NotationError(f"{word!r} continues after bearing off")
        for _ in range(count):
            for (a, _), (b, hit) in zip(points, points[1:]):
                segments.append(Segment(a, b, hit))
    return segments
