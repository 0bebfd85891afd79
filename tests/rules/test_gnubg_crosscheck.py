"""Legal plays and their notation, compared with GNU Backgammon's own lists.

GNU Backgammon (Debian's ``gnubg``, installed by scripts/test) is asked for
every play of each roll (``hint`` at 0-ply without pruning lists them all);
the set of move texts must equal ours exactly.  This checks move generation,
maximum-use rules and notation against an independent program at once.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from table import Position

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
pytestmark = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
MOVE = re.compile(r"^\s+\d+\.\s+Cubeful 0-ply\s+(.*?)\s+Eq\.:", re.M)
PERFT = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def _synthetic(count: int, seed: int) -> list[Position]:
    """Random boards rich in bar checkers, blots and bear-offs."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = [0] * 26
        home_only = rng.random() < 0.4
        for _ in range(rng.randint(1, 15)):
            board[rng.randint(1, 6) if home_only else rng.choice([25, *range(1, 25)])] += 1
        free = [i for i in range(0, 25) if board[i] == 0]
        for _ in range(rng.randint(1, 15)):
            board[rng.choice(free)] -= 1
        position = Position(board)
        if not position.is_game_over:
            out.append(position)
    return out


def _gnubg_plays(positions: list[Position]) -> list[set[str]]:
    commands = [
        "set evaluation chequerplay evaluation plies 0",
        "set evaluation chequerplay evaluation prune off",
        "new game",
        "set turn 1",
    ]
    for position in positions:
        for a, b in ROLLS:
            commands += [f"set board {position.id}", f"set dice {a} {b}", "hint 1000", "show pipcount"]
    assert GNUBG is not None
    result = subprocess.run(
        [GNUBG, "-t", "-q"], input="\n".join(commands) + "\n",
        capture_output=True, text=True, timeout=600, check=False,
    )
    # "show pipcount" after each hint marks where one answer ends.
    chunks = re.split(r"The pip counts are:.*\n(?:.*\n)?", result.stdout)
    assert len(chunks) == len(positions) * len(ROLLS) + 1, result.stderr[-2000:]
    return [set(MOVE.findall(chunk)) for chunk in chunks[:-1]]


@pytest.mark.parametrize(
    "positions",
    [
        pytest.param([Position.from_id(r["id"]) for r in PERFT["positions"][:60]], id="random-games"),
        pytest.param(_synthetic(60, seed=5), id="synthetic"),
    ],
)
def test_plays_and_notation_match_gnu_backgammon(positions: list[Position]) -> None:
    theirs = _gnubg_plays(positions)
    differences = []
    for i, position in enumerate(positions):
        for j, roll in enumerate(ROLLS):
            ours = {str(p) for p in position.legal_plays(roll)}
            if ours != theirs[i * len(ROLLS) + j]:
                differences.append((position.id, roll, ours ^ theirs[i * len(ROLLS) + j]))
    assert not differences, differences[:5]
