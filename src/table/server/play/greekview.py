"""What the server's games need for the Greek games (docs/variants.md, docs/protocol.md).

Plakoto and Fevga have their own boards (``table.rules.greek``): the standard
move graph's compiled walk (``table.rules.movegraph``) knows only boards of 26
or 28 entries, so ``greek_graph`` walks theirs with the Greek generator's own
single-step rule (``table.rules.greekkernel``), kept only where it reaches a
board of a legal play, so legality still has one source.  The graph has the
standard graph's shape, an edge's ``hit`` being a pin.

In views, points are absolute (seat 0's numbering).  In Fevga both sides move
the same way round, so seat 1's point ``q`` is seat 0's ``(q + 11) % 24 + 1``
(``round_abs``), the map the browser's engine uses too.  A Plakoto view adds
``pinned``: per point of seat 0's numbering, +1 where a checker of seat 0 lies
pinned under seat 1's, -1 for one of seat 1's under seat 0's, 0 elsewhere.

>>> from table import Position
>>> g = greek_graph(Position.initial("plakoto"), (6, 5))
>>> g.depth, sorted((s, d) for s, d, *_ in g.nodes[0])
(2, [(24, 18), (24, 19)])
>>> str(g.play_for([(24, 19), (19, 13)])), str(g.play_for([(24, 18), (18, 13)]))
('24/13', '24/13')
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from table.rules.dice import check_dice
from table.rules.greek import GreekGame, game_for
from table.rules.greekkernel import PINS, PLAKOTO_SIZE, rotated
from table.rules.movegraph import Edge, MoveGraph
from table.rules.play import boards_after, steps_per_play
from table.rules.position import Position
from table.rules.variant import Variant
from table.rules import greekkernel

JSON = dict[str, Any]

_TARGET = greekkernel._target.py_func
_APPLY = greekkernel._apply.py_func
_ROTATED = rotated.py_func


def greek_game(variant: Variant) -> GreekGame | None:
    """The Greek game ``variant`` plays on its own board (Plakoto, Fevga), or None (Portes too).

    >>> from table.rules.variant import find_variant
    >>> greek_game(find_variant("fevga")).name, greek_game(find_variant("portes"))
    ('Fevga', None)
    """
    return game_for(variant.rules)


def is_round(variant: Variant) -> bool:
    """Whether both sides of ``variant`` move the same way round the board (Fevga).

    >>> from table.rules.variant import find_variant
    >>> is_round(find_variant("fevga")), is_round(find_variant("plakoto"))
    (True, False)
    """
    return variant.direction == "same"


def round_abs(seat: int, point: int) -> int:
    """Fevga: ``seat``'s point as seat 0's (0, off, unchanged); the map is its own inverse.

    >>> round_abs(1, 24), round_abs(1, 12), round_abs(1, 0), round_abs(0, 7)
    (12, 24, 0, 7)
    """
    if seat == 0 or point == 0:
        return point
    return _ROTATED(point)


def pinned_json(board: Sequence[int]) -> list[int] | None:
    """Seat 0's Plakoto board's pins, as views give them (``None`` for any other board).

    >>> b = [0] * PLAKOTO_SIZE; b[PINS + 5] = 1; b[PINS + 20] = -1
    >>> p = pinned_json(b); p[4], p[19], sum(map(abs, p))
    (1, -1, 2)
    """
    if len(board) != PLAKOTO_SIZE:
        return None
    return [int(board[PINS + p]) for p in range(1, 25)]


def greek_graph(position: Position, dice: Sequence[int]) -> MoveGraph:
    """The move graph of ``dice`` in a Plakoto or Fevga ``position`` (seen from the mover).

    Every order of single steps (highest die first, rearmost checker first), a board met twice
    with the same dice left being one node; nodes are numbered as they are finished, the root
    (finished last) taking 0, as ``move_graph`` numbers them.
    """
    game = greek_game(position.variant)
    if game is None:
        raise ValueError(f"{position.variant.title} is not played on a Greek board")
    roll = check_dice(tuple(dice))
    plays = position.legal_plays(roll)
    if not plays:
        return MoveGraph((), ((),), {}, 0)
    depth = steps_per_play(plays)
    targets: dict[bytes, int] = {}
    for k, row in enumerate(boards_after(plays)):
        targets.setdefault(np.asarray(row, dtype=np.int8).tobytes(), k)
    nodes: list[tuple[Edge, ...]] = []
    finals: dict[int, int] = {}
    memo: dict[tuple[bytes, tuple[int, ...]], int] = {}

    def visit(board: np.ndarray, left: tuple[int, ...], level: int) -> int:
        key = (board.tobytes(), left)
        if key in memo:
            return memo[key]
        node = -1
        if level == depth:
            index = targets.get(key[0])
            if index is not None:
                nodes.append(())
                node = len(nodes)
                finals[node] = index
            memo[key] = node
            return node
        edges: list[Edge] = []
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for src in range(24, 0, -1):
                dst = _TARGET(board, src, die, game.code)
                if dst < 0:
                    continue
                after = board.copy()
                pinned = bool(_APPLY(after, src, dst, game.code))
                child = visit(after, tuple(rest), level + 1)
                if child >= 0:
                    edges.append((src, dst, die, pinned, child))
        if edges:
            nodes.append(tuple(edges))
            node = len(nodes)
        memo[key] = node
        return node

    start = (roll[0],) * 4 if roll[0] == roll[1] else (max(roll), min(roll))
    visit(np.array(position.board, dtype=np.int8), start, 0)
    return MoveGraph(tuple(plays), (nodes[-1], *nodes[:-1]), finals, depth)
