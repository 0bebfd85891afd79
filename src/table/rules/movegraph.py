"""The move graph: every way to play a roll one checker step at a time.

``Position.legal_plays`` gives one play per distinct result, which is what a
bot needs.  A person moves one checker at a time and in any order, so the
client needs every legal order and every intermediate point.  The graph is
built from the engine's own single-step rule (``kernel.step_target`` and
``kernel.apply_step``) and kept only where it leads to a result that
``legal_plays`` allows, so legality still has one source.

>>> from table import Position
>>> g = move_graph(Position.initial(), (3, 1))
>>> g.depth, len(g.plays)
(2, 16)
>>> sorted((s, d) for s, d, _, _, _ in g.nodes[0])[:3]
[(6, 3), (6, 5), (8, 5)]
>>> str(g.play_for([(8, 5), (6, 5)]))
'8/5 6/5'
>>> str(g.play_for([(6, 5), (8, 5)]))
'8/5 6/5'
>>> g.by_text["8/5 6/5"] is g.play_for([(8, 5), (6, 5)])
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from table.errors import IllegalPlayError
from table.rules import graphkernel, kernel
from table.rules.dice import check_dice
from table.rules.play import steps_per_play
from table.rules.position import Play, Position, boards_after

# One edge: (from, to, die, hit, child node), points in the mover's numbering
# (25 = bar, 0 = off).
Edge = tuple[int, int, int, bool, int]


@dataclass(frozen=True)
class MoveGraph:
    """The steps of every legal play of one roll, shared where orders meet.

    ``nodes[0]`` is the start; ``nodes[k]`` lists the edges out of node k.
    ``finals`` maps each end node to the index of its play in ``plays``.
    Plays are written out in notation only when asked (``by_text``): on a
    busy server, writing every play of every roll is the costly part.
    """

    plays: tuple[Play, ...]
    nodes: tuple[tuple[Edge, ...], ...]
    finals: dict[int, int]
    depth: int

    @cached_property
    def by_text(self) -> dict[str, Play]:
        """Each play keyed by its standard notation."""
        return {str(p): p for p in self.plays}

    def play_for(self, steps: Sequence[Sequence[int]]) -> Play:
        """The legal play that ``steps`` (``(from, to)`` pairs, in order) make.

        Raises ``IllegalPlayError`` saying which step is not allowed.
        """
        if not self.plays:
            if steps:
                raise IllegalPlayError("no move is possible with this roll: send no steps")
            raise IllegalPlayError("no move is possible with this roll: there is no play")
        node = 0
        for k, step in enumerate(steps):
            if len(step) != 2:
                raise IllegalPlayError(f"step {k + 1} must be a pair (from, to), got {list(step)!r}")
            src, dst = step[0], step[1]
            for e in self.nodes[node]:
                if e[0] == src and e[1] == dst:
                    node = e[4]
                    break
            else:
                raise IllegalPlayError(f"step {k + 1} ({_point(src)}/{_point(dst)}) is not a legal move here")
        if node not in self.finals:
            raise IllegalPlayError(
                f"the play is not complete: {len(steps)} of {self.depth} steps made; "
                "the whole roll must be used when it can be"
            )
        return self.plays[self.finals[node]]


def _point(p: int) -> str:
    return "bar" if p == kernel.BAR else "off" if p == kernel.OFF else str(p)


def move_graph(position: Position, dice: Sequence[int]) -> MoveGraph:
    """Build the move graph of ``dice`` in ``position`` (seen from the mover).

    The walk (``table.rules.graphkernel``, compiled): from each state, each
    distinct die left (highest first), each source (rearmost first), one step
    by the engine's own step rule, kept only where it leads on to a legal
    play's board; a state met twice is one node.
    """
    roll = check_dice(tuple(dice))
    plays = position.legal_plays(roll)
    if not plays:
        return MoveGraph((), ((),), {}, 0)
    depth = steps_per_play(plays)
    board = np.array(position.board, dtype=np.int8)
    rules = position.variant.rules
    tables = getattr(_LOCAL, "tables", None) or _tables()
    n = graphkernel.walk(board, roll[0], roll[1], depth, boards_after(plays), rules.reserve_first,
                         rules.hit_needs_home, rules.bar_first, tables.edges, tables.starts, tables.final,
                         tables.slot_hash, tables.slot_node, tables.slot_board, tables.slot_left,
                         tables.used)
    if n <= 0:  # pragma: no cover - every legal play is reachable step by step, within the tables
        raise RuntimeError("the move graph lost every legal play" if n == 0 else "the move graph is too large")
    edges = [(src, dst, die, hit == 1, child)
             for src, dst, die, hit, child in tables.edges[:tables.starts[n]].tolist()]
    starts = tables.starts[:n + 1].tolist()
    nodes = [tuple(edges[starts[j - 1]:starts[j]]) for j in range(1, n + 1)]
    finals = {j: f for j, f in enumerate(tables.final[:n].tolist(), start=1) if f >= 0}
    # Nodes are numbered from 1 as they are finished, so the root, finished last and pointed to by
    # no edge, simply takes number 0: no edge needs renumbering.
    return MoveGraph(tuple(plays), (nodes[-1], *nodes[:-1]), finals, depth)


_LOCAL = threading.local()


def _tables() -> graphkernel.Tables:
    # The walk's work tables are large and reused; one set per thread (the server's bot and
    # analysis run in other processes, but tests and tools may build graphs from threads).
    tables = _LOCAL.tables = graphkernel.Tables()
    return tables
