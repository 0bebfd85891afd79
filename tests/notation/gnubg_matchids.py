"""Regenerate tests/notation/data/gnubg_matchids.txt: which Match IDs GNU Backgammon accepts.

Run ``python tests/notation/gnubg_matchids.py`` where GNU Backgammon is
installed (``gnubg`` on the PATH or /usr/games/gnubg); without it the script
says so and changes nothing.  It builds candidate keys over every field of the
Match ID (section 11.7 of GNU Backgammon's manual), feeds each to GNU
Backgammon's ``set matchid`` and writes one line per key: the ID and
``accepted`` or ``refused`` (GNU Backgammon answered "Illegal match ID").
Only GNU Backgammon's answers are used, never its code.
"""

from __future__ import annotations

import base64
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).parent / "data" / "gnubg_matchids.txt"

# The manual's fields and widths, in order, each least significant bit first.
WIDTHS = (("cube", 4), ("owner", 2), ("dice_owner", 1), ("crawford", 1), ("state", 3),
          ("turn", 1), ("double", 1), ("resign", 2), ("die1", 3), ("die2", 3),
          ("length", 15), ("score0", 15), ("score1", 15))
BASE = dict(cube=0, owner=3, dice_owner=0, crawford=0, state=1, turn=0, double=0,
            resign=0, die1=0, die2=0, length=5, score0=0, score1=0)


def make_id(**fields: int) -> str:
    """A Match ID written field by field from ``BASE``."""
    values = {**BASE, **fields}
    key, start = 0, 0
    for name, width in WIDTHS:
        key |= values[name] << start
        start += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def candidates() -> list[str]:
    """Every value of each field alone, then a fixed sample of combinations of all of them."""
    out: list[str] = []
    for name, width in WIDTHS:
        top = min(1 << width, 70)
        out += [make_id(**{name: v}) for v in range(top)]
    for length in (0, 1, 5, 25, 26, 64, 65, 99, 32767):
        for score in ((0, 0), (length - 1, 0), (length, 0), (length, length), (length + 1, 2)):
            if min(score) >= 0 and max(score) < 1 << 15:
                out += [make_id(length=length, score0=score[0], score1=score[1], state=s)
                        for s in range(8)]
    dice = [(0, 0), (3, 1), (1, 3), (6, 6), (0, 4), (4, 0), (7, 2), (2, 7)]
    scores = [(0, 0, 0), (0, 3, 1), (5, 0, 0), (5, 4, 2), (5, 4, 4), (5, 5, 1), (5, 5, 5),
              (5, 6, 0), (7, 8, 3), (25, 24, 0), (64, 0, 63), (65, 0, 0)]
    grid = list(itertools.product(
        (0, 1, 6, 7, 12, 13, 15), range(4), (0, 1), (0, 1), range(8), (0, 1), (0, 1),
        range(4), dice, scores))
    for (cube, owner, roller, crawford, state, turn, double, resign, (d1, d2),
         (length, s0, s1)) in random.Random(48).sample(grid, 2500):
        out.append(make_id(cube=cube, owner=owner, dice_owner=roller, crawford=crawford,
                           state=state, turn=turn, double=double, resign=resign, die1=d1,
                           die2=d2, length=length, score0=s0, score1=s1))
    return list(dict.fromkeys(out))


def refused_by_gnubg(gnubg: str, ids: list[str]) -> set[str]:
    """The IDs GNU Backgammon's ``set matchid`` calls illegal (it names each one)."""
    refused: set[str] = set()
    with tempfile.TemporaryDirectory() as home:  # keep GNU Backgammon off the real home
        env = dict(os.environ, HOME=home)
        for i in range(0, len(ids), 250):
            chunk = ids[i:i + 250]
            commands = "set player 0 human\nset player 1 human\n" + "".join(
                f"set matchid {text}\n" for text in chunk)
            run = subprocess.run([gnubg, "-t", "-q", "-r"], input=commands, env=env,
                                 capture_output=True, text=True, timeout=300, check=True)
            refused |= set(re.findall(r"Illegal match ID '([A-Za-z0-9+/]{12})'",
                                      run.stdout + run.stderr))
    return refused


def main() -> int:
    gnubg = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
    if gnubg is None:
        print("GNU Backgammon (gnubg) is not installed: nothing regenerated", file=sys.stderr)
        return 1
    ids = candidates()
    refused = refused_by_gnubg(gnubg, ids)
    lines = [f"{text} {'refused' if text in refused else 'accepted'}" for text in ids]
    header = ("# Match IDs fed to GNU Backgammon 1.07's `set matchid`, and its verdict.\n"
              "# Regenerate with: python tests/notation/gnubg_matchids.py\n")
    OUT.write_text(header + "\n".join(lines) + "\n", encoding="ascii")
    print(f"{len(ids)} IDs, {len(refused)} refused -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
