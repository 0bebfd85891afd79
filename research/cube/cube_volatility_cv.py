"""Cross-validation of the cube efficiency by volatility (issue 13).

For each cube reference, Greu's 2-ply chances and each position's volatility (as
research/cube/cube_volatility.py computes them); then, for each reference left out in turn, the line
efficiency(volatility) = HI up to V0, falling straight to 0.72 at V1 (0.72 beyond) that loses
least on the others is chosen from a grid and scored on the one left out, beside the plain 0.72.
Finally the line that loses least on all of them together.

Usage: PYTHONPATH=src python3 research/cube/cube_volatility_cv.py WEIGHTS REFERENCE.npz ...
"""

import itertools
import os
import sys
from pathlib import Path

import numpy as np

from table import Position
from table.bot import Bot, cube
from table.bot.net import Weights
from table.tools.cubebench import Reference, Verdict, chances, verdict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cube_volatility import decisions_at, volatility  # noqa: E402

# ONE=1 in the environment: the bends fixed at 0.08 and 0.12, only the top chosen.
GRID = [(hi, v0, v1) for hi, v0, v1 in itertools.product(
    (0.76, 0.80, 0.84, 0.88, 0.92), (0.04, 0.06, 0.08, 0.10), (0.10, 0.12, 0.15, 0.18, 0.22))
    if v1 > v0] + [(0.72, 0.0, 1.0)]
if os.environ.get("ONE"):
    GRID = [(hi, 0.08, 0.12) for hi in (0.72, 0.76, 0.78, 0.80, 0.82, 0.84, 0.86, 0.88, 0.90)]


def line(vol: np.ndarray, plain: np.ndarray, race: np.ndarray, hi: float, v0: float,
         v1: float) -> np.ndarray:
    """The line's efficiencies in contact; ``plain`` (the model's) in races and at the last roll."""
    x = np.clip(hi - (hi - 0.72) * (vol - v0) / (v1 - v0), 0.72, hi)
    out: np.ndarray = np.where(race, plain, x)
    return out


def main() -> None:
    weights = Weights.load(sys.argv[1])
    bot = Bot("medium", weights=weights)
    data = []
    for path in sys.argv[2:]:
        ref = Reference.load(Path(path))
        ref = ref.subset(ref.done)
        p = chances(ref.boards, 2, weights)
        race = np.array([Position(b.tolist()).is_race() for b in ref.boards])
        vol = np.array([volatility(bot, Position(b.tolist())) for b in ref.boards])
        plain = np.array([cube.board_efficiency(b) for b in ref.boards])
        data.append((Path(path).stem, ref, p, race, vol, plain))
        print(f"{Path(path).stem}: read", flush=True)
    # res[g][k]: the verdict of grid line g on reference k
    res: dict[tuple[float, float, float], list[Verdict]] = {}
    for g in GRID:
        res[g] = [verdict(ref.nd, ref.dt, *decisions_at(p, ref.boards, line(vol, plain, race, *g)))
                  for _, ref, p, race, vol, plain in data]
    chosen = GRID[0] if os.environ.get("ONE") else (0.72, 0.0, 1.0)
    for k, (name, *_rest) in enumerate(data):
        best = min(GRID, key=lambda g: sum(v.loss for j, v in enumerate(res[g]) if j != k))
        t, o = res[best][k], res[chosen][k]
        print(f"left out {name}: line {best} -> {100 * t.agreement:.1f}%, {t.mean_loss:.4f} "
              f"(plain 0.72: {100 * o.agreement:.1f}%, {o.mean_loss:.4f})")
    best = min(GRID, key=lambda g: sum(v.loss for v in res[g]))
    print(f"on all: line {best}: " + "; ".join(
        f"{name} {100 * v.agreement:.1f}%, {v.mean_loss:.4f}" for (name, *_r), v in zip(data, res[best])))
    print("plain 0.72: " + "; ".join(
        f"{name} {100 * v.agreement:.1f}%, {v.mean_loss:.4f}" for (name, *_r), v in zip(data, res[chosen])))


if __name__ == "__main__":
    main()
