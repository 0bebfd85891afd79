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
