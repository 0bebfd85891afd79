"""Pass 18 (issue 13): how often each network's 0-ply choice among a roll's close plays is 2-ply's.

A cheaper and less noisy look at Mediu's checker play than 40,000 games: pass 18's set holds, for
each roll of twoply-16c's self-play with close plays, the positions after the best play and its
rivals, labelled by 2-ply.  Over the rolls whose siblings are all labelled and come at or after
``FROM`` (positions no fit of ``training/rank18.py`` with ``N <= FROM`` saw), this prints for
each network how often its choice is 2-ply's best and the mean equity its choice gives up by
2-ply's judgement.  The positions are the opponent's view after the play, so the mover takes
the lowest equity.

Usage: PYTHONPATH=src python3 research/labels/choice18.py FROM NETWORK...
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))  # candidates, rank18
import candidates  # noqa: E402
import rank18  # noqa: E402

from table.bot.net import CONTACT, RACE, Weights  # noqa: E402
from table.tools.train import refine  # noqa: E402

GROUPS = Path("training/data/groups-18.npz")  # the collection's roll numbers, made once


def groups(positions: np.ndarray) -> np.ndarray:
    if GROUPS.exists():
        with np.load(GROUPS) as f:
            kept: np.ndarray = f["groups"]
            return kept
    pos, g = candidates.collect_groups(Weights.load(Path("training/checkpoints/twoply-16c.npz")),
                                       rank18.COLLECTED, rank18.SEED, with_best=True)
    if not np.array_equal(pos, positions):
        raise SystemExit("the set's positions are not pass 18's collection")
    GROUPS.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(GROUPS, groups=g)
    return g


def outputs(w: Weights, xs: np.ndarray, nets: np.ndarray) -> np.ndarray:
    out = np.zeros((len(xs), 5), dtype=np.float32)
    for net in (CONTACT, RACE):
        i = nets == net
        params = refine.layer_params(w, net)
        if i.any():
            out[i] = refine.forward(params, xs[i])[-1]
    return out


def main() -> None:
    start = int(sys.argv[1])
    d = refine.Dataset.load(Path("training/sets/cand2-18.partial.npz"))
    g = groups(d.positions)
    labelled = ~np.isnan(d.targets).any(axis=1)
    # Whole rolls only: all siblings labelled, none before ``start``.
    ids, inv = np.unique(g, return_inverse=True)
    ok = np.bincount(inv, weights=labelled & (np.arange(len(g)) >= start)) == np.bincount(inv)
    keep = ok[inv] & (np.bincount(inv)[inv] >= 2)
    idx = np.flatnonzero(keep)
    t = d.targets[idx] @ rank18.EQUITY
    kg = inv[idx]
    xs, nets = rank18.encoded(d.positions[idx])
    rolls = len(np.unique(kg))
    best_t = np.full(len(ids), np.inf)
    np.minimum.at(best_t, kg, t)
    print(f"{rolls} rolls ({len(idx)} positions) from position {start} on")
    for path in sys.argv[2:]:
        e = outputs(Weights.load(Path(path)), xs, nets) @ rank18.EQUITY
        # The sibling the network takes: its lowest equity (first on ties).
        order = np.lexsort((e, kg))
        first = np.ones(len(order), dtype=bool)
        first[1:] = kg[order][1:] != kg[order][:-1]
        chosen = order[first]
        loss = t[chosen] - best_t[kg[chosen]]
        print(f"{path}: 2-ply's choice {np.mean(loss == 0):.4f}, "
              f"mean loss {loss.mean():.5f} per roll (+/- {1.96 * loss.std() / np.sqrt(len(loss)):.5f})")


if __name__ == "__main__":
    main()
