"""Keep the first N labelled positions of a labelling pass as a dataset of their own.

A pass labels its positions in order, so its first N are the same whether it has finished
(``STEM.npz``) or is still going (``STEM.partial.npz``): a network fitted to them can be
made again later from either file.

Usage: python3 training/first_labelled.py training/data/rollout-9 600000 OUT.npz
"""
import sys
from pathlib import Path

from table.tools.train.refine import Dataset


def main(stem: str, count: int, out: Path) -> None:
    src = Path(stem + ".npz")
    if not src.exists():
        src = Path(stem + ".partial.npz")
    d = Dataset.load(src)
    first = Dataset(d.positions[:count], d.targets[:count], d.kind).labelled()
    if len(first.positions) != count:
        raise SystemExit(f"{src} has only {len(first.positions)} of its first {count} "
                         "positions labelled yet")
    first.save(out)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
