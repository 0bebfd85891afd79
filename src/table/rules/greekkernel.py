"""The compiled move generator of the two Greek games without hitting: Plakoto and Fevga.

Why a third generator: ``kernel.generate`` is what the bot's search calls
millions of times for standard boards, and these games change the step rule
itself (a pinned checker, one checker holding a point, both sides moving the
same way, conditions on the position a play leaves).  One search serves both
games; ``game`` (``PLAKOTO`` or ``FEVGA``) picks the step rule.

**Plakoto's board** (``PLAKOTO_SIZE`` = 50 ``int8``, from the player on roll):

* ``b[1..24]``: the checkers on top of each of the mover's points, positive
  for the mover's, negative for the opponent's (as in the standard board);
* ``b[0]`` and ``b[25]`` (the bars) are always 0: nothing is hit;
* ``b[25 + p]`` for ``p`` in 1..24: a checker pinned on point ``p`` under
  the checkers of ``b[p]``: +1 if it is the mover's (then ``b[p] < 0``), -1 if
  it is the opponent's (then ``b[p] > 0``), 0 if none.

Turning it round is ``new[i] = -old[25 - i]`` for 0..25 and
``new[k] = -old[75 - k]`` for 26..49.

**Fevga's board** (26 ``int8``): ``b[1..24]`` as the standard board, both
sides in the mover's numbering; the bars are always 0.  Both sides move the
same way, so the opponent's own point ``q`` is the mover's point
``(q + 11) % 24 + 1`` (each side's 24-point is the other's 12-point), and
turning the board round is ``new[p] = -old[(p + 11) % 24 + 1]``.

**The search** tries every order of the dice and every checker for each die;
a double's sources are taken rearmost first where that loses nothing (always
in Plakoto; in Fevga once the first-checker rule cannot bind during the turn).
Every sequence of steps whose resulting position is allowed (Fevga: the mover
does not hold all six points 19-24) is a candidate play; of the candidates,
those using the most dice are kept, and of one die of a non-double, the
higher where it can be played.  Fevga then drops the plays that leave a prime
the opponent cannot move behind, unless every kept play does.

>>> import numpy as np
>>> start = np.zeros(PLAKOTO_SIZE, dtype=np.int8); start[24] = 15; start[1] = -15
>>> out = Outputs(PLAKOTO_SIZE)
>>> n = generate_greek(start, 6, 5, PLAKOTO, out.hashes, out.boards, out.steps, out.nsteps, out.hits)
>>> sorted(tuple(map(tuple, out.steps[k, :out.nsteps[k]].tolist())) for k in range(n))
[((24, 18), (18, 13)), ((24, 18), (24, 19))]
"""

from __future__ import annotations

import numpy as np
from table.jitcache import njit

from table.rules.kernel import MAX_PLAYS, ROLLS

__all__ = ["PLAKOTO", "FEVGA", "PLAKOTO_SIZE", "FEVGA_SIZE", "PINS", "CHECKERS", "Outputs",
           "turn_round", "generate_greek", "count_tree", "rotated", "traps"]

PLAKOTO = 0
FEVGA = 1
PLAKOTO_SIZE = 50
FEVGA_SIZE = 26
PINS = 25  # the pinned flag of point p is b[PINS + p]
CHECKERS = 15
HOME = 6
SLOTS = 2 * MAX_PLAYS  # the kept plays' hash table: a power of two, never full


class Outputs:
    """Arrays ``generate_greek`` writes into, sized for ``MAX_PLAYS`` plays of a ``size``-entry board."""

    def __init__(self, size: int) -> None:
        self.hashes = np.empty(MAX_PLAYS, dtype=np.int64)
        self.boards = np.empty((MAX_PLAYS, size), dtype=np.int8)
        self.steps = np.empty((MAX_PLAYS, 4, 2), dtype=np.int8)
        self.nsteps = np.empty(MAX_PLAYS, dtype=np.int8)
        self.hits = np.empty((MAX_PLAYS, 4), dtype=np.bool_)


@njit(cache=True)
def rotated(p: int) -> int:  # pragma: no cover - compiled
    """Fevga: the other side's number for point ``p`` (the same map both ways)."""
    return (p + 11) % 24 + 1


@njit(cache=True)
def turn_round(board: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Write into ``out`` the board as the opponent sees it (the layout tells the game)."""
    if board.shape[0] == PLAKOTO_SIZE:
        for i in range(26):
            out[i] = -board[25 - i]
        for k in range(26, PLAKOTO_SIZE):
            out[k] = -board[75 - k]
    else:
        out[0] = 0
        out[25] = 0
        for p in range(1, 25):
            out[p] = -board[rotated(p)]


@njit(cache=True)
def _may_leave_start(b: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Fevga's first checker: leaving the 24-point needs a checker past the opponent's start
    (on 11 or lower, or borne off), or no checker off the 24-point yet."""
    if _passed(b):
        return True
    on_board = 0
    for p in range(1, 25):
        if b[p] > 0:
            on_board += b[p]
    return bool(on_board == b[24])


@njit(cache=True)
def _passed(b: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Fevga: a checker of the mover is on its 11-point or lower, or borne off."""
    on_board = 0
    for p in range(1, 25):
        if b[p] > 0:
            on_board += b[p]
            if p <= 11:
                return True
    return on_board < CHECKERS


@njit(cache=True)
def _target(b: np.ndarray, src: int, die: int, game: int) -> int:  # pragma: no cover - compiled
    """Where the mover's checker on ``src`` lands with ``die`` (0: borne off), or -1."""
    if b[src] <= 0:  # a pinned checker is not in b[src]: it never moves
        return -1
    if game == FEVGA and src == 24 and not _may_leave_start(b):
        return -1
    dst = src - die
    if dst >= 1:
        if game == PLAKOTO:
            if b[dst] <= -2 or (b[dst] < 0 and b[PINS + dst] > 0):
                return -1
        elif b[dst] < 0:
            return -1
        return dst
    for p in range(24, HOME, -1):
        if b[p] > 0:
            return -1
    if game == PLAKOTO:
        for p in range(1, 25):
            if b[PINS + p] > 0:
                return -1
    if dst == 0:
        return 0
    for p in range(HOME, src, -1):
        if b[p] > 0:
            return -1
    return 0


@njit(cache=True)
def _apply(b: np.ndarray, src: int, dst: int, game: int) -> bool:  # pragma: no cover - compiled
    """Move one checker in place; return whether it pinned one (Plakoto)."""
    b[src] -= 1
    if game == PLAKOTO and b[src] == 0 and b[PINS + src] < 0:
        b[src] = -1  # the last captor left: the pinned checker is free again
        b[PINS + src] = 0
    if dst == 0:
        return False
    if game == PLAKOTO and b[dst] == -1 and b[PINS + dst] == 0:
        b[dst] = 1
        b[PINS + dst] = -1
        return True
    b[dst] += 1
    return False


@njit(cache=True)
def _allowed(b: np.ndarray, game: int) -> bool:  # pragma: no cover - compiled
    """Whether a play may leave this position (Fevga: not all six of 19-24 held)."""
    if game != FEVGA:
        return True
    for p in range(19, 25):
        if b[p] <= 0:
            return True
    return False


@njit(cache=True)
def traps(b: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Fevga: the mover holds six points in a row directly in front of every opponent
    checker left on the board, all on one point (the opponent could never move)."""
    where = 0
    for p in range(1, 25):
        if b[p] < 0:
            if where:
                return False
            where = p
    if where == 0:
        return False
    q = rotated(where)  # the opponent's own number for its point
    if q < 7:
        return False
    for r in range(q - 6, q):
        if b[rotated(r)] <= 0:
            return False
    return True


@njit(cache=True)
def _record(board: np.ndarray, steps: np.ndarray, hitv: np.ndarray, nsteps: int, priority: int,
            state: np.ndarray, table: np.ndarray, hashes: np.ndarray, out_boards: np.ndarray,
            out_steps: np.ndarray, out_nsteps: np.ndarray,
            out_hits: np.ndarray) -> None:  # pragma: no cover - compiled
    """Keep a candidate if it uses the roll at least as fully as the best so far (once per board).

    ``state``: the count kept, the best priority, an overflow flag.  ``table``
    (``SLOTS`` entries, -1 when empty) finds a board already kept by its hash:
    the search meets the same board thousands of times with doubles.
    """
    if priority < state[1]:
        return
    if priority > state[1]:
        state[0] = 0
        state[1] = priority
        table[:] = -1
    size = board.shape[0]
    h = np.int64(1469598103934665603)
    for i in range(size):
        h = (h ^ np.int64(board[i] + 16)) * np.int64(1099511628211)
    slot = h & (SLOTS - 1)
    while table[slot] >= 0:
        k = table[slot]
        if hashes[k] == h:
            same = True
            for i in range(size):
                if out_boards[k, i] != board[i]:
                    same = False
                    break
            if same:
                return
        slot = (slot + 1) & (SLOTS - 1)
    n = state[0]
    if n >= out_boards.shape[0]:
        state[2] = 1
        return
    table[slot] = n
    hashes[n] = h
    out_boards[n, :] = board
    for s in range(nsteps):
        out_steps[n, s, 0] = steps[s, 0]
        out_steps[n, s, 1] = steps[s, 1]
        out_hits[n, s] = hitv[s]
    out_nsteps[n] = nsteps
    state[0] = n + 1


@njit(cache=True)
def _walk(board: np.ndarray, dice: np.ndarray, ndice: int, game: int, ordered: bool,
          state: np.ndarray, table: np.ndarray, hashes: np.ndarray, out_boards: np.ndarray, out_steps: np.ndarray,
          out_nsteps: np.ndarray, out_hits: np.ndarray) -> None:  # pragma: no cover - compiled
    """Every sequence of steps of ``dice`` in this order; each allowed one is a candidate.

    ``ordered``: take the sources of a double rearmost first (each step's source
    at most the previous one's), which ``generate_greek`` allows where it loses nothing.
    """
    stack = np.empty((5, board.shape[0]), dtype=np.int8)
    srcs = np.zeros(5, dtype=np.int64)
    lims = np.full(5, 24, dtype=np.int64)
    steps = np.zeros((4, 2), dtype=np.int8)
    hitv = np.zeros(4, dtype=np.bool_)
    stack[0, :] = board
    doubles = ndice == 4
    level = 0
    while level >= 0:
        cur = stack[level]
        s = srcs[level] + 1
        dst = -1
        while s <= lims[level]:
            dst = _target(cur, s, dice[level], game)
            if dst >= 0:
                break
            s += 1
        if s > lims[level]:
            level -= 1
            continue
        srcs[level] = s
        nxt = stack[level + 1]
        nxt[:] = cur
        hitv[level] = _apply(nxt, s, dst, game)
        steps[level, 0] = s
        steps[level, 1] = dst
        if _allowed(nxt, game):
            if doubles:
                priority = level + 1
            else:
                priority = 100 if level == 1 else 10 + dice[0]
            _record(nxt, steps, hitv, level + 1, priority, state, table, hashes, out_boards,
                    out_steps, out_nsteps, out_hits)
        if level + 1 < ndice:
            level += 1
            srcs[level] = 0
            lims[level] = s if ordered else 24


@njit(cache=True)
def generate_greek(board: np.ndarray, d1: int, d2: int, game: int, hashes: np.ndarray,
                   out_boards: np.ndarray, out_steps: np.ndarray, out_nsteps: np.ndarray,
                   out_hits: np.ndarray) -> int:  # pragma: no cover - compiled
    """Write every legal play of ``d1``-``d2`` into the ``out_*`` arrays (``Outputs``).

    The contract of ``kernel.generate``: the number of plays, one per distinct
    resulting board (left from the mover's side), 0 when nothing can be played,
    -1 when the outputs are too small; ``out_hits[k, s]`` is whether step ``s``
    pinned a checker (Plakoto).
    """
    state = np.zeros(3, dtype=np.int64)
    table = np.full(SLOTS, -1, dtype=np.int64)
    # One call site with a plain int: a literal 2 or 4 would compile ``_walk`` twice.
    doubles = d1 == d2
    ndice = 4 if doubles else 2
    dice = np.empty(4, dtype=np.int64)
    # A double's steps commute (moving the rearmost checker first never blocks a later step nor
    # changes the result, pins included), so one order of sources finds every play: in Plakoto
    # always; in Fevga once the first-checker rule can no longer bind during the turn (nothing
    # on the 24-point, or a checker already on 11 or lower or borne off: that stays true).
    ordered = doubles and (game == PLAKOTO or board[24] <= 0 or _passed(board))
    for order in range(1 if doubles else 2):
        dice[:] = d1
        if order == 1:
            dice[0] = d2
        elif not doubles:
            dice[1] = d2
        _walk(board, dice, ndice, game, ordered, state, table, hashes, out_boards, out_steps,
              out_nsteps, out_hits)
    if state[2]:
        return -1
    n = int(state[0])
    if game == FEVGA and n:
        # The prime rule: keep the plays that leave the opponent a move, if there are any.
        free = 0
        for k in range(n):
            if not traps(out_boards[k]):
                if free != k:
                    out_boards[free, :] = out_boards[k]
                    out_steps[free] = out_steps[k]
                    out_nsteps[free] = out_nsteps[k]
                    out_hits[free] = out_hits[k]
                free += 1
        if free:
            n = free
    return n


@njit(cache=True)
def _over(board: np.ndarray) -> bool:  # pragma: no cover - compiled
    """A side has borne off everything, or a pinned mother has decided the game (``plakoto``)."""
    mine = False
    theirs = False
    for i in range(board.shape[0]):
        if board[i] > 0:
            mine = True
        elif board[i] < 0:
            theirs = True
    if not (mine and theirs):
        return True
    if board.shape[0] == PLAKOTO_SIZE:
        my_mother = board[PINS + 24] > 0
        their_mother = board[PINS + 1] < 0
        if my_mother or their_mother:
            return bool((my_mother and their_mother) or (my_mother and board[1] >= 0) or (
                their_mother and board[24] <= 0))
    return False


@njit(cache=True)
def count_tree(board: np.ndarray, plies: int, game: int) -> int:  # pragma: no cover - compiled
    """Leaves of the game tree ``plies`` deep: every roll of the 21, every play of it.

    A roll with no legal play passes (one branch, the board turned round); a
    finished game is a leaf at any depth (tests/fixtures/greek-perft.json).
    """
    if plies == 0 or _over(board):
        return 1
    size = board.shape[0]
    out = np.empty((MAX_PLAYS, size), dtype=np.int8)
    hashes = np.empty(MAX_PLAYS, dtype=np.int64)
    steps = np.empty((MAX_PLAYS, 4, 2), dtype=np.int8)
    nsteps = np.empty(MAX_PLAYS, dtype=np.int8)
    hits = np.empty((MAX_PLAYS, 4), dtype=np.bool_)
    turned = np.empty(size, dtype=np.int8)
    total = 0
    for r in range(ROLLS.shape[0]):
        n = generate_greek(board, ROLLS[r, 0], ROLLS[r, 1], game, hashes, out, steps, nsteps, hits)
        if n < 0:
            raise ValueError("more legal plays than the generator has room for")
        if n == 0:
            turn_round(board, turned)
            total += count_tree(turned.copy(), plies - 1, game)
        kept = out[:n].copy()
        for k in range(n):
            turn_round(kept[k], turned)
            total += count_tree(turned.copy(), plies - 1, game)
    return total
