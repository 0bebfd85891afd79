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
>>> parse_move_text("bar/22* 13/7(2)")
[Segment(src=25, dst=22, hit=True), Segment(src=13, dst=7, hit=False), Segment(src=13, dst=7, hit=False)]
"""

from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from table.errors import NotationError

BAR = 25
OFF = 0


def point_name(p: int) -> str:
    """``bar``, ``off`` or the point's number."""
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(p)


def format_steps(steps: Sequence[tuple[int, int]], hits: Sequence[bool]) -> str:
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
    words = []
    for chain in chains:
        points = [chain[0]] + [c for c in chain[1:-1] if c[1]] + [chain[-1]]
        words.append("/".join(point_name(p) + ("*" if h else "") for p, h in points))
    words.sort(key=_sort_key)
    out: list[str] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and words[j] == words[i]:
            j += 1
        out.append(words[i] if j - i == 1 else f"{words[i]}({j - i})")
        i = j
    return " ".join(out)


def _sort_key(word: str) -> tuple[int, ...]:
    """Sort moves from the back of the board forward, as players write them."""
    nums = []
    for part in word.split("/"):
        part = part.rstrip("*")
        nums.append(BAR if part == "bar" else OFF if part == "off" else int(part))
    return tuple(-n for n in nums)


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
