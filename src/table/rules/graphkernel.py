"""The move graph's walk, compiled: every order of single steps that ends in a legal play.

``table.rules.movegraph`` owns the graph and what it means; this module only
walks it fast.  On a busy server every roll of every game builds one graph
(the mover's view carries it), and the walk written in Python was the largest
single cost of a move: a double's graph has hundreds of edges.

The walk is the depth-first one ``movegraph`` describes: from each state
(board, dice left), each distinct die left (highest first), each source
(rearmost first: 26 is the reserve of a game whose checkers start off the
board, 25 the bar), one step by the engine's own step rule
(``kernel.step_target``, or ``reservekernel._target`` on a 28-entry board),
kept only where some continuation ends on one of the legal plays' boards.
States met twice are one node.  Nodes are numbered as they are finished,
from 1, so the root, finished last, is the highest; ``movegraph`` renumbers it 0.

Outputs, for ``n`` nodes: ``edges[k] = (src, dst, die, hit, child)``;
node ``j``'s edges are ``edges[starts[j - 1]:starts[j]]``; ``final[j - 1]`` is
the index of the play node ``j`` ends on, or -1.  ``walk`` returns ``n``, or -1
when the fixed-size tables are too small (the caller then walks in Python).
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.rules.board import BAR, BOARD_SIZE
from table.rules.kernel import apply_step, highest_point, step_target
from table.rules.reservekernel import RESERVE, _rearmost, _target

__all__ = ["MAX_NODES", "MAX_EDGES", "Tables", "walk", "board_hashes"]

MAX_NODES = 4096
MAX_EDGES = 16384
_SLOTS = 16384  # open-addressing table of visited states: a power of two, well over MAX_NODES
_EMPTY = np.int64(-(2**62))


class Tables:
    """The arrays ``walk`` writes into and works in, made once per thread and reused."""

    def __init__(self) -> None:
        self.edges = np.empty((MAX_EDGES, 5), dtype=np.int16)
        self.starts = np.empty(MAX_NODES + 1, dtype=np.int32)
        self.final = np.empty(MAX_NODES, dtype=np.int32)
        self.slot_hash = np.full(_SLOTS, _EMPTY, dtype=np.int64)
        self.slot_node = np.empty(_SLOTS, dtype=np.int32)
        self.slot_board = np.empty((_SLOTS, 28), dtype=np.int8)
        self.slot_left = np.empty((_SLOTS, 4), dtype=np.int8)
        self.used = np.zeros(_SLOTS // 2, dtype=np.int64)  # at most half full: probes stay short


@njit(cache=True)
def _hash(board: np.ndarray, width: int, left: np.ndarray, nleft: int) -> np.int64:  # pragma: no cover
    h = np.int64(1469598103934665603)
    for i in range(width):
        h = (h ^ np.int64(board[i] + 16)) * np.int64(1099511628211)
    for i in range(nleft):
        h = (h ^ np.int64(left[i] + 100)) * np.int64(1099511628211)
    return (h ^ np.int64(nleft + 200)) * np.int64(1099511628211)


@njit(cache=True)
def board_hashes(boards: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Each row's hash as ``walk`` keys a final board (no dice left)."""
    none = np.zeros(4, dtype=np.int8)
    out = np.empty(boards.shape[0], dtype=np.int64)
    for k in range(boards.shape[0]):
        out[k] = _hash(boards[k], boards.shape[1], none, 0)
    return out


@njit(cache=True)
def _find(h: np.int64, board: np.ndarray, width: int, left: np.ndarray, nleft: int,
          slot_hash: np.ndarray, slot_board: np.ndarray, slot_left: np.ndarray) -> int:  # pragma: no cover
    """The slot holding this state, or the empty slot where it belongs."""
    mask = slot_hash.shape[0] - 1
    s: int = int(h) & mask
    while True:
        if slot_hash[s] == _EMPTY:
            return s
        if slot_hash[s] == h:
            same = True
            for i in range(width):
                if slot_board[s, i] != board[i]:
                    same = False
                    break
            if same:
                for i in range(4):
                    if slot_left[s, i] != (left[i] if i < nleft else 0):
                        same = False
                        break
            if same:
                return s
        s = (s + 1) & mask


@njit(cache=True)
def _target_index(board: np.ndarray, width: int, targets: np.ndarray, order: np.ndarray,
                  sorted_hashes: np.ndarray, none: np.ndarray) -> int:  # pragma: no cover
    """The index of the legal play ending on ``board``, or -1."""
    h = _hash(board, width, none, 0)
    k = np.searchsorted(sorted_hashes, h)
    while k < sorted_hashes.shape[0] and sorted_hashes[k] == h:
        t: int = order[k]
        same = True
        for i in range(width):
            if targets[t, i] != board[i]:
                same = False
                break
        if same:
            return t
        k += 1
    return -1


@njit(cache=True)
def walk(board: np.ndarray, d1: int, d2: int, depth: int, targets: np.ndarray,
         reserve_first: int, hit_needs_home: int, bar_first: int,
         edges: np.ndarray, starts: np.ndarray, final: np.ndarray,
         slot_hash: np.ndarray, slot_node: np.ndarray, slot_board: np.ndarray,
         slot_left: np.ndarray, used: np.ndarray) -> int:  # pragma: no cover - compiled
    """Walk the graph of roll ``d1-d2`` (``depth`` steps a play) from ``board`` (26 or 28 entries)
    to the legal plays' boards ``targets`` (one row each, from the mover's side); see the module.

    The table of visited states (``slot_*``) is all empty before and after: only the slots
    used (listed in ``used``, whose entry 0 counts them) are emptied again."""
    used[0] = 0
    n = _walk(board, d1, d2, depth, targets, reserve_first, hit_needs_home, bar_first, edges, starts,
              final, slot_hash, slot_node, slot_board, slot_left, used)
    for k in range(1, used[0] + 1):
        slot_hash[used[k]] = _EMPTY
    return n


@njit(cache=True)
def _claim(s: int, h: np.int64, slot_hash: np.ndarray, used: np.ndarray) -> bool:  # pragma: no cover
    """Mark slot ``s`` taken by a state of hash ``h``; False when the table is too full to go on."""
    if used[0] + 1 >= used.shape[0]:
        return False
    used[0] += 1
    used[used[0]] = s
    slot_hash[s] = h
    return True


@njit(cache=True)
def _walk(board: np.ndarray, d1: int, d2: int, depth: int, targets: np.ndarray,
          reserve_first: int, hit_needs_home: int, bar_first: int,
          edges: np.ndarray, starts: np.ndarray, final: np.ndarray,
          slot_hash: np.ndarray, slot_node: np.ndarray, slot_board: np.ndarray,
          slot_left: np.ndarray, used: np.ndarray) -> int:  # pragma: no cover - compiled
    width = board.shape[0]
    reserve = width > BOARD_SIZE
    top = RESERVE if reserve else BAR
    target_hashes = board_hashes(targets)
    order = np.argsort(target_hashes)
    sorted_hashes = target_hashes[order]
    none = np.zeros(4, dtype=np.int8)

    # One frame per level of the walk (at most 4 steps a play, and the leaf level).
    boards = np.zeros((depth + 1, width), dtype=np.int8)
    lefts = np.zeros((depth + 1, 4), dtype=np.int8)
    nlefts = np.zeros(depth + 1, dtype=np.int64)
    highs = np.zeros(depth + 1, dtype=np.int64)
    die_at = np.zeros(depth + 1, dtype=np.int64)  # index into the frame's distinct dice
    src_at = np.zeros(depth + 1, dtype=np.int64)  # the next source to try
    pending = np.zeros((depth + 1, 5), dtype=np.int64)  # the step that made the child being walked
    frame_edges = np.zeros((depth + 1, 2 * 27, 5), dtype=np.int16)
    nframe = np.zeros(depth + 1, dtype=np.int64)
    frame_slot = np.zeros(depth + 1, dtype=np.int64)
    distinct = np.zeros((depth + 1, 2), dtype=np.int64)
    ndistinct = np.zeros(depth + 1, dtype=np.int64)

    nodes = 0
    nedges = 0
    starts[0] = 0
    # The root's frame.
    boards[0, :] = board
    if d1 == d2:
        for i in range(4):
            lefts[0, i] = d1
        nlefts[0] = 4
    else:
        lefts[0, 0] = max(d1, d2)
        lefts[0, 1] = min(d1, d2)
        nlefts[0] = 2
    level = 0
    entering = True
    result = -1  # the node id the last finished frame gave its parent
    while True:
        if entering:
            here = boards[level]
            h = _hash(here, width, lefts[level], nlefts[level])
            s = _find(h, here, width, lefts[level], nlefts[level], slot_hash, slot_board, slot_left)
            if slot_hash[s] != _EMPTY:  # met before
                result = slot_node[s]
                entering = False
                level -= 1
                if level < 0:
                    return nodes
                continue
            if level == depth:
                t = _target_index(here, width, targets, order, sorted_hashes, none)
                node = -1
                if t >= 0:
                    if nodes >= MAX_NODES:
                        return -1
                    nodes += 1
                    node = nodes
                    starts[node] = nedges
                    final[node - 1] = t
                if not _claim(s, h, slot_hash, used):
                    return -1
                slot_node[s] = node
                slot_board[s, :width] = here
                for i in range(4):
                    slot_left[s, i] = lefts[level, i] if i < nlefts[level] else 0
                result = node
                entering = False
                level -= 1
                if level < 0:
                    return nodes
                continue
            frame_slot[level] = s
            # Claimed now (no state below has as many dice left, so none can match it before it is done).
            if not _claim(s, h, slot_hash, used):
                return -1
            slot_node[s] = -1
            slot_board[s, :width] = here
            for i in range(4):
                slot_left[s, i] = lefts[level, i] if i < nlefts[level] else 0
            highs[level] = _rearmost(here) if reserve else highest_point(here)
            nd = 0
            for i in range(nlefts[level]):
                d = lefts[level, i]
                if nd == 0 or distinct[level, nd - 1] != d:
                    distinct[level, nd] = d
                    nd += 1
            ndistinct[level] = nd
            die_at[level] = 0
            src_at[level] = top
            nframe[level] = 0
        else:
            # A child has just been walked: keep its edge if it leads to a legal play.
            if result >= 0:
                k = nframe[level]
                for i in range(4):
                    frame_edges[level, k, i] = pending[level, i]
                frame_edges[level, k, 4] = result
                nframe[level] = k + 1
        # The next step out of this frame's state, if any.
        here = boards[level]
        stepped = False
        while die_at[level] < ndistinct[level]:
            die = distinct[level, die_at[level]]
            while src_at[level] >= 1:
                src = src_at[level]
                src_at[level] -= 1
                if here[src] <= 0:
                    continue
                if reserve:
                    dst = _target(here, src, die, highs[level], reserve_first, hit_needs_home, bar_first)
                else:
                    dst = step_target(here, src, die, highs[level])
                if dst < 0:
                    continue
                child = boards[level + 1]
                child[:] = here
                hit = apply_step(child, src, dst)
                # The dice left below: this frame's, less one ``die``.
                n = 0
                removed = False
                for i in range(nlefts[level]):
                    if not removed and lefts[level, i] == die:
                        removed = True
                        continue
                    lefts[level + 1, n] = lefts[level, i]
                    n += 1
                nlefts[level + 1] = n
                pending[level, 0] = src
                pending[level, 1] = dst
                pending[level, 2] = die
                pending[level, 3] = 1 if hit else 0
                stepped = True
                break
            if stepped:
                break
            die_at[level] += 1
            src_at[level] = top
        if stepped:
            level += 1
            entering = True
            continue
        # This frame is finished: it is a node if any of its steps leads to a legal play.
        node = -1
        m = nframe[level]
        if m > 0:
            if nodes >= MAX_NODES or nedges + m > edges.shape[0]:
                return -1
            for k in range(m):
                edges[nedges + k, :] = frame_edges[level, k, :]
            nodes += 1
            node = nodes
            final[node - 1] = -1
            nedges += m
            starts[node] = nedges
        slot_node[frame_slot[level]] = node
        result = node
        entering = False
        level -= 1
        if level < 0:
            return nodes
