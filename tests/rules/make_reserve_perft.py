"""Write tests/fixtures/variants-perft.json: exact play counts for Race, Dutch and Acey-Deucey.

Run from the repository root: ``python3 -m tests.rules.make_reserve_perft``.  Every count
comes from the naive ``reserve_oracle``, not from the engine under test, and the random
positions come from games the oracle plays with its own seeded generator (only the IDs
are written by ``table.rules.reserve``).  Both engines read it: ``test_reserve_perft.py``
here, and the JavaScript engine once it plays these variants (the format is described
in the file itself).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from table.rules.reserve import encode_reserve_id

from .reserve_oracle import ACEY, DUTCH, RACE, ROLLS, Flags, leaves, plays, turned

OUT = Path(__file__).parents[1] / "fixtures" / "variants-perft.json"
VARIANTS = {"race": RACE, "dutch": DUTCH, "acey-deucey": ACEY}
START = (0,) * 26 + (15, -15)
START_PLIES = 3
# Random positions per variant: a few early ones two plies deep, later ones one ply (the
# oracle's doubles try every order of four dice, too slow for a full board two plies deep).
EARLY = (2, (2, 5), 2)  # how many, the range of turns played to reach them, plies
LATER = (10, (6, 40), 1)


def random_positions(rules: Flags, seed: int, count: int,
                     turns_between: tuple[int, int]) -> list[tuple[int, ...]]:
    """Positions from games played at random by the oracle, each after a random number of turns."""
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        board = START
        turns = rng.randrange(*turns_between)
        for _ in range(turns):
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            after = sorted(plays(board, roll, rules))
            board = turned(rng.choice(after) if after else board)
            if min(board) >= 0 or max(board) <= 0:
                break
        else:
            found.append(board)
    return found


def main() -> None:
    out: dict[str, object] = {
        "about": (
            "Exact counts for the variants whose checkers start off the board, written by "
            "tests/rules/make_reserve_perft.py from a naive oracle. A board is 28 numbers from the "
            "player on roll: 0 the opponent's bar (negative), 1-24 the points (mover positive), "
            "25 the mover's bar, 26 the mover's waiting checkers, 27 the opponent's (negative); "
            "'id' is the extended Position ID of docs/variants.md. 'counts' are the distinct "
            "resulting positions of each roll of 'rolls'. 'leaves' counts the game tree 'plies' "
            "deep: each of the 21 rolls (not weighted), each distinct play of it, a roll with no "
            "play passing as one branch, a finished game being a leaf at any depth."),
        "rolls": [f"{a}{b}" for a, b in ROLLS],
        "variants": {},
    }
    for index, (name, rules) in enumerate(VARIANTS.items()):
        rows = []
        boards = [(START, START_PLIES)]
        for seed, (count, turns, plies) in enumerate((EARLY, LATER)):
            found = random_positions(rules, 1000 + 10 * index + seed, count, turns)
            boards += [(board, plies) for board in found]
        for k, (board, plies) in enumerate(boards):
            rows.append({"id": encode_reserve_id(board), "board": list(board),
                         "counts": [len(plays(board, roll, rules)) for roll in ROLLS],
                         "plies": plies, "leaves": leaves(board, plies, rules)})
            print(name, k, rows[-1]["id"], rows[-1]["leaves"], flush=True)
        out["variants"][name] = rows  # type: ignore[index]
    OUT.parent.mkdir(exist_ok=True)
    text = json.dumps(out, indent=1)
    OUT.write_text(text + "\n")
    print(f"-> {OUT}")


if __name__ == "__main__":
    main()
