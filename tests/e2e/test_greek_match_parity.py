"""The browser's match flow in Plakoto and Fevga (src/table/web/js/engine/match.js, state.js and
graph.js) against Python's ``table.match.Match``, the reference, and against the server's games
(``table.server.play.game``), whose views the device's must equal.

Whole matches and single games are played with seeded random actions and recorded dice; Node
replays them through ``LocalGame`` (js/parity/greekmatch.parity.mjs) with the same dice and must
log the same entries and reach the same state at every step: phase, player on roll, dice, score,
game number, Crawford, Position ID, Match ID and result (the pinned mother's win, a draw), the
view's checkers borne off, pip counts and pinned checkers (seat 0's side), with the board's move
graph giving exactly Python's legal plays; and the browser's JSON record of the match is the one
``Match.to_json`` writes (so ``Match.from_json`` reads it back).  A seeded single game of each is
also played through the server's ``Game`` and replayed by js/parity/match.parity.mjs: the same
entries, per-seat views, IDs and move list.
"""

from __future__ import annotations

import json
import random
from typing import Any

from table.match import (AcceptResignation, Match, Move, NextGame, OpeningRoll, Phase,
                         RejectResignation, Resign, Roll)

from table.server.play.game import GameConfig

from tests.e2e.parity import run_node
from tests.e2e.test_match_parity import ListDice, play_match
from tests.e2e.test_reserve_match_parity import QUIETER


def _state(m: Match) -> dict[str, Any]:
    r = m.game_result if m.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) else None
    plays = sorted({str(p) for p in m.position.legal_plays(m.dice)}) if m.phase == Phase.MOVE and m.dice else None
    seat0 = m.position_for(0)  # what the board shows: seat 0's side
    pinned = list(seat0.board[26:50]) if len(seat0.board) == 50 else None
    return {"variant": m.variant.name, "off": list(seat0.borne_off()), "pips": list(seat0.pip_counts()), "pinned": pinned,
            "phase": m.phase.value, "onRoll": m.on_roll, "dice": list(m.dice) if m.dice else None,
            "score": list(m.score), "gameNumber": m.game_number, "crawford": m.crawford,
            "position": m.position.id, "match": m.match_id, "plays": plays,
            "result": None if r is None else {"winner": r.winner, "points": r.points, "level": r.level,
                                              "how": r.how}}


def play(variant: str, length: int, seed: int, resign: float = 0.004) -> dict[str, Any]:
    """A match (``length`` 0: one money game, which the device calls a single game) of random
    actions, with its dice and each step's action and state."""
    rng = random.Random(seed)
    faces = [rng.randint(1, 6) for _ in range(20000)]
    m = Match(length=length, cube=False, variant=variant, dice=ListDice(faces))
    steps = []
    while len(steps) < 4000:
        phase = m.phase
        if phase == Phase.MATCH_OVER or (length == 0 and phase == Phase.GAME_OVER):
            break
        actor = m.turn
        if phase == Phase.OPENING:
            action: Any = OpeningRoll()
        elif phase == Phase.GAME_OVER:
            action = NextGame()
        elif phase == Phase.RESIGN:
            action = AcceptResignation() if rng.random() < 0.5 else RejectResignation()
        elif rng.random() < resign and "resign" in m.legal_kinds():
            action = Resign(rng.choice((1, 2)))
        elif phase == Phase.ROLL:
            action = Roll()
        else:
            plays = [str(p) for p in m.position.legal_plays(m.dice)]
            action = Move(rng.choice(plays) if plays else "")
        logged = m.apply(action)
        steps.append({"actor": actor, "action": action.to_json(), "logged": logged.to_json(), "state": _state(m)})
    return json.loads(json.dumps({"variant": variant, "length": length, "faces": faces, "steps": steps,
                                  "record": m.to_json()}))


def test_greek_matches_step_for_step(tmp_path):
    # Seeds with every ending between them: bearing off (single and gammon), resignations
    # accepted and refused, the pinned mother's win and drawn Plakoto games.
    matches = [play("plakoto", 0, 0), play("plakoto", 0, 1), play("plakoto", 3, 0),
               play("fevga", 0, 0), play("fevga", 3, 1)]
    hows = {s["state"]["result"]["how"] for m in matches for s in m["steps"] if s["state"]["result"]}
    assert hows >= {"checkers", "resign", "mother", "draw"}, hows
    kinds = {s["action"]["type"] for m in matches for s in m["steps"]}
    assert kinds >= {"opening_roll", "roll", "move", "resign", "accept_resignation", "reject_resignation",
                     "next_game"}, kinds
    # The Greek opening: the opening roll leaves the starter to roll.
    openings = [s["state"] for m in matches for s in m["steps"] if s["action"]["type"] == "opening_roll"]
    assert openings and all(o["phase"] == "roll" and o["dice"] is None for o in openings)
    assert any(not s["action"].get("play", "x") for m in matches for s in m["steps"])  # a roll with no play
    run_node("greekmatch.parity.mjs", {"matches": matches}, tmp_path)


def test_portes_and_the_tavli_match_step_for_step(tmp_path):
    # Portes alone (standard moves, no cube, the Greek opening, a backgammon scored 2) and Tavli
    # matches to 3: Portes, Plakoto, Fevga in turn, the winner of a game starting the next one
    # without an opening roll (seed 1: the winners change), after a draw the dice deciding (seed
    # 12: Plakoto drawn, then Fevga, Portes and Plakoto again).
    matches = [play("portes", 0, 0), play("portes", 3, 2), play("tavli", 3, 1), play("tavli", 3, 12)]
    tavli = [m for m in matches if m["variant"] == "tavli"]
    games = [list(dict.fromkeys((st["state"]["gameNumber"], st["state"]["variant"]) for st in m["steps"]))
             for m in tavli]
    assert games == [[(1, "portes"), (2, "plakoto"), (3, "fevga")],
                     [(1, "portes"), (2, "plakoto"), (3, "fevga"), (4, "portes"), (5, "plakoto")]], games
    # After a game won the next starts with its winner to roll, no opening roll; after a draw, with one.
    draws = 0
    for m in tavli:
        for before, st in zip(m["steps"], m["steps"][1:]):
            if st["action"]["type"] == "next_game":
                result = before["state"]["result"]
                draws += result["how"] == "draw"
                want = ("opening", 0) if result["how"] == "draw" else ("roll", result["winner"])
                assert (st["state"]["phase"], st["state"]["onRoll"], st["state"]["dice"]) == (*want, None)
    assert draws == 1
    starts = [st["state"]["onRoll"] for st in tavli[0]["steps"] if st["action"]["type"] == "next_game"]
    assert len(set(starts)) == 2, starts  # each player starts a game after winning one
    assert all(st["state"]["result"]["level"] < 3 for m in matches for st in m["steps"] if st["state"]["result"])
    run_node("greekmatch.parity.mjs", {"matches": matches}, tmp_path)
    # The browser's JSON records (the Node test writes them) read back in Python to the same state.
    records = json.loads((tmp_path / "browser-records.json").read_text())
    assert len(records) == len(matches)
    for m, record in zip(matches, records):
        back = Match.from_json(record)
        assert (back.kind, back.game_number, back.phase.value, back.match_id, back.position.id, list(back.score)) == \
            (m["variant"], m["steps"][-1]["state"]["gameNumber"], m["steps"][-1]["state"]["phase"],
             m["steps"][-1]["state"]["match"], m["steps"][-1]["state"]["position"], m["steps"][-1]["state"]["score"])


def test_views_as_the_servers(tmp_path):
    # The server plays Plakoto and Fevga too (table.server.play.game with greekview): the device's
    # views (pinned checkers, same-way numbering, graph nodes), IDs and move list equal its views at
    # every step of a seeded single game of each.
    matches = [play_match(GameConfig("local", length=1, cube=False, variant=v), seed, QUIETER)
               for v, seed in (("plakoto", 0), ("fevga", 2))]
    assert all(len(m["steps"]) > 100 for m in matches)
    assert any(st["views"][0].get("pinned") and any(st["views"][0]["pinned"][:2]) for st in matches[0]["steps"])
    run_node("match.parity.mjs", {"matches": matches}, tmp_path)
