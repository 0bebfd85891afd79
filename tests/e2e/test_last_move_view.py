"""The last move as the server sends it to the client: written from each seat's side, with
absolute steps and hits for the arrows.  (No browser needed: this is what the board is drawn from.)"""

from __future__ import annotations

import random
import re

from table.rules.dice import SeededDice
from table.server.play.game import Game, GameConfig, to_abs

BOTH = frozenset({0, 1})


def paths(text: str) -> list[tuple[int, ...]]:
    """Each checker's path in a move text ("24/18* 13/7(2)"), with hits as negative numbers.

    Written here rather than with the notation's reader, which (rightly) refuses a move that
    goes the wrong way: the other side's numbering runs backwards.
    """
    out = []
    for word in text.split():
        m = re.fullmatch(r"(.+?)(?:\((\d)\))?", word)
        assert m, word
        points = tuple(-n if hit else n for n, hit in (
            (0 if p.rstrip("*") == "off" else 25 if p.rstrip("*") == "bar" else int(p.rstrip("*")), p.endswith("*"))
            for p in m.group(1).split("/")))
        out += [points] * int(m.group(2) or 1)
    return sorted(out)


def mirrored(p: int) -> int:
    """A point as the other player numbers it; the bar and off stay what they are."""
    return p if p in (0, 25) else 25 - p


def play_random_moves(game: Game, rng: random.Random, moves: int) -> list[dict]:
    seen = []
    while len(seen) < moves and not game.is_over:
        auto = game.automatic()
        if auto is not None:
            game.apply_automatic(auto)
        else:
            v = game.view(BOTH)
            if "next_game" in v["actions"] or "roll" in v["actions"]:
                game.act(BOTH, {"type": "next_game" if "next_game" in v["actions"] else "roll"})
                continue
            graph, node, path = v["moves"], 0, []
            while str(node) not in graph["finals"]:
                edge = rng.choice(graph["nodes"][node])
                path.append([edge[0], edge[1]])  # the view's graph is absolute already
                node = edge[4]
            game.act(BOTH, {"type": "move", "steps": path})
        if game.last is not None and game.last["steps"] and (not seen or seen[-1] is not game.last):
            seen.append(game.last)
    return seen


def test_the_last_move_is_written_from_both_sides():
    game = Game(GameConfig.from_json({"mode": "local", "length": 5, "cube": False}), SeededDice(99))
    lasts = play_random_moves(game, random.Random(3), 60)
    assert len(lasts) >= 40
    for last in lasts:
        mover, other = last["seat"], 1 - last["seat"]
        # From the mover's side the text is the play as logged; from the other side, the same
        # checkers' paths with every point mirrored.
        assert last["text"][mover] == last["play"]
        ours = paths(last["text"][mover])
        theirs = sorted(tuple((1 if p >= 0 else -1) * mirrored(abs(p)) for p in path)
                        for path in paths(last["text"][other]))
        assert ours == theirs, last
        # The absolute steps, seen from the mover's side, begin where the play's paths begin.
        starts = {to_abs(mover, a) for a, _ in last["steps"]}
        assert {path[0] for path in ours} <= starts
        assert len(last["hits"]) == len(last["steps"])
        assert any(last["hits"]) == ("*" in last["play"])
