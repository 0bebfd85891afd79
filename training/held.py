"""Back and holding games: the positions the network misjudges most (issue 13).

A position is *held* when there is contact, one side leads the race by ``lead`` pips or
more, and the other side holds two or more points in the leader's home board.  The
network, taught by its own play and look-ahead, rates the leader far too well in them
(``research/rollouts/backgame_bias.py``); full-length rollouts by its own 0-ply play do not carry
that bias, so they label these positions for ``training/held13.sh``.

Usage (from the repository root, PYTHONPATH=src or the package installed)::

    python3 training/held.py split SOURCE HELD REST LEAD TRIALS DEPTH
    python3 training/held.py lead SOURCE OUT REST LEAD COUNT TRIALS DEPTH
    python3 training/held.py trim OUT COUNT SOURCE REST

``split`` writes the held positions (lead LEAD+, either side on roll) of the labelled set
SOURCE as an unlabelled partial set for ``table refine --label rollout --trials TRIALS
--depth DEPTH --data HELD`` to label (resumably), and the others, with their labels, to REST.
``lead`` does the same with COUNT positions drawn at random (seed 0) from SOURCE's contact
positions where either side leads the race by LEAD+ pips: the same bias, smaller, is there
too (pass 13's check: +0.07 at 40+ pips, +0.03 at 20-40, against 18-game rollouts).
With LEAD 0 it draws from all of SOURCE's contact positions (pass 14).
``trim`` keeps the first COUNT positions of OUT's partial set to be labelled and gives the
others back to REST with their labels in SOURCE (when a session has less time to label).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from table.bot.net import N_OUTPUTS
from table.tools.train.refine import Dataset, partial_path
from table.tools.train.rollout import labeller

_POINTS = np.arange(26)


def leader_held(boards: np.ndarray, lead: int = 40, anchors: int = 2) -> np.ndarray:
    """Mask of boards (player on roll's view) where the player on roll leads by ``lead``+ pips
    and the opponent, in contact, holds ``anchors``+ points in his home board.

    >>> from table.rules.position import Position
    >>> b = np.array([Position.from_checkers({6: 5, 5: 5, 4: 5}, {23: 2, 22: 2, 6: 11}).board])
    >>> leader_held(b).tolist(), leader_held(b[:, ::-1] * -1).tolist()
    ([True], [False])
    """
    b = boards.astype(np.int32)
    mine = (np.where(b > 0, b, 0) * _POINTS).sum(axis=1)
    theirs = (np.where(b < 0, -b, 0) * (25 - _POINTS)).sum(axis=1)
    has_mine, has_theirs = b > 0, b < 0
    my_back = np.where(has_mine.any(axis=1), 25 - np.argmax(has_mine[:, ::-1], axis=1), 0)
    their_back = np.where(has_theirs.any(axis=1), np.argmax(has_theirs, axis=1), 25)
    contact = my_back > their_back
    points = (b[:, 1:7] <= -2).sum(axis=1)
    return np.asarray(contact & (theirs - mine >= lead) & (points >= anchors))


def held(boards: np.ndarray, lead: int = 40) -> np.ndarray:
    """Mask of held boards, whichever side leads (the other view: reversed and negated)."""
    mask: np.ndarray = leader_held(boards, lead) | leader_held(-boards[:, ::-1], lead)
    return mask


def leading(boards: np.ndarray, lead: int) -> np.ndarray:
    """Mask of contact boards where either side leads the race by ``lead``+ pips."""
    mask: np.ndarray = (leader_held(boards, lead, anchors=0)
                        | leader_held(-boards[:, ::-1], lead, anchors=0))
    return mask


def split(source: Path, held_path: Path, rest_path: Path, lead: int, kind: str,
          count: int | None = None) -> None:
    data = Dataset.load(source).labelled()
    if count is None:
        mask = held(data.positions, lead)
    else:
        chosen = np.flatnonzero(leading(data.positions, lead))
        chosen = np.random.default_rng(0).choice(chosen, min(count, len(chosen)), replace=False)
        mask = np.zeros(len(data.positions), dtype=bool)
        mask[chosen] = True
    pos = data.positions[mask]
    Dataset(pos, np.full((len(pos), N_OUTPUTS), np.nan, dtype=np.float32),
            kind).save(partial_path(held_path))
    Dataset(data.positions[~mask], data.targets[~mask], data.kind).save(rest_path)
    print(f"{source}: {len(pos)} {'held' if count is None else 'leading'} (lead {lead}+) -> {partial_path(held_path)}, "
          f"{int((~mask).sum())} others -> {rest_path}")


def trim(out: Path, count: int, source: Path, rest_path: Path) -> None:
    part = Dataset.load(partial_path(out))
    if len(part.positions) <= count:
        return
    back = part.positions[count:]
    if not np.isnan(part.targets[count:]).all():
        raise SystemExit(f"{partial_path(out)}: positions after the first {count} are labelled already")
    src = Dataset.load(source).labelled()
    row = {b.tobytes(): i for i, b in enumerate(src.positions)}
    index = np.array([row[b.tobytes()] for b in back])
    rest = Dataset.load(rest_path)
    Dataset(part.positions[:count], part.targets[:count], part.kind).save(partial_path(out))
    Dataset(np.concatenate([rest.positions, back]), np.concatenate([rest.targets, src.targets[index]]),
            rest.kind).save(rest_path)
    print(f"{partial_path(out)}: kept the first {count} to label, {len(back)} back to {rest_path} "
          f"with their labels in {source}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["split"] and len(sys.argv) == 8:
        split(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5]),
              labeller(int(sys.argv[6]), int(sys.argv[7]), 0).kind)
    elif sys.argv[1:2] == ["lead"] and len(sys.argv) == 9:
        split(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5]),
              labeller(int(sys.argv[7]), int(sys.argv[8]), 0).kind, int(sys.argv[6]))
    elif sys.argv[1:2] == ["trim"] and len(sys.argv) == 6:
        trim(Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), Path(sys.argv[5]))
    else:
        sys.exit(__doc__)
