"""Probe (issue 13): does the best cube efficiency depend on how volatile a position is?

For each position of the cube references A-deep and A-w256: Greu's 2-ply cubeless chances
(as `table bench cube` judges them) and a volatility, the spread (standard deviation over the
36 rolls) of the mover's 0-ply equity after his best play.  The positions are split into
thirds by volatility and, in each third, the single efficiency that loses least is found on
each reference, as `table bench cube` finds one for all contact positions.

research/cube/cube_volatility_cv.py fits and cross-validates an efficiency by volatility from this.

Usage: PYTHONPATH=src python3 research/cube/cube_volatility.py WEIGHTS [REFERENCE.npz ...]
(default references: research/cube/A-deep.npz and A-w256.npz)
"""

import sys
from pathlib import Path

import numpy as np

from table import Position
from table.bot import Bot
from table.tools.cubebench import Reference, best_efficiency, chances, decisions, verdict
from table.bot.net import Weights, bundled

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def decisions_at(p: np.ndarray, boards: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cubebench.decisions`` with the efficiency ``xs[i]`` at ``boards[i]``."""
    it = iter(xs)
    return decisions(p, boards, lambda _board: float(next(it)))


def volatility(bot: Bot, pos: Position) -> float:
    eq, w = [], []
    for a, b in ROLLS:
        ranked = bot.ranked_plays(pos, (a, b), depth=0)
        eq.append(ranked[0][1] if ranked else -bot.evaluate(pos.swapped(), depth=0).equity)
        w.append(1 if a == b else 2)
    e, ww = np.array(eq), np.array(w) / 36.0
    m = float(ww @ e)
    return float(np.sqrt(ww @ (e - m) ** 2))


def main() -> None:
    weights = Weights.load(sys.argv[1]) if len(sys.argv) > 1 else bundled()
    bot = Bot("medium", weights=weights)
    paths = sys.argv[2:] or ["research/cube/A-deep.npz", "research/cube/A-w256.npz"]
    for path in paths:
        name = Path(path).stem
        ref = Reference.load(Path(path))
        ref = ref.subset(ref.done)
        p = chances(ref.boards, 2, weights)
        race = np.array([Position(b.tolist()).is_race() for b in ref.boards])
        vol = np.array([volatility(bot, Position(b.tolist())) for b in ref.boards])
        contact = ~race
        cuts = np.quantile(vol[contact], [1 / 3, 2 / 3])
        print(f"{name}: contact volatility thirds cut at {cuts.round(3)}")
        for k, (lo, hi) in enumerate(((-1, cuts[0]), (cuts[0], cuts[1]), (cuts[1], 9))):
            m = contact & (vol > lo) & (vol <= hi)
            x, v = best_efficiency(ref, p, m)
            d, t = decisions_at(p[m], ref.boards[m], np.full(int(m.sum()), 0.72))
            now = verdict(ref.nd[m], ref.dt[m], d, t)
            print(f"  third {k + 1}: {m.sum()} positions, best efficiency {x:.2f} "
                  f"({100 * v.agreement:.1f}%, {v.mean_loss:.4f}); the model's 0.72: "
                  f"{100 * now.agreement:.1f}%, {now.mean_loss:.4f}, wrong doubles {now.doubles_wrong}, "
                  f"missed {now.doubles_missed}", flush=True)


if __name__ == "__main__":
    main()
