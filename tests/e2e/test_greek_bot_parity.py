"""The browser's computer in Plakoto, Fevga, Portes and the Tavli match against Python's, the reference.

The networks the browser loads for Plakoto and Fevga are the shipped ones; on positions met in
seeded random games of each (and their last positions: gammons, Plakoto's draws), the browser's
inputs (engine/greekfeatures.js) and choice of network equal ``table.bot.greekfeatures``'s, its
chances Python's at 0 and 1 ply, and Mediu and Greu (two plies, and one where the browser's time
budget cuts the second short) choose Python's plays; and every decision asked of the computer in a
seeded random Tavli match (Portes, Plakoto and Fevga in turn: rolls, plays in each game's
numbering, Fevga's same-way one included, resignations) gets the server's answer
(``table.server.play.computer.choose_action``) at Mediu, a play in 16 turns at Greu too, with the
server's hint (``hint_for``) there in Plakoto and Fevga; the page's worker fetches each game's
networks and answers as the server.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from table.bot.bot import Bot
from table.bot.greekfeatures import encode_position, game_code, pick_net
from table.bot.net import CONTACT, RACE, bundled_path
from table.rules.position import Position
from table.server.learn.routes import hint_for
from table.server.play.computer import choose_action
from table.server.play.game import Game, GameConfig

from tests.e2e.parity import reserve_game_positions, run_node
from tests.e2e.test_bot_parity import _write_bearoff
from tests.e2e.test_match_parity import ListDice

ROOT = Path(__file__).resolve().parents[2]
WEB_BOT = ROOT / "src" / "table" / "web" / "bot"
GAMES = ("plakoto", "fevga")
HARD_POSITIONS = 2  # a game: two plies in the browser's engine take a second or two each
HARD1_POSITIONS = 4
CHANCES1_POSITIONS = 6  # a game: the chances one ply ahead
HARD_EVERY = 16  # Greu's plays and hints in the match: one turn in this many
RESIGN = 0.006  # how often a random player resigns when it may: games end mostly by bearing off


def test_exported_weights_are_the_shipped_ones(tmp_path):
    for name in GAMES:
        run = subprocess.run([sys.executable, str(ROOT / "scripts" / "export-web-weights"), "--out", str(tmp_path),
                              "--weights", str(bundled_path(name)), "--name", name],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        for suffix in ("bin", "json"):
            assert (tmp_path / f"{name}.{suffix}").read_bytes() == (WEB_BOT / f"{name}.{suffix}").read_bytes(), \
                f"src/table/web/bot/{name}.* is stale: run scripts/export-web-weights --name {name} --weights ..."


def _positions(name: str) -> list[Position]:
    """Positions of seeded random games, with pinned checkers (Plakoto) and races among them."""
    return reserve_game_positions(800, 7 + len(name), name)[::6]


def _finished(name: str, games: int) -> list[Position]:
    """The last positions of seeded random games: borne off (single, gammon), and in Plakoto
    won by a pinned mother or drawn by both."""
    rng = random.Random(3)
    out = []
    for _ in range(games):
        position = Position.initial(name)
        while not position.is_game_over:
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            position = plays[rng.randrange(len(plays))].position if plays else position.swapped()
        out.append(position)
    return out


def _net(position: Position) -> int:
    board = np.array(position.board, dtype=np.int8)
    return int(pick_net(board, game_code(board.shape[0])))


def test_features_chances_and_plays_are_pythons(tmp_path):
    rng = random.Random(51)
    bots = {"medium": Bot("medium"), "hard1": Bot("hard", depth=1), "hard": Bot("hard")}
    rows: list[dict[str, Any]] = []
    for name in GAMES:
        looked = {"hard1": 0, "hard": 0, "chances1": 0}
        for position in _positions(name):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            row: dict[str, Any] = {"variant": name, "id": position.id, "dice": list(dice), "net": _net(position),
                                   "x": [float(v) for v in encode_position(position)],
                                   "chances": list(bots["medium"].evaluate(position).as_tuple())}
            if looked["chances1"] < CHANCES1_POSITIONS:
                row["chances1"] = list(bots["medium"].evaluate(position, depth=1).as_tuple())
                looked["chances1"] += 1
            plays = position.legal_plays(dice)
            if len(plays) >= 2:
                row["medium"] = bots["medium"].choose_play(position, dice).position.id  # type: ignore[union-attr]
                # The look-ahead where it changes Mediu's play (so that the search is compared, not
                # only the network), on positions with few plays: it is slow in the browser's engine.
                for level, limit in (("hard1", HARD1_POSITIONS), ("hard", HARD_POSITIONS)):
                    if looked[level] < limit and 4 <= len(plays) <= 15:
                        chosen = bots[level].choose_play(position, dice).position.id  # type: ignore[union-attr]
                        if chosen != row["medium"]:
                            row[level] = chosen
                            looked[level] += 1
            rows.append(row)
        assert looked == {"hard1": HARD1_POSITIONS, "hard": HARD_POSITIONS, "chances1": CHANCES1_POSITIONS}, looked
        for position in _finished(name, 30):
            rows.append({"variant": name, "id": position.id, "x": [float(v) for v in encode_position(position)],
                         "chances": list(bots["medium"].evaluate(position).as_tuple())})
    # The positions cover what the inputs describe: pins, both networks of each game, and every
    # ending: a single and a gammon lost, Plakoto's draw.
    assert any(":" in r["id"] for r in rows if r["variant"] == "plakoto")
    assert {(r["variant"], r["net"]) for r in rows if "net" in r} == {(g, n) for g in GAMES for n in (CONTACT, RACE)}
    endings = {(r["variant"], tuple(r["chances"])) for r in rows if "net" not in r}
    assert endings >= {(g, (0.0, 0.0, 0.0, 0.0, 0.0)) for g in GAMES} | {(g, (0.0, 0.0, 0.0, 1.0, 0.0)) for g in GAMES} | {
        ("plakoto", (0.5, 0.0, 0.0, 0.0, 0.0))}, endings
    assert sum("medium" in r for r in rows) >= 150
    run_node("greekbot.parity.mjs", {"choices": rows}, tmp_path)


def _decisions(config: GameConfig, seed: int,
               hard_every: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A match of random actions (mostly plays, some resignations) with its dice; the server
    computer's answer at Mediu to every decision, and at Greu to a play in ``hard_every`` turns,
    where the server's hint (Greu's plays ranked) is asked too in Plakoto and Fevga."""
    rng = random.Random(seed)
    faces = [rng.randint(1, 6) for _ in range(20000)]
    game = Game(config, ListDice(faces))
    steps: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []
    hints: list[dict[str, Any]] = []
    while not game.is_over and len(steps) < 3000:
        auto = game.automatic()
        if auto is not None:
            steps.append({"seats": None, "action": auto.to_json()})
            game.apply_automatic(auto)
            continue
        seat = game.to_act
        view = game.view(frozenset([0, 1] if seat is None else [seat]))
        phase = game.match.phase.value
        if seat is not None and phase != "game_over":
            n, m = len(steps), game.match
            asked.append({"step": n, "variant": m.variant.name, "level": "medium", "want": choose_action(game, seat)})
            if phase == "move" and len(m.position.legal_plays(m.dice)) > 1 and (n // 2) % hard_every == 0:
                game.config = replace(config, level="hard")
                asked.append({"step": n, "variant": m.variant.name, "level": "hard", "want": choose_action(game, seat)})
                game.config = config
                if m.variant.name != "portes":  # (Portes's hint is the standard one, and slow here)
                    hints.append({"step": n, "want": json.loads(json.dumps(
                        hint_for(m.position.id, m.match_id, config.cube, game.single, m.variant.name)))})
        kinds = view["actions"]
        # A single offered with no checker off while the other side bears off is often refused
        # (the gammon is likely): the computer's answer to both.
        behind = seat is not None and view["off"][seat] == 0 and view["off"][1 - seat] >= 6
        if "resign" in kinds and rng.random() < (0.2 if behind else RESIGN):
            action: dict[str, Any] = {"type": "resign", "level": 1 if behind else rng.choice((1, 2))}
        elif "move" in kinds:
            graph, node, moves = view["moves"], 0, []
            while str(node) not in graph["finals"]:
                edge = rng.choice(graph["nodes"][node])
                moves.append([edge[0], edge[1]])
                node = edge[4]
            action = {"type": "move", "steps": moves}
        else:
            action = {"type": rng.choice([k for k in kinds if k != "resign"])}
        steps.append({"seats": [0, 1] if seat is None else [seat], "action": action})
        game.act(frozenset(steps[-1]["seats"]), action)
    assert game.is_over
    match = {"config": {"mode": config.mode, "length": config.length, "cube": config.cube,
                        "variant": config.variant}, "faces": faces, "steps": steps}
    return match, asked, hints


def test_the_computer_decides_as_the_servers(tmp_path):
    # A Tavli match plays Portes (standard networks and bear-off database), Plakoto and Fevga.
    match, asked, hints = _decisions(GameConfig("local", length=3, cube=False, variant="tavli"), 2, HARD_EVERY)
    # Plays in each game at both levels, and resignations answered both ways.
    assert {(a["variant"], a["level"], a["want"]["type"]) for a in asked} >= {
        (v, level, "move") for v in ("portes", "plakoto", "fevga") for level in ("medium", "hard")}, asked
    assert {a["want"]["type"] for a in asked} >= {"roll", "accept_resignation", "reject_resignation"}
    assert len(hints) >= 8 and {h["want"]["kind"] for h in hints} == {"play"}
    run_node("greekplayer.parity.mjs", {"matches": [match], "asked": [{**a, "match": 0} for a in asked],
                                        "hints": [{**h, "match": 0} for h in hints],
                                        "bearoff": _write_bearoff(tmp_path)}, tmp_path)
