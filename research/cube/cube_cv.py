"""Cross-validated cube models on all the cube references together (issue 13).

Each reference's positions get Greu's 2-ply chances (the shipped network unless WEIGHTS names
another), their volatility (research/cube/cube_volatility.py) and whether they are races, cached
beside this machine's temporary files by the reference's name and the network's digest.  Then
several forms of the money cube model, each with a grid of parameters, are scored two ways:

- leave one reference out: the parameters that lose least on the others, scored on it;
- ten folds of all positions pooled (seeded): the parameters chosen on nine tenths, scored on
  the tenth; the sum over the ten is an honest estimate of the loss a decision.

Forms: ``plain`` (one contact efficiency, the model's today at 0.72); ``split`` (one efficiency
for the centred cube, no double, and another for the cube the opponent owns, double-take);
``margin`` (0.72, and a double only when it gains more than a margin); ``volatility`` (0.72 at
high volatility, rising to a top in quiet positions, as in cube_volatility_cv.py).

Usage: PYTHONPATH=src python3 research/cube/cube_cv.py [--weights WEIGHTS] REFERENCE.npz ...
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from table import Position
from table.bot import Bot, cube
from table.tools.cubebench import Reference, chances, network_digest, verdict
from table.bot.net import Weights, bundled

from cube_volatility import volatility

Params = tuple[float, ...]


def features(path: Path, weights: Weights) -> dict[str, np.ndarray]:
    """Rollout results, 2-ply chances, volatility, race and last-roll flags of one reference."""
    ref = Reference.load(path)
    ref = ref.subset(ref.done)
    cache = Path(tempfile.gettempdir()) / f"cubecv-{path.stem}-{network_digest(weights)}.npz"
    if cache.exists():
        with np.load(cache) as f:
            if len(f["p"]) == len(ref.nd):
                return {"nd": ref.nd, "dt": ref.dt, "p": f["p"], "vol": f["vol"],
                        "race": f["race"], "last": f["last"]}
    bot = Bot("medium", weights=weights)
    p = chances(ref.boards, 2, weights)
    race = np.array([Position(b.tolist()).is_race() for b in ref.boards])
    last = np.array([cube.last_roll(b) for b in ref.boards])
    vol = np.array([volatility(bot, Position(b.tolist())) for b in ref.boards])
    np.savez(cache, p=p, vol=vol, race=race, last=last)
    return {"nd": ref.nd, "dt": ref.dt, "p": p, "vol": vol, "race": race, "last": last}


def equities(p: np.ndarray, x_centre: np.ndarray, x_owned: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """(no double, double-take) per position, with the two efficiencies given per position."""
    nd = np.empty(len(p))
    dt = np.empty(len(p))
    for i, q in enumerate(p.astype(np.float64)):
        nd[i] = cube.money_action(q, 0, float(x_centre[i]))[0]
        dt[i] = cube.money_action(q, 0, float(x_owned[i]))[1]
    return nd, dt


def loss(d: dict[str, np.ndarray], dbl: np.ndarray, take: np.ndarray, idx: np.ndarray) -> float:
    """Summed equity lost on the positions ``idx`` by these decisions."""
    return verdict(d["nd"][idx], d["dt"][idx], dbl[idx], take[idx]).loss


def agreement(d: dict[str, np.ndarray], dbl: np.ndarray, take: np.ndarray, idx: np.ndarray) -> int:
    """Decisions that agree with the rollouts on the positions ``idx``."""
    return verdict(d["nd"][idx], d["dt"][idx], dbl[idx], take[idx]).agree


def model_decisions(d: dict[str, np.ndarray], form: str, g: Params) -> tuple[np.ndarray, np.ndarray]:
    """Double and take decisions of one form of the model with parameters ``g``."""
    n = len(d["nd"])
    plain = np.full(n, cube.CONTACT_EFFICIENCY)
    contact = ~d["race"] & ~d["last"]
    base = np.where(d["last"], 0.0, np.where(d["race"], cube.RACE_EFFICIENCY, plain))
    xc = base.copy()
    xo = base.copy()
    margin = 0.0
    if form == "plain":
        xc[contact] = xo[contact] = g[0]
    elif form == "split":
        xc[contact], xo[contact] = g[0], g[1]
    elif form == "margin":
        margin = g[0]
    elif form == "volatility":
        hi, v0, v1 = g
        low = cube.CONTACT_EFFICIENCY
        line = np.clip(hi - (hi - low) * (d["vol"] - v0) / (v1 - v0), low, hi)
        xc[contact] = xo[contact] = line[contact]
    nd, dt = equities(d["p"], xc, xo)
    return np.minimum(dt, 1.0) > nd + margin, dt <= 1.0


GRIDS: dict[str, list[Params]] = {
    "plain": [(x,) for x in np.round(np.arange(0.60, 0.93, 0.02), 2)],
    "split": [(a, b) for a in np.round(np.arange(0.60, 0.97, 0.04), 2)
              for b in np.round(np.arange(0.56, 0.93, 0.04), 2)],
    "margin": [(m,) for m in (0.0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04)],
    "volatility": [tuple(g) for g in itertools.product((0.76, 0.80, 0.84, 0.88), (0.04, 0.06, 0.08),
                                                 (0.10, 0.12, 0.15, 0.18)) if g[2] > g[1]]
    + [(0.72, 0.0, 1.0)],
}


def cross_validate(name_of: list[str], d: dict[str, np.ndarray], groups: np.ndarray,
                   folds: Iterable[tuple[str, np.ndarray]], form: str) -> None:
    grid = GRIDS[form]
    decided = {g: model_decisions(d, form, g) for g in grid}
    total = agree = n = 0.0
    chosen = []
    for label, test in folds:
        train = ~test
        best = min(grid, key=lambda g: loss(d, *decided[g], np.flatnonzero(train)))
        idx = np.flatnonzero(test)
        total += loss(d, *decided[best], idx)
        agree += agreement(d, *decided[best], idx)
        n += 2 * len(idx)
        chosen.append(f"{label}:{','.join(f'{v:g}' for v in best)}")
    everywhere = min(grid, key=lambda g: loss(d, *decided[g], np.arange(len(groups))))
    per_ref = "; ".join(
        f"{nm} {100 * agreement(d, *decided[everywhere], np.flatnonzero(groups == k)) / (2 * np.sum(groups == k)):.1f}%"
        f" {loss(d, *decided[everywhere], np.flatnonzero(groups == k)) / (2 * np.sum(groups == k)):.4f}"
        for k, nm in enumerate(name_of))
    print(f"  {form:10s} left out: {100 * agree / n:.1f}%, {total / n:.4f} a decision "
          f"[{' '.join(chosen)}]; best on all {everywhere}: {per_ref}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", type=Path)
    ap.add_argument("--forms", default="plain,split,margin,volatility")
    ap.add_argument("refs", nargs="+", type=Path)
    a = ap.parse_args()
    weights = Weights.load(a.weights) if a.weights else bundled()
    parts = [features(r, weights) for r in a.refs]
    d = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    groups = np.concatenate([np.full(len(p["nd"]), k) for k, p in enumerate(parts)])
    names = [r.stem for r in a.refs]
    print(f"{len(groups)} positions: " + ", ".join(f"{nm} {len(p['nd'])}" for nm, p in zip(names, parts)))
    rng = np.random.default_rng(int(os.environ.get("SEED", "1")))
    fold = rng.permutation(len(groups)) % 10
    for form in a.forms.split(","):
        print(f"{form}:")
        cross_validate(names, d, groups, ((nm, groups == k) for k, nm in enumerate(names)), form)
        cross_validate(names, d, groups, ((f"f{k}", fold == k) for k in range(10)), form)


if __name__ == "__main__":
    main()
