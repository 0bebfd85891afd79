"""Record the search's choices and chances into tests/bot/data/search_fixture.npz.

Run once from the repository root with the search to be kept as the reference
(it was run at commit c8f3e3f, before eval_1ply/eval_2ply became one function):

    PYTHONPATH=src python3 tests/bot/make_search_fixture.py

``test_search_fixture.py`` checks that the search still makes the same plays
and gives the same chances.  Only the public ``Bot`` API is used, so the script
runs against any version of the search.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from table.bot.bot import Bot
from table.bot.net import Weights
from table.tools.corpus import random_positions
from table.rules.position import Position

ROOT = Path(__file__).resolve().parents[2]
WEIGHTS = ROOT / "training" / "checkpoints" / "refine-3.npz"
FIXTURE = Path(__file__).with_name("data") / "search_fixture.npz"
SELF_PLAY = 48  # positions from the medium bot's seeded self-play
RANDOM = 24  # positions from random games (odd ones: back games, crashed boards)
DEEP = 24  # of all these, how many are also searched at depth 2 (slow)
EASY_SEED = 5  # the easy bot's seed: its noise must be drawn the same way


def samples(weights: Weights) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with a choice to make, each with its roll."""
    rng = random.Random(13)
    sampler = Bot("medium", weights=weights)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < SELF_PLAY:
        p = Position.initial()
        while not p.is_game_over and len(out) < SELF_PLAY:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if len(p.legal_plays(dice)) > 1 and rng.random() < 0.3:
                out.append((p, dice))
            play = sampler.choose_play(p, dice)
            p = play.position if play is not None else p.swapped()
    picked = 0
    for p in random_positions(400, 17)[::400 // RANDOM]:
        # (a player closed out has no roll with a choice: such positions are skipped)
        rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)
                 if len(p.legal_plays((a, b))) > 1]
        if rolls and picked < RANDOM:
            out.append((p, rng.choice(rolls)))
            picked += 1
    # Interleave so that the depth-2 share covers both kinds.
    rng.shuffle(out)
    return out


def main() -> None:
    weights = Weights.load(WEIGHTS)
    cases = samples(weights)
    boards = np.array([p.board for p, _ in cases], dtype=np.int8)
    rolls = np.array([d for _, d in cases], dtype=np.int8)
    chosen = np.zeros((3, len(cases), 26), dtype=np.int8)
    chances = np.zeros((3, len(cases), 5), dtype=np.float64)
    for depth in range(3):
        bot = Bot("hard", weights=weights, depth=depth)
        for i, (p, dice) in enumerate(cases):
            if depth == 2 and i >= DEEP:
                break
            play = bot.choose_play(p, dice)
            assert play is not None
            chosen[depth, i] = play.position.board
            chances[depth, i] = bot.evaluate(p, depth=depth).as_tuple()
    easy = Bot("easy", seed=EASY_SEED, weights=weights)
    easy_chosen = np.zeros((len(cases), 26), dtype=np.int8)
    for i, (p, dice) in enumerate(cases):
        play = easy.choose_play(p, dice)
        assert play is not None
        easy_chosen[i] = play.position.board
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(FIXTURE, boards=boards, rolls=rolls, chosen=chosen, chances=chances,
                        easy_chosen=easy_chosen, deep=np.int64(DEEP),
                        easy_seed=np.int64(EASY_SEED))
    print(f"wrote {FIXTURE}: {len(cases)} positions, {DEEP} of them at depth 2")


if __name__ == "__main__":
    main()
