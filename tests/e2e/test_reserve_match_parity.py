"""The browser's match flow in Race, Dutch and Acey-Deucey (checkers start off the board) against
the server's, the reference: src/table/web/js/engine/match.js and state.js.

Whole matches are played through ``table.server.play.game.Game`` with seeded random actions
(Acey-Deucey's named doubles among them) and recorded dice; Node replays them
(js/parity/match.parity.mjs) and must give the same log entries, per-seat views (``waiting``,
Acey-Deucey's ``stage``, the move graph with steps from 26), IDs (the extended Position ID) and
move list at every step.
"""

from __future__ import annotations

import random
from typing import Any

from table.rules.movegraph import move_graph
from table.server.play.game import GameConfig

from tests.e2e.parity import reserve_game_positions, run_node
from tests.e2e.test_match_parity import WEIGHTS, play_match

# Resignations rarer than in standard matches: these games are long when played at random.
QUIETER = {**WEIGHTS, "move": 30, "double": 2, "resign": 0.08}


def test_reserve_matches_step_for_step(tmp_path):
    # Seeds picked for short matches that between them walk every path (resignations accepted
    # and refused, drops, several games; Acey-Deucey games won by checkers and by resignation).
    configs = [(GameConfig("local", length=3, cube=False, variant="race"), 2),
               (GameConfig("local", length=3, variant="dutch"), 0),
               (GameConfig("local", length=1, cube=False, variant="acey-deucey"), 5),
               (GameConfig("local", length=5, cube=False, variant="acey-deucey"), 5)]
    matches = [play_match(c, seed, QUIETER) for c, seed in configs]
    kinds = {s["entry"]["type"] for m in matches for s in m["steps"]}
    assert kinds >= {"opening_roll", "roll", "move", "name_double", "double", "take", "drop", "resign",
                     "accept_resignation", "reject_resignation", "next_game"}, kinds
    # Every stage of Acey-Deucey's 1-2 turn is met, and entering steps from 26.
    stages = {s["views"][0]["stage"] for m in matches[2:] for s in m["steps"]}
    assert stages >= {None, "one_two", "name_double", "named_double", "extra_roll"}, stages
    assert any(st[0] == 26 for m in matches for s in m["steps"] if s["entry"]["type"] == "move"
               for st in s["views"][0]["last"]["steps"])
    # Acey-Deucey pays per checker: some game is worth more than a backgammon.
    assert any(r["kind"] == "result" and r["points"] > 3 for m in matches[2:] for r in m["moves"])
    run_node("match.parity.mjs", {"matches": matches}, tmp_path)


def test_move_graphs_node_for_node(tmp_path):
    # The board's move graph (engine/graph.js) on positions of seeded games of each variant, with
    # random rolls (doubles among them): the server's (table.rules.movegraph), node for node.
    rng = random.Random(52)
    graphs: list[dict[str, Any]] = []
    for name in ("race", "dutch", "acey-deucey"):
        for position in reserve_game_positions(300, 60 + len(name), name)[::3]:
            dice = (rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.8 else (rng.randint(1, 6),) * 2
            g = move_graph(position, dice)
            graphs.append({"variant": name, "id": position.id, "dice": list(dice), "depth": g.depth,
                           "nodes": [[[s, d, die, int(hit), c] for s, d, die, hit, c in edges] for edges in g.nodes],
                           "finals": {str(k): v for k, v in g.finals.items()}, "plays": [str(p) for p in g.plays]})
    assert any(e[0] == 26 for g in graphs for edges in g["nodes"] for e in edges)
    assert sum(g["depth"] == 4 for g in graphs) >= 20 and sum(not g["plays"] for g in graphs) >= 1
    run_node("reservegraph.parity.mjs", {"graphs": graphs}, tmp_path)
