"""The browser's match flow (src/table/web/js/engine/match.js) against the server's, the reference.

Whole matches are played through ``table.server.play.game.Game`` with seeded random actions and
recorded dice; the Node test replays the same actions with the same dice and must produce the
same log entries, the same per-seat views (board, dice, cube, score, Crawford, results, the
actions offered and the move graph) and the same GNU Backgammon IDs at every step, then the same
move list and .mat record.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import numpy as np

from table import Position
from table.bot import bearoff, cube, met
from table.match import Phase
from table.server.play.computer import choose_action
from table.server.learn.routes import hint_for
from table.server.play.game import Game, GameConfig

from tests.e2e.parity import run_node

SEATS = (frozenset({0, 1}), frozenset({0}), frozenset({1}))


class ListDice:
    """Dice from a fixed list, so that the browser's engine can roll the very same ones."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.i = 0

    def roll_die(self) -> int:
        self.i += 1
        return self.faces[self.i - 1]


# Mostly play on; now and then the cube and resignations, so every path is walked.
WEIGHTS = {"move": 20, "roll": 12, "double": 3, "take": 3, "drop": 1, "resign": 1,
           "accept_resignation": 1, "reject_resignation": 2, "next_game": 1, "name_double": 5}


def _choose(view: dict[str, Any], rng: random.Random, weights: dict[str, float] = WEIGHTS) -> dict[str, Any]:
    kinds = view["actions"]
    kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
    if kind == "move":
        graph, node, steps = view["moves"], 0, []
        while str(node) not in graph["finals"]:
            edge = rng.choice(graph["nodes"][node])
            steps.append([edge[0], edge[1]])
            node = edge[4]
        return {"type": "move", "steps": steps}
    if kind == "resign":  # Acey-Deucey has no gammons: a resignation gives up a single game
        return {"type": "resign", "level": 1 if view.get("stage", False) is not False else rng.randint(1, 3)}
    if kind == "name_double":  # Acey-Deucey, after a 1-2
        return {"type": "name_double", "number": rng.randint(1, 6)}
    return {"type": kind}


def play_match(config: GameConfig, seed: int, weights: dict[str, float] = WEIGHTS) -> dict[str, Any]:
    """A whole match of random actions and its record; ``mat`` where GNU Backgammon has the variant."""
    rng = random.Random(seed)
    faces = [rng.randint(1, 6) for _ in range(20000)]
    game = Game(config, ListDice(faces))
    steps = []
    while not game.is_over and len(steps) < 3000:
        auto = game.automatic()
        if auto is not None:
            action, seats = auto.to_json(), None
            entry = game.apply_automatic(auto)
        else:
            who = game.to_act
            seats = [0, 1] if who is None else [who]
            action = _choose(game.view(frozenset(seats)), rng, weights)
            entry = game.act(frozenset(seats), action)
        steps.append({"seats": seats, "action": action, "entry": entry,
                      "views": [game.view(s) for s in SEATS],
                      "ids": {"position": game.match.position.id, "match": game.match.match_id}})
    assert game.is_over
    return json.loads(json.dumps({
        "config": {"mode": config.mode, "length": config.length, "cube": config.cube, "variant": config.variant},
        "faces": faces, "steps": steps, "moves": game.moves,
        **({"mat": game.match.to_mat()} if game.match.variant.mat_name else {})}))


def replayed(config: GameConfig, match: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any], Game]]:
    """Each step of a match ``play_match`` recorded, with the game as it stands before it; the
    step is applied when the caller asks for the next."""
    game = Game(config, ListDice(match["faces"]))
    for n, st in enumerate(match["steps"]):
        yield n, st, game
        if st["seats"] is None:
            auto = game.automatic()
            assert auto is not None
            game.apply_automatic(auto)
        else:
            game.act(frozenset(st["seats"]), st["action"])


def test_whole_matches_step_for_step(tmp_path):
    configs = [GameConfig("local", length=1), GameConfig("local", length=3),
               GameConfig("local", length=5), GameConfig("local", length=3, cube=False),
               GameConfig("local", length=7)]
    # Nackgammon: every game from its start, its scoring, its .mat Variation.
    nack = [GameConfig("local", length=1, variant="nackgammon"), GameConfig("local", length=3, variant="nackgammon"),
            GameConfig("local", length=5, variant="nackgammon")]
    matches = [play_match(c, seed) for seed, c in enumerate(configs * 2 + nack)]
    starts = [st["views"][0] for m in matches[-3:] for st in m["steps"] if st["entry"]["type"] == "opening_roll"]
    assert len(starts) >= 3 and all(v["points"][22] == 2 and v["points"][1] == -2 and v["variant"] == "nackgammon"
                                    for v in starts)
    assert all('; [Variation "NackGammon"]' in m["mat"] for m in matches[-3:])
    kinds = {s["entry"]["type"] for m in matches for s in m["steps"]}
    assert kinds >= {"opening_roll", "roll", "move", "double", "take", "drop", "resign",
                     "accept_resignation", "reject_resignation", "next_game"}
    assert any(s["views"][0]["crawford"] for m in matches for s in m["steps"])
    run_node("match.parity.mjs", {"matches": matches}, tmp_path)


def test_the_computer_decides_as_the_servers(tmp_path):
    # Every decision of random matches (rolls or doubles, plays, takes or drops, resignations
    # accepted or not), answered by Mediu, and by Greu at every sixth one, in Python and in Node;
    # and at those, the hint Greu gives (plays ranked, or the cube's equities).
    matches = [play_match(GameConfig("local", length=n), 100 + n) for n in (1, 3, 5)]
    matches.append(play_match(GameConfig("local", length=3, variant="nackgammon"), 49))
    asked: list[dict[str, Any]] = []
    hints: list[dict[str, Any]] = []
    for i, m in enumerate(matches):
        config = GameConfig("local", length=m["config"]["length"], variant=m["config"]["variant"])
        for n, st, game in replayed(config, m):
            seat = game.to_act
            if st["seats"] is not None and seat is not None and game.match.phase.value != "game_over":
                for level in ("medium", "hard") if n % 6 == 0 else ("medium",):
                    cfg = GameConfig("local", length=config.length, level=level, variant=config.variant)
                    game.config = cfg
                    asked.append({"match": i, "step": n, "level": level, "want": choose_action(game, seat)})
                game.config = config
                m = game.match
                if n % 6 == 0 and (m.phase in (Phase.MOVE, Phase.TAKE) or m.phase == Phase.ROLL and m.may_double()):
                    hints.append({"match": i, "step": n, "want": json.loads(json.dumps(
                        hint_for(m.position.id, m.match_id, config.cube, game.single)))})
    kinds = {a["want"]["type"] for a in asked}
    assert kinds >= {"roll", "double", "move", "take", "drop", "accept_resignation", "reject_resignation"}, kinds
    (tmp_path / "bearoff.bin").write_bytes(
        np.ascontiguousarray(bearoff.database(), dtype="<f4").tobytes())
    assert {h["want"]["kind"] for h in hints} == {"play", "cube"}
    run_node("player.parity.mjs", {"matches": matches, "asked": asked, "hints": hints,
                                   "bearoff": str(tmp_path / "bearoff.bin")},
             tmp_path)


def test_the_cube_model_matches_pythons(tmp_path):
    # The match equity table (with the post-Crawford free drop) and the cube decisions over
    # scores, cubes, owners, the Crawford game and random chances, money and match.
    rng = random.Random(11)
    met_rows = [[a, b, met.match_equity(a, b)] for a in range(1, 16) for b in range(1, 16)]
    decisions = []
    while len(decisions) < 2000:
        win = rng.random()
        wg = win * rng.random() * 0.6
        lg = (1 - win) * rng.random() * 0.6
        p = cube.Chances(win, wg, wg * rng.random() * 0.2, lg, lg * rng.random() * 0.2)
        length = rng.choice([0, 1, 2, 3, 5, 7, 9, 13])
        score = (rng.randint(0, max(0, length - 1)), rng.randint(0, max(0, length - 1)))
        crawford = length > 0 and max(score) == length - 1 and rng.random() < 0.5
        size = 1 if crawford else rng.choice([1, 2, 4])
        owner = "centre" if size == 1 else rng.choice(["player", "opponent"])
        x = rng.choice([cube.CONTACT_EFFICIENCY, cube.RACE_EFFICIENCY, 0.0, 1.0])
        points = rng.randint(1, 3)
        if length == 0:
            d = cube.money_double(p, size, owner, x)
        else:
            d = cube.match_double(p, length, score, size, owner, crawford, x)
        accept = cube.accept_resignation(p, points, size, owner, length, score, crawford, x)
        decisions.append({
            "p": {"win": p.win, "winGammon": p.win_gammon, "winBackgammon": p.win_backgammon,
                  "loseGammon": p.lose_gammon, "loseBackgammon": p.lose_backgammon},
            "length": length, "score": list(score), "cube": size, "owner": owner, "crawford": crawford,
            "x": x, "points": points, "accept": accept,
            "want": {"double": d.double, "take": d.take, "nd": d.no_double, "dt": d.double_take,
                     "dp": d.double_pass, "best": d.best}})
    # Every branch turns up: doubles and not, takes and drops, the Crawford game, resignations
    # accepted and refused.
    assert {(c["want"]["double"], c["want"]["take"]) for c in decisions} == \
        {(True, True), (True, False), (False, True), (False, False)}
    assert any(c["crawford"] for c in decisions)
    assert {c["accept"] for c in decisions} == {True, False}
    # Efficiencies: contact, a race, and the last roll (the opponent bears off his last checkers
    # with any roll: one on his 2-point; two on his 1- and 2-points), where the cube is dead.
    race = [0] * 26
    race[5], race[6], race[20] = 1, 2, -3
    last = [0] * 26
    last[5], last[6], last[23] = 1, 1, -1
    last2 = [0] * 26
    last2[5], last2[6], last2[23], last2[24] = 1, 1, -1, -1
    efficiency = [{"board": b, "want": cube.board_efficiency(np.array(b, np.int8))}
                  for b in (list(Position.initial().board), race, last, last2)]
    assert [e["want"] for e in efficiency] == [cube.CONTACT_EFFICIENCY, cube.RACE_EFFICIENCY, 0.0, 0.0]
    run_node("cube.parity.mjs", {"met": met_rows, "decisions": decisions, "efficiency": efficiency},
             tmp_path)
