"""Write tests/fixtures/greek-perft.json: exact play counts for Plakoto and Fevga.

Run from the repository root: ``python3 -m tests.rules.make_greek_perft``.  Every count comes
from the naive ``greek_oracle``, not from the engine under test, and the random positions come
from games the oracle plays with its own seeded generator (only the IDs are written by the
engine's ``Position``).  The format is described in the file itself.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from table import Position

from .greek_oracle import ROLLS, State, leaves, outcome, plays, start, to_board, turned

OUT = Path(__file__).parents[1] / "fixtures" / "greek-perft.json"
GAMES = ("plakoto", "fevga")
START_PLIES = {"plakoto": 2, "fevga": 3}  # Plakoto three plies deep is 708,405 leaves: too slow a test
# Random positions per game: a few early ones two plies deep, later ones one ply (the oracle's
# doubles try every order of four dice: slow on a full board).
EARLY = (3, (2, 9), 2)  # how many, the range of turns played to reach them, plies
LATER = (14, (10, 110), 1)


def random_positions(game: str, seed: int, count: int, turns_between: tuple[int, int]) -> list[State]:
    """Positions from games played at random by the oracle, each after a random number of turns."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = start()
        for _ in range(rng.randrange(*turns_between)):
            after = sorted(plays(game, state, (rng.randint(1, 6), rng.randint(1, 6))))
            state = turned(rng.choice(after) if after else state)
            if outcome(game, state)[1]:
                break
        else:
            found.append(state)
    return found


def main() -> None:
    out: dict[str, object] = {
        "about": (
            "Exact counts for Plakoto and Fevga, written by tests/rules/make_greek_perft.py from a "
            "naive oracle. 'board' is the engine's raw board from the player on roll "
            "(table.rules.greekkernel: Plakoto 50 numbers, the 26 standard ones then a pinned flag "
            "per point; Fevga 26, both sides in the mover's numbering); 'id' is the Position ID of "
            "docs/variants.md. 'counts' are the distinct resulting positions of each roll of "
            "'rolls'. 'leaves' counts the game tree 'plies' deep: each of the 21 rolls (not "
            "weighted), each distinct play of it, a roll with no play passing as one branch, a "
            "finished game (Plakoto's pinned mother included) being a leaf at any depth."),
        "rolls": [f"{a}{b}" for a, b in ROLLS],
        "games": {},
    }
    for index, game in enumerate(GAMES):
        chosen = [(start(), START_PLIES[game])]
        for seed, (count, turns, plies) in enumerate((EARLY, LATER)):
            found = random_positions(game, 2000 + 10 * index + seed, count, turns)
            chosen += [(state, plies) for state in found]
        rows = []
        for k, (state, plies) in enumerate(chosen):
            board = to_board(game, state)
            rows.append({"id": Position(board, game).id, "board": list(board),
                         "counts": [len(plays(game, state, roll)) for roll in ROLLS],
                         "plies": plies, "leaves": leaves(game, state, plies)})
            print(game, k, rows[-1]["id"], rows[-1]["leaves"], flush=True)
        out["games"][game] = rows  # type: ignore[index]
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"-> {OUT}")


if __name__ == "__main__":
    main()
