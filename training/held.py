"""Back and holding games: the positions the network misjudges most (issue 13).

A position is *held* when there is contact, one side leads the race by ``lead`` pips or
more, and the other side holds two or more points in the leader's home board.  The
network, taught by its own play and look-ahead, rates the leader far too well in them
(``training/backgame_bias.py``); full-length rollouts by its own 0-ply play do not carry
that bias, so they label these positions for ``training/held13.sh``.

Usage (from the repository root, PYTHONPATH=src or the package installed)::

    python3 training/held.py split SOURCE HELD REST LEAD TRIALS DEPTH

writes the held positions (lead LEAD+, either side on roll) of the labelled set SOURCE as
an unlabelled partial set for ``table refine --label rollout --trials TRIALS --depth DEPTH
--data HELD`` to label (resumably), and the others, with their labels, to REST.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from table.bot.net import N_OUTPUTS
from table.bot.train.refine import Dataset, partial_path
from table.bot.train.rollout import labeller

_POINTS = np.arange(26)


def leader_held(boards: np.ndarray, lead: int = 40) -> np.ndarray:
    """Mask of boards (player on roll's view) where the player on roll leads by ``lead``+ pips
    and the opponent, in contact, holds 2+ points in his home board.

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
    anchors = (b[:, 1:7] <= -2).sum(axis=1)
    return np.asarray(contact & (theirs - mine >= lead) & (anchors >= 2))


def held(boards: np.ndarray, lead: int = 40) -> np.ndarray:
    """Mask of held boards, whichever side leads (the other view: reversed and negated)."""
    return leader_held(boards, lead) | leader_held(-boards[:, ::-1], lead)


def split(source: Path, held_path: Path, rest_path: Path, lead: int, kind: str) -> None:
    data = Dataset.load(source).labelled()
    mask = held(data.positions, lead)
    pos = data.positions[mask]
    Dataset(pos, np.full((len(pos), N_OUTPUTS), np.nan, dtype=np.float32),
            kind).save(partial_path(held_path))
    Dataset(data.positions[~mask], data.targets[~mask], data.kind).save(rest_path)
    print(f"{source}: {len(pos)} held (lead {lead}+) -> {partial_path(held_path)}, "
          f"{int((~mask).sum())} others -> {rest_path}")


if __name__ == "__main__":
    if len(sys.argv) != 8 or sys.argv[1] != "split":
        sys.exit(__doc__)
    trials, depth = int(sys.argv[6]), int(sys.argv[7])
    split(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5]),
          labeller(trials, depth, 0).kind)
