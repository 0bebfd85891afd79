"""Pubeval: Tesauro's public linear evaluator (1993), the fixed reference opponent.

Its published weights ship in ``data/pubeval-weights.txt`` (122 race weights,
then 122 contact weights).  A play is scored on the position after it, in the
mover's numbering; the race weights apply when the position before the play
had no contact; a play that bears off the last checker wins outright.

>>> from table import Position
>>> p = Position.initial()
>>> play = choose_play(p, (3, 1))
>>> str(play)
'8/5 6/5'
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from table.jitcache import njit

from table.rules import kernel
from table.rules.board import is_race
from table.rules.position import Play, Position

N_INPUTS = 122
_DATA = Path(__file__).with_name("data") / "pubeval-weights.txt"


def load_weights(path: Path = _DATA) -> np.ndarray:
    """The published weights as a (2, 122) array: row 0 race, row 1 contact."""
    rows: dict[str, list[float]] = {"race": [], "contact": []}
    current: list[float] | None = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line in rows:
            current = rows[line]
            continue
        if current is None:
            raise ValueError(f"{path}: weight before a 'race' or 'contact' header")
        current.append(float(line))
    for name, values in rows.items():
        if len(values) != N_INPUTS:
            raise ValueError(f"{path}: {len(values)} {name} weights, expected {N_INPUTS}")
    return np.array([rows["race"], rows["contact"]], dtype=np.float64)


WEIGHTS = load_weights()


@njit(cache=True)
def encode(board: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Pubeval's 122 inputs of a mover's-view board (the position after the play)."""
    on = 0
    for i in range(1, 26):
        if board[i] > 0:
            on += board[i]
    for k in range(24):
        n = board[24 - k]
        j = 5 * k
        out[j] = 1.0 if n == -1 else 0.0
        out[j + 1] = 1.0 if n == 1 else 0.0
        out[j + 2] = 1.0 if n >= 2 else 0.0
        out[j + 3] = 1.0 if n == 3 else 0.0
        out[j + 4] = (n - 3) / 2.0 if n >= 4 else 0.0
    out[120] = -board[0] / 2.0
    out[121] = (15 - on) / 15.0


@njit(cache=True)
def score(weights: np.ndarray, race: bool, board: np.ndarray, x: np.ndarray) -> float:  # pragma: no cover
    """Pubeval's score of a mover's-view board after a play (higher is better for the mover)."""
    on = 0
    for i in range(1, 26):
        if board[i] > 0:
            on += board[i]
    if on == 0:
        return 1e30
    encode(board, x)
    row = weights[0] if race else weights[1]
    s = 0.0
    for i in range(N_INPUTS):
        s += row[i] * x[i]
    return s


@njit(cache=True)
def pick(weights: np.ndarray, before: np.ndarray, boards: np.ndarray, n: int, x: np.ndarray) -> int:  # pragma: no cover
    """Index of pubeval's choice among ``n`` mover's-view result boards."""
    race = is_race(before)
    best = 0
    best_s = -1e300
    for c in range(n):
        s = score(weights, race, boards[c], x)
        if s > best_s:
            best_s = s
            best = c
    return best


def choose_play(position: Position, dice: tuple[int, int]) -> Play | None:
    """Pubeval's play for ``dice``, or None when nothing can be played."""
    plays = position.legal_plays(dice)
    if not plays:
        return None
    before = np.array(position.board, dtype=np.int8)
    boards = np.array([[-v for v in reversed(p.position.board)] for p in plays], dtype=np.int8)
    i = pick(WEIGHTS, before, boards, len(plays), np.empty(N_INPUTS, dtype=np.float64))
    return plays[i]
