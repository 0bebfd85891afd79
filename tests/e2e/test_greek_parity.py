"""The browser engine's Plakoto and Fevga (engine/greek.js, engine/greekkernel.js) against the
Python engine, the reference.

The perft counts come from tests/fixtures/greek-perft.json (written from a naive oracle, not from
either engine); everything else is computed here by Python and written into ``tmp_path`` for
tests/e2e/js/parity/greek.parity.mjs, which must reproduce it exactly.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from table import Position
from table.errors import TableError
from table.rules.greek import game_for
from table.rules.greekkernel import (FEVGA, FEVGA_SIZE, PINS, PLAKOTO, PLAKOTO_SIZE, Outputs, generate_greek,
                                     rotated)
from table.rules.variant import ENGINE_ONLY, NO_CAPTURE, PIN, ROTATE, VARIANTS, find_variant

from tests.e2e.parity import run_node
from tests.e2e.test_reserve_parity import _id_from_counts as _id  # an ID from raw counts

PERFT = Path(__file__).resolve().parents[1] / "fixtures" / "greek-perft.json"
GAMES = ("plakoto", "fevga")
_ROTATED = rotated.py_func


def game_positions(count: int, seed: int, variant: str) -> list[Position]:
    """Positions met in seeded random games (each from the player on roll); a finished game is
    kept and a new one started.  The games are walked on the raw boards of the generator that
    ``Position.legal_plays`` reads (quicker than building every play)."""
    rng = random.Random(seed)
    game = game_for(find_variant(variant).rules)
    assert game is not None
    start = Position.initial(variant).board
    board, out = start, []
    while len(out) < count:
        plays = game.plays(board, rng.randint(1, 6), rng.randint(1, 6))
        board = game.turned(plays[rng.randrange(len(plays))][1] if plays else board)
        position = Position(board, variant)
        out.append(position)
        if position.is_game_over:
            board = start
    return out


def _spread(rng: random.Random, n: int, points: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for _ in range(n):
        p = rng.choice(points)
        out[p] = out.get(p, 0) + 1
    return out


def scattered_plakoto(rng: random.Random) -> Position:
    """Each side's checkers anywhere (the home board, the far side, the start point), then pins:
    a checker of one side put under the other's, mothers included; finished games too."""
    board = [0] * 50
    taken: set[int] = set()
    for side in (1, -1):
        left = 0 if rng.random() < 0.03 else 15 - rng.choice([0, 0, 0, 2, rng.randint(1, 14)])
        low, high = rng.choice([(1, 24), (1, 24), (1, 6), (7, 24), (13, 24), (19, 24)])
        free = [p for p in range(1, 25) if (p if side == 1 else 25 - p) not in taken]
        points = [p for p in free if low <= p <= high] or free
        for p, n in _spread(rng, left, points).items():
            index = p if side == 1 else 25 - p
            board[index] = side * n
            taken.add(index)
    for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
        side = rng.choice((1, -1))  # whose checker gets pinned
        mother = rng.random() < 0.3
        tops = [i for i in range(1, 25) if board[i] * side < 0 and not board[PINS + i]]
        if mother and board[24 if side == 1 else 1] * side < 0 and not board[PINS + (24 if side == 1 else 1)]:
            tops = [24 if side == 1 else 1]
        donors = [i for i in range(1, 25) if board[i] * side > 0 and (abs(board[i]) > 1 or not board[PINS + i])]
        if not tops or not donors:
            continue
        donor, top = rng.choice(donors), rng.choice(tops)
        board[donor] -= side
        board[PINS + top] = side
    return Position(board, "plakoto")


def scattered_fevga(rng: random.Random) -> Position:
    """Each side's checkers anywhere on points the other does not hold, with shapes that reach
    the three rules: one checker away from the 24-point, the starting quarter nearly full, and
    primes with every opposing checker on the point behind them."""
    board = [0] * 26
    kind = rng.choice(["any", "any", "first", "quarter", "prime"])

    def put(side: int, placed: dict[int, int]) -> None:
        for q, n in placed.items():
            index = q if side == 1 else _ROTATED(q)
            if n and board[index] * side >= 0:
                board[index] += side * n

    def free(side: int) -> list[int]:
        return [q for q in range(1, 25) if board[q if side == 1 else _ROTATED(q)] * side >= 0]

    if kind == "prime":
        q = rng.randint(7, 24)  # the opponent's point, its own numbering
        wall = [_ROTATED(r) for r in range(q - 6, q)]  # the mover's numbers of the six in front
        board[_ROTATED(q)] = -rng.choice([1, 2, 3, rng.randint(1, 15)])
        missing = rng.sample(wall, rng.choice([1, 1, 1, 0, 2]))  # points of the prime still open
        for p in wall:
            if p not in missing:
                board[p] = rng.randint(1, 2)
        left = 15 - sum(board[p] for p in wall)
        # Runners a die's reach behind an open point (the mover counts down), the rest anywhere.
        behind = [m + d for m in missing for d in range(1, 7) if m + d <= 24 and board[m + d] >= 0]
        runners = min(left, rng.randint(1, 3)) if behind else 0
        put(1, _spread(rng, runners, behind))
        put(1, _spread(rng, max(left - runners - rng.choice([0, 0, 2]), 0),
                       [p for p in free(1) if p not in missing]))
    else:
        for side in (1, -1):
            left = 0 if rng.random() < 0.03 else 15 - rng.choice([0, 0, 0, 2, rng.randint(1, 14)])
            if side == 1 and kind == "first" and left:
                board[24] = left - 1
                put(1, _spread(rng, 1, [q for q in free(1) if 12 <= q <= 23] or free(1)))
                continue
            if side == 1 and kind == "quarter":
                held = rng.sample([q for q in range(19, 25) if q in free(1)], min(5, len(free(1))))
                put(1, {q: 1 for q in held})
                left -= len(held)
            low, high = rng.choice([(1, 24), (1, 24), (1, 6), (7, 24), (13, 24), (1, 12)])
            points = [q for q in free(side) if low <= q <= high] or free(side)
            put(side, _spread(rng, max(left, 0), points))
    return Position(board, "fevga")


SCATTER = {"plakoto": scattered_plakoto, "fevga": scattered_fevga}


_OUT = {name: Outputs(size) for name, size in (("plakoto", PLAKOTO_SIZE), ("fevga", FEVGA_SIZE))}


def plays_of(position: Position, dice: tuple[int, int], api: bool) -> dict[str, Any]:
    """The plays in ``Position.legal_plays``'s order.  "plays": the generator's, read straight
    from its arrays (the mover's board after each as hex, each entry + 16 a byte; its steps;
    which steps pinned); "api", where ``api``: each ``Play``'s next position's ID and its text
    (the slow part)."""
    name = position.variant.name
    out = _OUT[name]
    n = 0 if position.is_game_over else generate_greek(
        np.array(position.board, dtype=np.int8), dice[0], dice[1], FEVGA if name == "fevga" else PLAKOTO,
        out.hashes, out.boards, out.steps, out.nsteps, out.hits)
    assert n >= 0
    boards = (out.boards[:n].astype(np.int16) + 16).astype(np.uint8)
    steps, nsteps, hits = out.steps[:n].tolist(), out.nsteps[:n].tolist(), out.hits[:n].tolist()
    found: dict[str, Any] = {"plays": [[boards[k].tobytes().hex(), steps[k][:nsteps[k]], hits[k][:nsteps[k]]]
                                       for k in range(n)], "api": None}
    if api:
        plays = position.legal_plays(dice)
        assert [[list(s) for s in p.steps] for p in plays] == [row[1] for row in found["plays"]]
        found["api"] = [[play.position.id, str(play)] for play in plays]
    return found


def _outcome(fn: Any) -> dict[str, Any]:
    try:
        return {"value": fn()}
    except TableError as exc:
        return {"error": type(exc).__name__, "message": str(exc)}


@pytest.mark.parametrize("variant", GAMES)
def test_perft_counts_of_the_fixture(variant, tmp_path):
    # Every row of the game: plays per roll of the 21, and the leaves of its game tree.
    run_node("greek.parity.mjs", {"perft": {"file": str(PERFT), "variant": variant}}, tmp_path)


@pytest.mark.parametrize("variant", GAMES)
def test_plays_match_python_on_random_positions(variant, tmp_path):
    seed = 60 + GAMES.index(variant)
    rng = random.Random(seed)
    positions = game_positions(1000, seed, variant) + [SCATTER[variant](rng) for _ in range(1000)]
    rows = []
    for k, p in enumerate(positions):
        dice = (rng.randint(1, 6), rng.randint(1, 6))  # in either order, as legal_plays takes them
        rows.append({"id": p.id, "board": list(p.board), "dice": list(dice), **plays_of(p, dice, k % 5 == 0),
                     "result": p.result(), "over": p.is_game_over, "borneOff": list(p.borne_off()),
                     "pips": list(p.pip_counts()), "race": p.is_race(),
                     "checkers": [sorted(p.checkers().items()), sorted(p.checkers(mover=False).items())]})
    boards = [r["board"] for r in rows]
    # Every kind of position turns up: rolls with no play, finished games, bearing off.
    assert sum(not r["plays"] for r in rows if not r["over"]) >= 30
    assert sum(r["over"] for r in rows) >= 20
    assert sum(any(s[1] == 0 for _, steps, _ in r["plays"] for s in steps) for r in rows) >= 100
    assert sum(len(r["api"]) for r in rows if r["api"]) >= 5000
    if variant == "plakoto":
        assert sum(any(b[PINS + i] for i in range(1, 25)) for b in boards) >= 1000
        assert sum(any(hits) for r in rows for _, _, hits in r["plays"]) >= 10000
        assert sum("*" in text for r in rows for _, text in r["api"] or []) >= 1000
        # Pinned mothers: games lost (+-2) and drawn.
        assert sum(r["over"] and r["result"] == 0 for r in rows) >= 5
        assert sum(r["over"] and abs(r["result"]) == 2 and min(r["borneOff"]) == 0 for r in rows) >= 5
        assert sum(b[PINS + 24] > 0 or b[PINS + 1] < 0 for b in boards) >= 30
    else:
        # The first checker still short of the 11-point, the starting quarter one point short of
        # full, a prime one step from trapping every opposing checker.
        first = [b for b in boards if b[24] > 0 and sum(n for n in b if n > 0) == 15
                 and not any(b[q] > 0 for q in range(1, 12)) and any(b[q] > 0 for q in range(12, 24))]
        assert len(first) >= 100
        assert sum(sum(b[q] > 0 for q in range(19, 25)) == 5 for b in boards) >= 100
        assert sum(_one_step_from_trap(r["board"], r["dice"]) for r in rows if r["plays"]) >= 50
    run_node("greek.parity.mjs", {"positions": {"variant": variant, "rows": rows}}, tmp_path)


def _one_step_from_trap(board: list[int], dice: list[int]) -> bool:
    """Fevga: every opposing checker on one point (its 7-point or further), the mover holding five
    of the six points in front of it, and a checker one die away from the sixth."""
    theirs = [p for p in range(1, 25) if board[p] < 0]
    if len(theirs) != 1 or _ROTATED(theirs[0]) < 7:
        return False
    q = _ROTATED(theirs[0])
    open_ = [_ROTATED(r) for r in range(q - 6, q) if board[_ROTATED(r)] <= 0]
    return len(open_) == 1 and any(open_[0] + d <= 24 and board[open_[0] + d] > 0 for d in dice)


def test_ids_round_trip_and_bad_ids_are_refused_as_python(tmp_path):
    rng = random.Random(62)
    good = {name: [p.id for p in game_positions(200, 62, name)] + [SCATTER[name](rng).id for _ in range(300)]
            for name in GAMES}
    good["plakoto"] += [" AACA/z8AAID/Pw ", "EAAA/z8AAID/Hw:20:", "EAAA/z8AAID/Hw:1:"]
    good["fevga"] += [" AACA/z8AAID/Pw\n", "AAAAAAAAAAAAAA", "4HPwATDgc/ABMA"]
    bad = {
        "plakoto": ["", "AACA/z8AAID/Pw:", "AACA/z8AAID/Pw::", "AACA/z8AAID/Pw:1:2:3", "AACA/z8AAID/Pw:x:",
                    "EAAA/z8AAID/Hw:20,20:", "EAAA/z8AAID/Hw:0:", "EAAA/z8AAID/Hw:25:", "EAAA/z8AAID/Hw:99:",
                    "EAAA/z8AAID/Hw::20", "EAAA/z8AAID/Hw:20:5", "EAAA/z8AAID/Hw:20,:",
                    "EAAA/z8AAID/Hw:100:", "EAAA/z8AAID/Hw:020:", "EAAA/z8AAID/Hw:20\n:", "AACA/z8AAID/Pw:\n:5",
                    "AACA/z8AAID/Pw:24:", "AAAAAAAAAAAAAA:15:15",
                    "AACA/z8AAID/P!", "it's", "//////////////", "AACA/z8AAID/Pw x", 15, None],
        "fevga": ["", "AACA/z8AAID/Pw:", "AACA/z8AAID/P!", " it's\t", "//////////////",
                  "AAAAAAAAAAAAAA:15:15", 15, None, [1]],
    }
    # Plakoto: checkers on the bar; 16 with the pinned one.
    bad["plakoto"] += [_id({25: 1}, {}), _id({20: 1}, {13: 15}) + ":5:"]
    # Fevga: a point both sides hold (the mover's 24 is the opponent's 12), checkers on the bar
    # (as written and padded), 16 checkers, stray bits after both sides.
    bad["fevga"] += [_id({12: 2}, {24: 3}), _id({}, {25: 1}), f" {_id({25: 1}, {})} ", _id({3: 16}, {}),
                     _id({}, {1: 15}, stray=1 << 70)]
    rows: dict[str, Any] = {"good": {}, "bad": {}}
    for name in GAMES:
        rows["good"][name] = [[t, list(Position.from_id(t, name).board), Position.from_id(t, name).id]
                              for t in good[name]]
        refusals = []
        for text in bad[name]:
            refusal = _outcome(lambda: Position.from_id(text, name).board)  # type: ignore[arg-type]
            assert refusal.get("error") == "PositionIdError", (name, text, refusal)
            refusals.append([text, refusal["message"]])
        rows["bad"][name] = refusals
    messages = " ".join(m for name in GAMES for _, m in rows["bad"][name])
    for words in ("on the bar", "both sides", "stray bits", "pins two", "no opposing checker", "cannot have",
                  "lists no pinned", "not numbers", "is not a Plakoto Position ID", "with the pinned ones"):
        assert words in messages, words
    run_node("greek.parity.mjs", {"ids": rows}, tmp_path)


def test_the_variants_name_the_games_as_python_does(tmp_path):
    variants = [{"name": v.name, "game": (game_for(v.rules).name if game_for(v.rules) else None),
                 "board": list(Position.initial(v).board), "id": Position.initial(v).id}
                for v in (*VARIANTS.values(), *ENGINE_ONLY.values())]
    assert sorted(v["game"] for v in variants if v["game"]) == ["Fevga", "Plakoto"]
    run_node("greek.parity.mjs", {"variants": {"rows": variants, "PIN": PIN, "NO_CAPTURE": NO_CAPTURE,
                                               "ROTATE": ROTATE}}, tmp_path)
