"""The browser engine's Race, Dutch and Acey-Deucey (engine/reserve.js, engine/aceydeucey.js)
against the Python engine, the reference.

The perft counts come from tests/fixtures/variants-perft.json (written from a naive oracle, not
from either engine); everything else is computed here by Python and written into ``tmp_path`` for
tests/e2e/js/parity/reserve.parity.mjs, which must reproduce it exactly.
"""

from __future__ import annotations

import base64
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from table import Position
from table.errors import TableError
from table.rules import aceydeucey
from table.rules.posid import decode_position_id
from table.rules.reserve import decode_reserve_id, encode_reserve_id, parse_reserve_text
from table.rules.variant import ENGINE_ONLY, VARIANTS

from tests.e2e.parity import reserve_game_positions, reserve_plays, run_node, scattered_reserve_position

PERFT = Path(__file__).resolve().parents[1] / "fixtures" / "variants-perft.json"
NAMES = [name for name, v in VARIANTS.items() if v.entry == "reserve"]  # Race, Dutch, Acey-Deucey


def _outcome(fn: Callable[[], Any]) -> dict[str, Any]:
    """What the Node test compares: the value, or the refusal's class name and message."""
    try:
        return {"value": fn()}
    except TableError as exc:
        return {"error": type(exc).__name__, "message": str(exc)}


def _positions(variant: str, seed: int) -> list[Position]:
    rng = random.Random(seed)
    return (reserve_game_positions(1200, seed, variant)
            + [scattered_reserve_position(rng, variant) for _ in range(800)])


@pytest.mark.parametrize("variant", NAMES)
def test_perft_counts_of_the_fixture(variant, tmp_path):
    # Every row of the variant: plays per roll of the 21, and the leaves of its game tree.
    run_node("reserve.parity.mjs", {"perft": {"file": str(PERFT), "variant": variant}}, tmp_path)


@pytest.mark.parametrize("variant", NAMES)
def test_plays_match_python_on_random_positions(variant, tmp_path):
    rng = random.Random(50)
    rows = []
    for k, p in enumerate(_positions(variant, 50 + NAMES.index(variant))):
        dice = (rng.randint(1, 6), rng.randint(1, 6))  # in either order, as legal_plays takes them
        # Every play's board and steps; the text of every fourth position's plays (the slow part).
        plays = reserve_plays(p, dice, text=k % 4 == 0)
        row = {"id": p.id, "dice": list(dice), "plays": plays, "result": p.result(),
               "borneOff": list(p.borne_off())}
        if variant == "acey-deucey":
            row["gameValue"] = aceydeucey.game_value(p)
        rows.append(row)
    boards = [decode_reserve_id(r["id"]) for r in rows]
    # Every kind of position turns up: checkers waiting and on the bar at once, bearing off,
    # finished games, rolls with no legal play, and hits.
    assert sum(b[25] > 0 and b[26] > 0 for b in boards) >= 30
    assert sum(max(b[7:27]) <= 0 < max(b[1:7]) for b in boards) >= 50
    assert sum(not r["plays"] for r in rows) >= 30 and sum(r["result"] != 0 for r in rows) >= 10
    assert sum("*" in (text or "") for r in rows for _, _, text in r["plays"]) >= 300
    if variant == "dutch":
        # Blots that a side with no checker home may not hit: Race's rules would hit them.
        barred = [b for b in boards if max(b[1:7]) <= 0 and b[26] == 0
                  and any("*" in str(q) for q in Position(b, "race").legal_plays((6, 5)))
                  and not any("*" in str(q) for q in Position(b, "dutch").legal_plays((6, 5)))]
        assert len(barred) >= 20
    run_node("reserve.parity.mjs", {"positions": {"variant": variant, "rows": rows}}, tmp_path)


def test_acey_deucey_staged_turn_matches_python(tmp_path):
    rng = random.Random(51)
    rows = []
    for p in _positions("acey-deucey", 51)[::20]:
        dice = rng.choice([(1, 2), (2, 1)])
        double = rng.randint(1, 6)
        plays = p.legal_plays(dice)
        rows.append({
            "id": p.id, "dice": list(dice), "double": double,
            "canPlayBoth": aceydeucey.can_play_both(p),
            "first": [[aceydeucey.played_both(q), aceydeucey.still_on_roll(q).id] for q in plays],
            # The double after the first and the last play of the 1-2 (every one would be slow).
            "second": [[[d.position.swapped().id, aceydeucey.double_played_in_full(d)]
                        for d in aceydeucey.still_on_roll(q).legal_plays((double, double))]
                       for q in plays[:1] + plays[1:][-1:]],
        })
    assert {r["canPlayBoth"] for r in rows} == {True, False}
    assert {f for r in rows for s in r["second"] for _, f in s} == {True, False}
    refusals = {}
    for name in ("race", "dutch"):
        refusal = _outcome(lambda: aceydeucey.can_play_both(Position.initial(name)))
        assert refusal.get("error") == "VariantError"
        refusals[name] = refusal["message"]
    run_node("reserve.parity.mjs", {"staged": {"rows": rows, "refusals": refusals}}, tmp_path)


def _id_from_counts(opponent: dict[int, int], mover: dict[int, int], stray: int = 0) -> str:
    """A Position ID written bit by bit from each side's counts by its own points (25 = bar),
    whatever they are, and ``stray`` bits after them: for IDs that no board has."""
    bits = []
    for side in (opponent, mover):
        for point in range(1, 26):
            bits += [1] * side.get(point, 0) + [0]
    key = sum(bit << i for i, bit in enumerate(bits)) | stray
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii").rstrip("=")


def test_ids_round_trip_and_bad_ids_are_refused_as_python(tmp_path):
    rng = random.Random(52)
    good = [p.id for name in NAMES for p in reserve_game_positions(100, 52, name)]
    good += [scattered_reserve_position(rng, "race").id for _ in range(300)]
    good += ["AAAAAAAAAAAAAA:15:15", " AAAAAAAAAAAAAA:15:15 ", "AAAAAAAAAAAAAA:0:0", "AAAAAAAAAAAAAA:07:15"]
    both = _id_from_counts({1: 1}, {24: 1})  # each side a checker on the same point
    stray = _id_from_counts({}, {}, stray=1 << 60)
    bad_plain = ["", "AAAAAAAAAAAAA", "AAAAAAAAAAAAAA=", "AAAAAAAAAAAAA!", "it's a test", "//////////////",
                 both, stray, _id_from_counts({6: 16}, {}), _id_from_counts({}, {1: 9, 25: 7})]
    bad = [*(f"{t}:1:1" for t in bad_plain), "", "AAAAAAAAAAAAAA", "AAAAAAAAAAAAAA:15", "AAAAAAAAAAAAAA:16:15",
           "AAAAAAAAAAAAAA:15:16", "AAAAAAAAAAAAAA:100:1", "AAAAAAAAAAAAAA:-1:1", "AAAAAAAAAAAAAA:1:1:1",
           "4HPwATDgc/ABMA:1:0", "4HPwATDgc/ABMA:0:1", "4HPwATDgc/ABMA:0:0 x", 'say "it\'s"', "a\tb\\c:1",
           "AAAAAAAAAAAAAA: 1:1", 15, None, [1, 2]]
    rows_bad = []
    for text in bad:
        refusal = _outcome(lambda: decode_reserve_id(text))  # type: ignore[arg-type]
        assert refusal.get("error") == "PositionIdError", text
        rows_bad.append([text, refusal["message"]])
    rows_plain = []
    for text in [*bad_plain, 7]:
        refusal = _outcome(lambda: decode_position_id(text))  # type: ignore[arg-type]
        assert refusal.get("error") == "PositionIdError", text
        rows_plain.append([text, refusal["message"]])
    assert any("stray bits" in m for _, m in rows_plain) and any("both sides" in m for _, m in rows_plain)
    ids = {"good": [[t, list(decode_reserve_id(t)), encode_reserve_id(decode_reserve_id(t))] for t in good], "bad": rows_bad, "badPlain": rows_plain}
    run_node("reserve.parity.mjs", {"ids": ids}, tmp_path)


def test_notation_reads_as_python(tmp_path):
    rng = random.Random(53)
    texts = {text for name in NAMES for p in reserve_game_positions(150, 53, name)
             for _, _, text in reserve_plays(p, (rng.randint(1, 6), rng.randint(1, 6)))}
    texts = sorted(texts)
    assert any("in/" in t and "*" in t for t in texts) and any("(" in t for t in texts)
    texts += ["in/22 bar/20*", "IN/22(2), 13/7*/5", "in/18*/14", "in/b", "in/off", "in/", "in", "in/26",
              "in/22*(2)", "in/22(5)", "in/22(0)", "in/22(00)", "in/0", "in/100", "in/22 in/", "bar/in",
              "  ", "", "in/22,,in/20", "24/18 13/10", "in/22/22", "in//22", "in/22()", "in/2x", "in/it's",
              "6/off 5/o", "in/22 off/1", "in/99", "30/20", "13*/7", 5, None]
    rows = [[t, _outcome(lambda: [list(s) for s in parse_reserve_text(t)])] for t in texts]  # type: ignore[arg-type]
    assert sum("error" in r[1] for r in rows) >= 15
    run_node("reserve.parity.mjs", {"notation": rows}, tmp_path)


def test_the_reserve_variants_are_offered_and_the_engine_only_ones_are_not(tmp_path):
    def row(v):
        return {"name": v.name, "board": list(Position.initial(v).board), "id": Position.initial(v).id,
                "title": v.title, "flags": [v.rules.reserve_first, v.rules.hit_needs_home, v.rules.bar_first],
                "cube": v.cube, "turnFlow": v.turn_flow, "checkers": v.checkers, "entry": v.entry}

    offered = [row(VARIANTS[name]) for name in NAMES]
    assert [r["id"] for r in offered] == ["AAAAAAAAAAAAAA:15:15"] * 3
    run_node("reserve.parity.mjs", {"offered": offered, "engineOnly": [row(v) for v in ENGINE_ONLY.values()]},
             tmp_path)
