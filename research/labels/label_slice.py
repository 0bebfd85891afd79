"""Label a slice of a partial set elsewhere (a lent machine with many cores), then merge it back.

A labelling pass keeps its positions in ``training/sets/NAME.partial.npz`` with NaN where no
label is made yet and resumes from the first NaN.  On a machine with more cores (see the
``device`` tool: numpy and numba there, not the web server's packages, so this avoids
``python3 -m table``), the next unlabelled positions can be labelled there and brought back:

    # there (an n-ply set)
    PYTHONPATH=src python3 research/labels/label_slice.py label training/sets/cand2-18.partial.npz \\
        training/checkpoints/twoply-16c.npz 16 540 $OUT/slice.npz
    # here
    python3 research/labels/label_slice.py merge training/sets/cand2-18.partial.npz FETCHED/slice.npz

``label`` labels from the first unlabelled position on, in parts of 16,000 shared by ``JOBS``
processes, until ``SECONDS`` have gone by, and writes what it finished (offset and labels).
``merge`` writes them into the partial set if that set still lacks them (labels already made
here are kept).  The labels are the same as ``table refine`` would make for those positions.
"""

from __future__ import annotations

import sys
import time
import functools
from pathlib import Path

import numpy as np

from table.bot.net import Weights
from table.tools.train import refine

PART = 16_000  # positions per round: every process gets PART / JOBS of them


def _depth(kind: str) -> int:
    if kind.endswith("-ply"):
        return int(kind.split("-")[0])
    raise SystemExit(f"label_slice.py labels n-ply sets only, not {kind!r}")


def label(partial: Path, weights: Path, jobs: int, seconds: float, out: Path) -> None:
    d = refine.Dataset.load(partial)
    missing = np.flatnonzero(np.isnan(d.targets[:, 0]))
    if not len(missing):
        raise SystemExit(f"{partial} is labelled already")
    start = int(missing[0])
    part_fn = functools.partial(refine.label_part, Weights.load(weights), _depth(d.kind))
    t = time.monotonic()
    done: list[np.ndarray] = []
    at = start
    # n-ply labels are deterministic: the same however the positions are shared out.
    while at < len(d.positions) and time.monotonic() - t < seconds:
        chunk = d.positions[at:at + PART]
        done.append(refine.share(part_fn, chunk, jobs, part_size=len(chunk) // jobs + 1, start=at))
        at += len(chunk)
        print(f"labelled {at - start} from {start} ({(at - start) / (time.monotonic() - t):.0f}/s)",
              flush=True)
        np.savez_compressed(out, start=start, targets=np.concatenate(done), kind=np.str_(d.kind))


def merge(partial: Path, slice_path: Path) -> None:
    d = refine.Dataset.load(partial)
    with np.load(slice_path, allow_pickle=False) as s:
        start, targets, kind = int(s["start"]), s["targets"], str(s["kind"])
    if kind != d.kind:
        raise SystemExit(f"{slice_path} holds {kind} labels, {partial} {d.kind} ones")
    here = d.targets[start:start + len(targets)]
    new = np.isnan(here[:, 0])
    here[new] = targets[new]
    d.save(partial)
    print(f"merged {int(new.sum())} labels at {start}..{start + len(targets)} into {partial}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["label"] and len(sys.argv) == 7:
        label(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]),
              Path(sys.argv[6]))
    elif sys.argv[1:2] == ["merge"] and len(sys.argv) == 4:
        merge(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
