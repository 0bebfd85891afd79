"""The browser engine (src/table/web/js/engine) against the Python engine, the reference.

Each test computes the expected answers in Python, writes them into ``tmp_path`` and runs a Node
test that must reproduce them exactly.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from table import Position
from table.errors import VariantError
from table.bot.bot import LEVELS
from table.notation.matchid import GameState, MatchInfo, encode_match_id
from table.rules import kernel
from table.rules.posid import decode_position_id, encode_position_id
from table.rules.variant import VARIANTS, find_variant
from table.server.play.game import MATCH_LENGTHS

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


def _found(name: str) -> object:
    try:
        return find_variant(name)
    except VariantError:
        return None  # a title that is no record's name ("Backgammon Race")


def test_variants_match_python(tmp_path):
    # The browser's variant table (generated JSON) gives Python's start boards and Position IDs,
    # record names, scoring and refusals; the expected values come from Position and find_variant.
    rows = []
    for name, v in VARIANTS.items():
        start = Position.initial(name)
        aliases = [n for n in (v.name, v.name.upper(), v.mat_name, v.sgf_name, f" {v.title} ") if n
                   and _found(n) is v]
        rows.append({"name": name, "board": list(start.board), "id": start.id, "title": v.title,
                     "scoring": list(v.scoring), "checkers": v.checkers, "mat": v.mat_name,
                     "sgf": v.sgf_name, "aliases": aliases})
    assert {r["id"] for r in rows} >= {"4HPwATDgc/ABMA", "4Dl4ADbgOXgANg"}
    unknown = ["grasshopper", "", "nack gammon"]
    refusals = {}
    for name in unknown:
        with pytest.raises(VariantError) as exc:
            find_variant(name)
        refusals[name] = str(exc.value)
    run_node("variants.parity.mjs", {"variants": rows, "unknown": unknown, "refusals": refusals,
                                     "levels": list(LEVELS), "matchLengths": list(MATCH_LENGTHS)}, tmp_path)


def test_nackgammon_plays_match_python(tmp_path):
    # Nackgammon's start with all 21 rolls, then positions of random Nackgammon games: the same
    # plays in the same order with the same steps.
    start = np.array(Position.initial("nackgammon").board, dtype=np.int8)
    rows = [{"id": encode_position_id(tuple(int(v) for v in start)), "dice": [int(d1), int(d2)],
             "plays": kernel_plays(start, int(d1), int(d2))} for d1, d2 in kernel.ROLLS]
    boards = random_boards(1500, seed=49, variant="nackgammon")
    rng = random.Random(49)
    for board in boards:
        d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        rows.append({"id": encode_position_id(tuple(int(v) for v in board)), "dice": [d1, d2],
                     "plays": kernel_plays(board, d1, d2)})
    # The random games start from Nackgammon's position, not standard backgammon's.
    assert encode_position_id(tuple(int(v) for v in boards[0])) != Position.initial().id
    assert any(board[23] != 0 for board in boards[:4])
    assert any(board[25] > 0 for board in boards) and any(not row["plays"] for row in rows)
    run_node("random.parity.mjs", {"positions": rows}, tmp_path)
