"""Fixtures from the Python engine for the browser engine's parity tests (tests/e2e/js/parity).

The Python engine is the reference: each function here writes what it computes into JSON that a
Node test reads and must reproduce exactly.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from table import Position
from table.rules import kernel
from table.rules.play import boards_after
from table.rules.posid import encode_position_id

HERE = Path(__file__).resolve().parent
PERFT = HERE.parent / "rules" / "data" / "perft.json"


def _generate(board: np.ndarray, d1: int, d2: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    hashes = np.empty(kernel.MAX_PLAYS, dtype=np.int64)
    boards = np.empty((kernel.MAX_PLAYS, kernel.BOARD_SIZE), dtype=np.int8)
    steps = np.empty((kernel.MAX_PLAYS, 4, 2), dtype=np.int8)
    nsteps = np.empty(kernel.MAX_PLAYS, dtype=np.int8)
    n = kernel.generate(board, d1, d2, hashes, boards, steps, nsteps)
    assert n >= 0
    return n, boards, steps, nsteps


def kernel_plays(board: np.ndarray, d1: int, d2: int) -> list[tuple[str, list[list[int]]]]:
    """The kernel's plays of one roll, in its order: (Position ID of the mover's board, steps)."""
    n, boards, steps, nsteps = _generate(board, d1, d2)
    return [(encode_position_id(tuple(int(v) for v in boards[i])),
             [[int(a), int(b)] for a, b in steps[i, : nsteps[i]]]) for i in range(n)]


def kernel_boards(board: np.ndarray, d1: int, d2: int) -> list[np.ndarray]:
    """The kernel's resulting boards of one roll (mover's view), in its order."""
    n, boards, _, _ = _generate(board, d1, d2)
    return [boards[i].copy() for i in range(n)]


def random_boards(count: int, seed: int, variant: str = "standard") -> list[np.ndarray]:
    """Positions met in random games of ``variant`` (every stage: contact, bar, bear-off), mover's view."""
    rng = random.Random(seed)
    out: list[np.ndarray] = []
    start = np.array(Position.initial(variant).board, dtype=np.int8)
    board = start.copy()
    while len(out) < count:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = kernel_boards(board, max(d1, d2), min(d1, d2))
        if plays:
            board = plays[rng.randrange(len(plays))]
        flipped = np.empty_like(board)
        kernel.flip(board, flipped)
        board = flipped
        if (board[1:] > 0).sum() == 0 or (board < 0).sum() == 0:
            board = start.copy()  # the game is over: a new one
            continue
        out.append(board.copy())
    return out


def perft_ids() -> list[str]:
    return [row["id"] for row in json.loads(PERFT.read_text())["positions"]]


def run_node(test: str, fixture: dict[str, Any], tmp_path: Path, timeout: float = 300) -> str:
    """Write ``fixture`` and run the Node test ``js/parity/<test>`` on it; fail with its output."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the browser engine's parity tests need it")
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    run = subprocess.run([node, "--test", str(HERE / "js" / "parity" / test)], capture_output=True,
                         text=True, timeout=timeout, env={"PARITY_FIXTURE": str(path), "PATH": ""})
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    return run.stdout


def reserve_plays(position: Position, dice: tuple[int, int],
                  text: bool = True) -> list[tuple[str, list[list[int]], str | None]]:
    """``Position.legal_plays`` of a variant whose checkers wait off the board, in its order: (the
    mover's 28-entry board after the play as hex, each entry + 16 a byte, which is quicker to
    write than an ID; the steps; the play as text, or None where ``text`` is false: writing it is
    the slow part)."""
    plays = position.legal_plays(dice)
    if not plays:
        return []
    boards = [row.tobytes().hex() for row in (boards_after(plays).astype(np.int16) + 16).astype(np.uint8)]
    return [(board, [list(s) for s in p.steps], str(p) if text else None)
            for board, p in zip(boards, plays)]


def reserve_game_positions(count: int, seed: int, variant: str) -> list[Position]:
    """Positions met in random games of a reserve variant (entering, contact, the bar, bearing
    off), each seen from the player on roll; a finished game starts a new one."""
    rng = random.Random(seed)
    start = Position.initial(variant)
    position, out = start, []
    while len(out) < count:
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        position = plays[rng.randrange(len(plays))].position if plays else position.swapped()
        if position.is_game_over:
            position = start
            continue
        out.append(position)
    return out


def scattered_reserve_position(rng: random.Random, variant: str) -> Position:
    """A position of a reserve variant with each side's checkers put anywhere at random: checkers
    waiting and on the bar at once, a side with none home, bearing off, a finished game."""
    board = [0] * 28
    for side in (1, -1):
        left = 0 if rng.random() < 0.03 else 15 - rng.choice([0, 0, 0, 0, 3, rng.randint(1, 14)])
        waiting = min(left, rng.choice([0, 0, 1, 2, rng.randint(0, left)]))
        bar = min(left - waiting, rng.choice([0, 0, 0, 1, 2]))
        board[26 if side == 1 else 27] = side * waiting
        board[25 if side == 1 else 0] = side * bar
        low, high = rng.choice([(1, 24), (1, 24), (1, 6), (7, 24), (13, 24)])
        for _ in range(left - waiting - bar):
            free = [p for p in range(1, 25) if board[p if side == 1 else 25 - p] * side >= 0]
            p = rng.choice([p for p in free if low <= p <= high] or free)
            board[p if side == 1 else 25 - p] += side
    return Position(board, variant)
