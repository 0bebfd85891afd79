"""A seeded game loop for the bot's tests: every play checked legal as it is made."""

from __future__ import annotations

import random
from typing import Callable

from table.rules.play import Play
from table.rules.position import Position

Chooser = Callable[[Position, tuple[int, int]], Play | None]


def play_seeded(choose: Chooser, position: Position, seed: int, turns: int = 600,
                moves: list[str] | None = None) -> Position:
    """Play up to ``turns`` turns from ``position`` with seeded dice, ``choose`` making every
    play, and return where the game stands (it stops when the game is over).

    Each play must be one of ``legal_plays`` (None only when there is none); ``moves``, if
    given, receives each play's text ("-" for a pass).
    """
    rng = random.Random(seed)
    p = position
    for _turn in range(turns):
        if p.is_game_over:
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = choose(p, dice)
        legal = p.legal_plays(dice)
        if play is None:
            assert legal == []
            p = p.swapped()
        else:
            assert play in legal
            assert play.position.variant is position.variant
            p = play.position
        if moves is not None:
            moves.append("-" if play is None else str(play))
    return p
