"""The browser engine (src/table/web/js/engine) against the Python engine, the reference.

Each test computes the expected answers in Python, writes them into ``tmp_path`` and runs a Node
test that must reproduce them exactly.
"""

from __future__ import annotations

import random

import numpy as np

from table.notation.matchid import GameState, MatchInfo, encode_match_id
from table.rules import kernel
from table.rules.posid import decode_position_id, encode_position_id

from tests.e2e.parity import kernel_plays, perft_ids, random_boards, run_node


def _plays_fixture(ids: list[str]) -> list[dict[str, object]]:
    rows = []
    for pid in ids:
        board = np.array(decode_position_id(pid), dtype=np.int8)
        rows.append({"id": pid, "rolls": [kernel_plays(board, int(d1), int(d2)) for d1, d2 in kernel.ROLLS]})
    return rows


def test_legal_plays_match_python_on_the_perft_positions(tmp_path):
    # 300 positions x 21 rolls: the same plays (as Position IDs), in the same order, same steps.
    rows = _plays_fixture(perft_ids())
    assert len(rows) == 300
    run_node("rules.parity.mjs", {"positions": rows}, tmp_path)


def test_legal_plays_match_python_on_random_positions(tmp_path):
    boards = random_boards(3000, seed=12)
    rng = random.Random(5)
    rows = []
    for board in boards:
        d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        rows.append({"id": encode_position_id(tuple(int(v) for v in board)), "dice": [d1, d2],
                     "plays": kernel_plays(board, d1, d2)})
    # Every kind of position turns up: bar entries, bear-offs, and rolls that cannot be played.
    assert any(board[25] > 0 for board in boards) and any(all(board[7:26] <= 0) for board in boards)
    assert any(not row["plays"] for row in rows)
    run_node("random.parity.mjs", {"positions": rows}, tmp_path)


def test_match_ids_match_python(tmp_path):
    rng = random.Random(7)
    rows = []
    while len(rows) < 500:
        length = rng.choice([0, 1, 3, 5, 7, 25, 32767])
        score = (rng.randint(0, max(0, length - 1)), rng.randint(0, max(0, length - 1)))
        crawford = bool(length) and max(score) == length - 1 and rng.random() < 0.5
        offered = not crawford and rng.random() < 0.2
        on_roll = rng.randint(0, 1)
        cube = 1 if crawford else 1 << rng.randint(0, 15)
        owner = None if cube == 1 or offered and rng.random() < 0.5 else rng.randint(0, 1)
        dice = (0, 0) if offered or rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
        info = MatchInfo(cube_value=cube, cube_owner=owner, player_on_roll=on_roll, crawford=crawford,
                         game_state=GameState.PLAYING, turn=1 - on_roll if offered else on_roll,
                         double_offered=offered, resignation=0 if offered else rng.randint(0, 3),
                         dice=dice, match_length=length, score=score)
        rows.append({"id": encode_match_id(info), "info": {
            "cubeValue": cube, "cubeOwner": owner, "playerOnRoll": on_roll, "crawford": crawford,
            "gameState": int(info.game_state), "turn": info.turn, "doubleOffered": offered,
            "resignation": info.resignation, "dice": list(dice), "matchLength": length, "score": list(score)}})
    run_node("ids.parity.mjs", {"matches": rows}, tmp_path)
