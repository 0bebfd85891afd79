"""Experiment: cube decisions from a one-roll cubeful look-ahead, judged on a stored reference.

For each position of a ``table bench cube`` reference (cube centred, player on roll), the
no-double and double-take equities are averaged over the 21 rolls: the player makes Greu's
play, and the position after it is valued for the opponent, now on roll, by the money model
with the opponent's own best cube action (centred cube after no double; the opponent owning
a cube of 2 after double-take, free to redouble). Checker play ignores the cube, so one
play per roll serves both alternatives.

    PATH=.venv/bin:$PATH python3 research/cube/cube_lookahead.py research/cube/A-w256.npz [leaf_depth]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from table.bot import Bot, cube
from table.tools.cubebench import Reference, verdict
from table.rules.kernel import ROLLS
from table.rules.position import Position


def leaf_value(bot: Bot, leaf: Position, owner: int, depth: int) -> float:
    """The opponent's cubeful money equity per unit of cube, on roll at ``leaf``."""
    r = leaf.result()
    if r:
        return float(r)
    p = np.array(bot.evaluate(leaf, depth=depth).as_tuple())
    x = cube.board_efficiency(np.array(leaf.board, dtype=np.int8))
    nd, dt = cube.money_action(p, owner, x)
    return max(nd, min(dt, 1.0))


def lookahead(bot: Bot, position: Position, depth: int) -> tuple[float, float]:
    nd = dt = 0.0
    for a, b in ROLLS.tolist():
        w = (1.0 if a == b else 2.0) / 36.0
        play = bot.choose_play(position, (a, b))
        leaf = play.position if play is not None else position.swapped()
        nd -= w * leaf_value(bot, leaf, 0, depth)  # centred
        dt -= w * 2.0 * leaf_value(bot, leaf, 1, depth)  # the opponent owns a cube of 2
    return nd, dt


def main() -> None:
    ref = Reference.load(Path(sys.argv[1]))
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    bot = Bot("hard")
    t = time.time()
    nds, dts = [], []
    for board in ref.boards:
        nd, dt = lookahead(bot, Position(board.tolist()), depth)
        nds.append(nd)
        dts.append(dt)
    nd_a, dt_a = np.array(nds), np.array(dts)
    doubles = np.minimum(dt_a, 1.0) > nd_a
    takes = dt_a <= 1.0
    race = np.array([Position(b.tolist()).is_race() for b in ref.boards])
    for name, keep in (("all", np.ones(len(race), bool)), ("contact", ~race), ("race", race)):
        v = verdict(ref.nd[keep], ref.dt[keep], doubles[keep], takes[keep])
        print(f"look-ahead, leaves at {depth}-ply, {name:8}: {100 * v.agreement:.1f}% of {v.decisions}, "
              f"{v.mean_loss:.4f} lost (missed doubles {v.doubles_missed}, wrong doubles {v.doubles_wrong}, "
              f"passed takes {v.takes_passed}, taken passes {v.passes_taken})")
    print(f"mean |nd - ref.nd| {np.mean(np.abs(nd_a - ref.nd)):.4f}, |dt - ref.dt| {np.mean(np.abs(dt_a - ref.dt)):.4f}"
          f"  ({time.time() - t:.0f} s)")


if __name__ == "__main__":
    main()
