"""The browser's computer in Race, Dutch and Acey-Deucey against Python's, the reference.

Mediu and Greu (two plies, and one where the browser's time budget cuts the second short) must
choose Python's plays, with the networks Python plays each with (Race's own, the standard ones
otherwise), on positions met in seeded random games of each variant, where the search
generates 28-entry boards and the networks judge the folded board; Acey-Deucey's named double
after a 1-2 (``Bot.choose_double``) must be Mediu's; and every decision asked of the
computer in seeded random matches (rolls or doubles in Dutch, plays, takes or drops, resignations,
named doubles) must get the server's answer (``table.server.play.computer.choose_action``) at Mediu.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from table.bot.bot import Bot
from table.bot.net import bundled, bundled_path, shipped
from table.rules import aceydeucey
from table.rules.position import Play
from table.rules.variant import find_variant
from table.server.play.computer import choose_action
from table.server.play.game import GameConfig

from tests.e2e.parity import reserve_game_positions, run_node
from tests.e2e.test_bot_parity import _write_bearoff
from tests.e2e.test_match_parity import play_match, replayed
from tests.e2e.test_reserve_match_parity import QUIETER

ROOT = Path(__file__).resolve().parents[2]
WEB_BOT = ROOT / "src" / "table" / "web" / "bot"
VARIANTS = ("race", "dutch", "acey-deucey")
# Greu's look-ahead is many times slower in the browser's engine on these boards, where a roll has
# dozens of plays: one ply (what the browser's Greu plays when its time budget cuts the second
# short, as it does there on most such positions) on a few positions a variant, two plies on one.
HARD1_POSITIONS = 2
HARD_POSITIONS = 1


def _mover_id(play: Play) -> str:
    """The mover's 28-entry board after ``play`` (its position is seen from the opponent)."""
    return play.position.swapped().id


def _networks() -> dict[str, str]:
    """The file each variant's networks are exported under for the browser: its own where
    Python's bot plays its own (``net.shipped``), else the standard ones (``table``)."""
    return {name: "table" if shipped(find_variant(name).weights) is bundled() else find_variant(name).weights
            for name in ("standard", "nackgammon", "hypergammon", *VARIANTS)}


def test_exported_weights_are_the_shipped_ones(tmp_path):
    # A reserve variant with networks of its own (Race's) plays them in the browser too.
    own = [name for name, file in _networks().items() if name in VARIANTS and file != "table"]
    for name in own:
        run = subprocess.run([sys.executable, str(ROOT / "scripts" / "export-web-weights"), "--out", str(tmp_path),
                              "--weights", str(bundled_path(name)), "--name", name],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        for suffix in ("bin", "json"):
            assert (tmp_path / f"{name}.{suffix}").read_bytes() == (WEB_BOT / f"{name}.{suffix}").read_bytes(), \
                f"src/table/web/bot/{name}.* is stale: run scripts/export-web-weights --name {name} --weights ..."


def test_medium_and_hard_choose_pythons_plays(tmp_path):
    rng = random.Random(50)
    bots = {"medium": Bot("medium"), "hard1": Bot("hard", depth=1), "hard": Bot("hard")}
    rows: list[dict[str, Any]] = []
    doubles: list[dict[str, Any]] = []
    for name in VARIANTS:
        looked = 0
        for position in reserve_game_positions(240, 500 + len(name), name)[::4]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(dice)
            if len(plays) < 2:
                continue
            row: dict[str, Any] = {"variant": name, "id": position.id, "dice": list(dice)}
            # The look-ahead on positions with few plays: the browser's engine is slow at it.
            limit = {"hard1": HARD1_POSITIONS, "hard": HARD_POSITIONS} if len(plays) <= 12 else {}
            for level, bot in bots.items():
                if level != "medium" and looked >= limit.get(level, 0):
                    continue
                play = bot.choose_play(position, dice)
                assert play is not None
                row[level] = _mover_id(play)
            looked += "hard1" in row
            rows.append(row)
        if name == "acey-deucey":
            # The double Mediu names after a 1-2 played in full.
            for position in reserve_game_positions(300, 77, name)[::12]:
                plays = position.legal_plays((2, 1))
                if not plays or not aceydeucey.played_both(plays[0]):
                    continue
                after = aceydeucey.still_on_roll(plays[rng.randrange(len(plays))])
                doubles.append({"id": after.id, "medium": bots["medium"].choose_double(after)[0]})
    assert len(rows) >= 120
    assert sum("hard1" in r for r in rows) == len(VARIANTS) * HARD1_POSITIONS
    assert sum("hard" in r for r in rows) == len(VARIANTS) * HARD_POSITIONS
    assert len(doubles) >= 12 and len({d["medium"] for d in doubles}) >= 3
    run_node("reservebot.parity.mjs", {"choices": rows, "doubles": doubles, "networks": _networks(),
                                       "bearoff": _write_bearoff(tmp_path)}, tmp_path)


def test_the_computer_decides_as_the_servers(tmp_path):
    # Mediu's answer to decisions of seeded random matches: every cube decision, resignation and
    # named double, and every fifth play.
    configs = [(GameConfig("local", length=3, cube=False, variant="race"), 2),
               (GameConfig("local", length=3, variant="dutch"), 0),
               (GameConfig("local", length=5, cube=False, variant="acey-deucey"), 5)]
    matches = [play_match(c, seed, QUIETER) for c, seed in configs]
    asked: list[dict[str, Any]] = []
    for i, (config, _) in enumerate(configs):
        for n, st, game in replayed(config, matches[i]):
            seat = game.to_act
            phase = game.match.phase.value
            if st["seats"] is not None and seat is not None and phase != "game_over" and (
                    phase != "move" or n % 5 == 0):
                asked.append({"match": i, "step": n, "level": "medium", "want": choose_action(game, seat)})
    kinds = {a["want"]["type"] for a in asked}
    assert kinds >= {"roll", "double", "move", "name_double"} and kinds & {"take", "drop"} and (
        kinds & {"accept_resignation", "reject_resignation"}), kinds
    run_node("player.parity.mjs", {"matches": matches, "asked": asked, "hints": [],
                                   "bearoff": _write_bearoff(tmp_path)}, tmp_path)
