"""A one-sided bear-off database, computed by Table itself, for exact race endings.

For every way to place up to 15 checkers on one side's home board (54,264
positions) it holds the probability of needing exactly ``n`` rolls to bear
them all off, playing each roll to minimise the expected number of rolls,
and the same for getting the first checker off (which decides gammons).
When both sides are home, the two sides' roll counts are independent, so
the chances follow exactly: the player on roll wins if it needs no more
rolls than the opponent.

Without contact, a side's home board matters only through those two
distributions, yet different boards can share them (one checker on the 2-point
or on the 1-point: one roll either way).  Such boards are *equivalent*; the
database's third layer names one of each class, its *representative*, and
``canonical_into`` puts it in place of a home side's checkers, so that the
evaluators judge equivalent positions alike (a play is never preferred to an
equivalent one by the network's whim).

The database takes a few seconds to build and is built once per process.

>>> from table import Position
>>> db = database()
>>> round(float(mean_rolls(db, {1: 1})), 6)  # one checker on the 1-point: always one roll
1.0
>>> round(float(mean_rolls(db, {6: 2})), 3)  # two on the 6-point
2.11
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Mapping

import numpy as np
from table.jitcache import njit

from table.rules import kernel

POINTS = 6
MAX_ROLLS = 40
N_POSITIONS = 54264  # C(21, 6)


@njit(cache=True)
def _binom(n: int, k: int) -> int:  # pragma: no cover - compiled
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def index(board: np.ndarray, mover: bool) -> int:  # pragma: no cover - compiled
    """Index of one side's home board in the database.

    The side's checkers are read from the raw board: the mover's on 1..6, or
    the opponent's on 24..19 (its own 1..6).  Checkers are written as zeros
    and each point closes with a one; the six ones' places rank the position.
    """
    pos = 0
    rank = 0
    for p in range(1, POINTS + 1):
        n = board[p] if mover else -board[25 - p]
        if n < 0:
            n = 0
        pos += n
        rank += _binom(pos, p)
        pos += 1
    return rank


@njit(cache=True)
def _build(out: np.ndarray, checkers: int) -> None:  # pragma: no cover - compiled
    """Fill ``out[0]`` (rolls to finish) and ``out[1]`` (rolls to the first checker off).

    A side started with ``checkers``: one with fewer at home has one off
    already; the first-off layer of boards with more means nothing.
    """
    n_pos = out.shape[1]
    counts = np.zeros((n_pos, POINTS + 1), dtype=np.int64)
    pips = np.zeros(n_pos, dtype=np.int64)
    k = 0
    c = np.zeros(POINTS + 1, dtype=np.int64)
    # Every placement of up to 15 checkers on 6 points.
    for a in range(16):
        for b in range(16 - a):
            for cc in range(16 - a - b):
                for d in range(16 - a - b - cc):
                    for e in range(16 - a - b - cc - d):
                        for f in range(16 - a - b - cc - d - e):
                            c[1] = a
                            c[2] = b
                            c[3] = cc
                            c[4] = d
                            c[5] = e
                            c[6] = f
                            for p in range(POINTS + 1):
                                counts[k, p] = c[p]
                            pips[k] = a + 2 * b + 3 * cc + 4 * d + 5 * e + 6 * f
                            k += 1
    order = np.argsort(pips, kind="mergesort")
    done = np.zeros(n_pos, dtype=np.bool_)
    mean = np.zeros(n_pos, dtype=np.float64)
    mean_first = np.zeros(n_pos, dtype=np.float64)
    hashes = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    boards = np.empty((kernel.MAX_PLAYS, 26), dtype=np.int8)
    steps = np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8)
    nsteps = np.empty(kernel.MAX_PLAYS, dtype=np.int8)
    board = np.zeros(26, dtype=np.int8)
    for oi in range(n_pos):
        i = order[oi]
        for p in range(26):
            board[p] = 0
        total = 0
        for p in range(1, POINTS + 1):
            board[p] = counts[i, p]
            total += counts[i, p]
        idx = index(board, True)
        if total == 0:
            out[0, idx, 0] = 1.0
            out[1, idx, 0] = 1.0
            done[idx] = True
            continue
        if total < checkers:
            out[1, idx, 0] = 1.0  # a checker is already off
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                w = (1.0 if d1 == d2 else 2.0) / 36.0
                n = kernel.generate(board, d1, d2, hashes, boards, steps, nsteps)
                best = -1
                best_m = 1e9
                best_f = -1
                best_fm = 1e9
                for j in range(n):
                    cj = index(boards[j], True)
                    if mean[cj] < best_m:
                        best_m = mean[cj]
                        best = cj
                    # For the first checker off: any play that bears one off wins outright.
                    on = 0
                    for p in range(1, POINTS + 1):
                        on += boards[j, p]
                    fm = 0.0 if on < checkers else mean_first[cj]
                    if fm < best_fm:
                        best_fm = fm
                        best_f = j
                for r in range(1, MAX_ROLLS):
                    out[0, idx, r] += w * out[0, best, r - 1]
                out[0, idx, MAX_ROLLS - 1] += w * out[0, best, MAX_ROLLS - 1]
                if total == checkers:
                    on = 0
                    for p in range(1, POINTS + 1):
                        on += boards[best_f, p]
                    if on < checkers:
                        out[1, idx, 1] += w
                    else:
                        cf = index(boards[best_f], True)
                        for r in range(1, MAX_ROLLS):
                            out[1, idx, r] += w * out[1, cf, r - 1]
        m = 0.0
        mf = 0.0
        for r in range(MAX_ROLLS):
            m += r * out[0, idx, r]
            mf += r * out[1, idx, r]
        mean[idx] = m
        mean_first[idx] = mf
        done[idx] = True


VERSION = 3
LAYERS = 3  # rolls to finish, rolls to the first checker off, the class representative
_REP_DIFFERS = POINTS  # layer 2: the representative's counts on points 1..6, then this flag
_SAME = 1e-6  # distributions this close (the build's rounding) are the same


def _placements(points: int, checkers: int) -> list[tuple[int, ...]]:
    """Every way to put at most ``checkers`` checkers on ``points`` points."""
    if points == 0:
        return [()]
    return [(n, *rest) for n in range(checkers + 1) for rest in _placements(points - 1, checkers - n)]


def _representatives(db: np.ndarray) -> np.ndarray:
    """Layer 2: for each position, its class representative's checkers, and whether it differs.

    Positions whose two distributions agree within ``_SAME`` form a class; the
    representative is the one whose rearmost checker is lowest (then the fewest
    pips, the fewest checkers, the lowest index).  So it never reaches past any
    board of its class: put in place of one, it meets none of the other side's
    checkers, and a race stays a race.
    """
    n = db.shape[1]
    counts = np.zeros((n, POINTS), dtype=np.int64)
    board = np.zeros(26, dtype=np.int8)
    for c in _placements(POINTS, 15):
        board[1:POINTS + 1] = c
        counts[index(board, True)] = c
    rows = np.concatenate([db[0], db[1]], axis=1).astype(np.float64)
    parent = np.arange(n)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = int(parent[i])
        return i

    # Rows within _SAME of each other project, on weights from 0 to 1, within _SAME times
    # their number: only neighbours in the order of the projection need comparing.
    weights = np.random.default_rng(0).random(rows.shape[1])
    mean = rows @ weights
    window = _SAME * rows.shape[1]
    order = np.argsort(mean, kind="stable")
    ordered = rows[order]
    for d in range(1, n):
        near = mean[order[d:]] - mean[order[:-d]] <= window
        if not near.any():
            break
        ks = np.flatnonzero(near)
        same = np.abs(ordered[ks + d] - ordered[ks]).max(axis=1) <= _SAME
        for k in ks[same]:
            parent[root(int(order[k]))] = root(int(order[k + d]))
    pips = counts @ np.arange(1, POINTS + 1)
    total = counts.sum(axis=1)
    back = np.where(counts > 0, np.arange(1, POINTS + 1), 0).max(axis=1)
    best: dict[int, int] = {}
    for i in range(n):
        r = root(i)
        k = best.get(r)
        if k is None or (back[i], pips[i], total[i], i) < (back[k], pips[k], total[k], k):
            best[r] = i
    layer = np.zeros((n, MAX_ROLLS), dtype=np.float32)
    for i in range(n):
        rep = best[root(i)]
        layer[i, :POINTS] = counts[rep]
        layer[i, _REP_DIFFERS] = float(rep != i)
    return layer


def _cache_file(checkers: int = 15) -> Path:
    root = os.environ.get("TABLE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "table")
    # Standard backgammon's file keeps its name; a variant's count is in the name.
    suffix = "" if checkers == 15 else f"-c{checkers}"
    return Path(root) / f"bearoff-v{VERSION}{suffix}.npy"


@lru_cache(maxsize=2)
def database(checkers: int = 15) -> np.ndarray:
    """The database as a ``float32`` array (3, positions, rolls): see ``LAYERS``.

    ``checkers`` is each side's count at the start (a variant's, 3 in
    Hypergammon): it decides when a side at home has a checker off already,
    which the first-off layer and so the gammons depend on.

    Built on first use (seconds) and kept in the user's cache directory
    (``$TABLE_CACHE_DIR``, else ``~/.cache/table``) for later processes.
    """
    path = _cache_file(checkers)
    db = _load(path)
    if db is not None:
        return db
    with _building(path):
        # Processes starting together (a server's workers) build it once: the others wait here
        # and find it made.
        db = _load(path)
        return db if db is not None else _build_and_keep(path, checkers)


def _load(path: Path) -> np.ndarray | None:
    try:
        db: np.ndarray = np.load(path, allow_pickle=False)
        if db.shape == (LAYERS, N_POSITIONS, MAX_ROLLS) and db.dtype == np.float32:
            return db
    except (OSError, ValueError):
        pass
    return None


@contextlib.contextmanager
def _building(path: Path) -> Iterator[None]:
    """Hold the lock on building ``path`` (none where the folder cannot be written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        held = open(path.with_name(path.name + ".lock"), "a")
    except OSError:
        yield
        return
    with held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def _build_and_keep(path: Path, checkers: int) -> np.ndarray:
    """Build the database and keep it at ``path`` (written whole, then renamed into place)."""
    out = np.zeros((2, N_POSITIONS, MAX_ROLLS), dtype=np.float64)
    _build(out, checkers)
    db = np.empty((LAYERS, N_POSITIONS, MAX_ROLLS), dtype=np.float32)
    db[:2] = out
    db[2] = _representatives(db)
    try:
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
        np.save(tmp, db)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: rebuild next time
    return db


def empty() -> np.ndarray:
    """A stand-in that switches the database off in the compiled evaluators."""
    return np.zeros((LAYERS, 0, MAX_ROLLS), dtype=np.float32)


@njit(cache=True)
def applies(db: np.ndarray, board: np.ndarray) -> bool:  # pragma: no cover - compiled
    """True when the database is present and both sides are in their home boards."""
    if db.shape[1] == 0:
        return False
    if board[25] != 0 or board[0] != 0:
        return False
    for p in range(7, 25):
        if board[p] > 0:
            return False
    for p in range(1, 19):
        if board[p] < 0:
            return False
    return True


@njit(cache=True)
def _home(board: np.ndarray, mover: bool) -> bool:  # pragma: no cover - compiled
    """True when every checker of that side is on its own points 1-6 (or off)."""
    for p in range(POINTS + 1, 26):
        if (board[p] > 0) if mover else (board[25 - p] < 0):
            return False
    return True


@njit(cache=True)
def equivalent_differs(db: np.ndarray, board: np.ndarray) -> bool:  # pragma: no cover
    """True when a home side of this race ``board`` is not its class representative.

    The caller knows the board is a race (no contact); the database may be empty
    or lack the representatives' layer.
    """
    if db.shape[1] == 0 or db.shape[0] < LAYERS:
        return False
    for mover in (True, False):
        if _home(board, mover) and db[2, index(board, mover), _REP_DIFFERS] != 0.0:
            return True
    return False


@njit(cache=True)
def canonical_into(db: np.ndarray, board: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """``board`` with each home side's checkers replaced by its class representative, into ``out``.

    Only for a race (no contact) with the representatives' layer present (see
    ``equivalent_differs``): the equivalent position the evaluators judge.
    """
    for i in range(26):
        out[i] = board[i]
    for mover in (True, False):
        if _home(board, mover):
            row = index(board, mover)
            sign = 1 if mover else -1
            # The other side's checkers may share these six points, past the rearmost of this
            # side's, where the representative never reaches: lift only this side's.
            for p in range(1, POINTS + 1):
                q = p if mover else 25 - p
                if board[q] * sign > 0:
                    out[q] = 0
            for p in range(1, POINTS + 1):
                n = np.int8(db[2, row, p - 1])
                if n:
                    out[p if mover else 25 - p] = sign * n


@njit(cache=True)
def probabilities(db: np.ndarray, board: np.ndarray, out: np.ndarray,
                  checkers: int = 15) -> None:  # pragma: no cover - compiled
    """Exact chances for the player on roll when both sides are home (see ``applies``).

    Each side started with ``checkers``: ``db`` must be ``database(checkers)``,
    whose first-off layer counts a side with fewer on the board as having one off.
    """
    a = index(board, True)
    b = index(board, False)
    mine = 0
    theirs = 0
    for p in range(1, 7):
        if board[p] > 0:
            mine += board[p]
        if board[25 - p] < 0:
            theirs -= board[25 - p]
    win = 0.0
    gam = 0.0
    lgam = 0.0
    # Tails: tb[n] = P(opponent needs >= n rolls), likewise for first-off.
    tb = 1.0
    tfb = 1.0
    for n in range(MAX_ROLLS):
        win += db[0, a, n] * tb
        if theirs == checkers:
            gam += db[0, a, n] * tfb
        tb -= db[0, b, n]
        tfb -= db[1, b, n]
    if mine == checkers:
        # The opponent wins on its roll m after our m rolls: we need > m rolls for a first off.
        tfa = 1.0
        for m in range(MAX_ROLLS):
            tfa -= db[1, a, m]
            lgam += db[0, b, m] * tfa
    if win > 1.0:
        win = 1.0
    out[0] = win
    out[1] = min(gam, win)
    out[2] = 0.0
    out[3] = min(lgam, 1.0 - win)
    out[4] = 0.0


def mean_rolls(db: np.ndarray, checkers: Mapping[int, int]) -> float:
    """Expected rolls to bear off ``checkers`` (point -> count, points 1-6)."""
    board = np.zeros(26, dtype=np.int8)
    for p, n in checkers.items():
        board[p] = n
    i = index(board, True)
    return float(sum(r * float(db[0, i, r]) for r in range(MAX_ROLLS)))


def equivalent(db: np.ndarray, a: Mapping[int, int], b: Mapping[int, int]) -> bool:
    """Whether two home boards (point -> count, points 1-6) share both distributions.

    >>> db = database()
    >>> equivalent(db, {2: 1}, {1: 1}), equivalent(db, {2: 1}, {6: 1})
    (True, False)
    """
    rows = []
    for checkers in (a, b):
        board = np.zeros(26, dtype=np.int8)
        for p, n in checkers.items():
            board[p] = n
        i = index(board, True)
        rows.append(np.concatenate([db[0, i], db[1, i]]).astype(np.float64))
    return bool(np.abs(rows[0] - rows[1]).max() <= _SAME)
