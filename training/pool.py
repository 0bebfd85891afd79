"""Pool benchmark chunks recorded in $BENCH: the same match played with several seeds.

$BENCH is training/bench.txt (the pipeline's record) unless set; the research record of every
measurement so far is research/bench.txt.  Usage (from the repository root):

    BENCH=research/bench.txt python3 training/pool.py "hard:2:8,2:0.16,0.04 training/checkpoints/refine-3.npz:1 --games 1000"

Every recorded command that starts with ``python3 -m table bench strength`` followed by the
given text is one chunk; chunks of equal size are pooled: the mean of their means, and a 95%
interval from their intervals (independent games, so the variances add).
"""

from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path

RESULT = re.compile(r": ([+-]\d+\.\d+) ppg \+/- (\d+\.\d+) \(95% CI\), (\d+) games")


def chunks(text: str, prefix: str) -> list[tuple[float, float, int]]:
    """(mean, 95% half-width, games) of each recorded run whose command starts with ``prefix``."""
    lines = text.splitlines()
    out = []
    want = f"$ python3 -m table bench strength {prefix}"
    for i, line in enumerate(lines[:-1]):
        if line.startswith(want):
            m = RESULT.search(lines[i + 1])
            if m:
                out.append((float(m.group(1)), float(m.group(2)), int(m.group(3))))
    return out


def main() -> int:
    prefix = sys.argv[1]
    found = chunks(Path(os.environ.get("BENCH", "training/bench.txt")).read_text(encoding="utf-8"), prefix)
    if not found:
        print(f"no recorded run starts with {prefix!r}")
        return 1
    if len({g for _, _, g in found}) != 1:
        print("chunks of different sizes: pool them by hand")
        return 1
    k = len(found)
    mean = sum(m for m, _, _ in found) / k
    ci = math.sqrt(sum(c * c for _, c, _ in found)) / k
    print(f"{prefix}: {mean:+.3f} ppg +/- {ci:.3f} (95% CI), {k} chunks, "
          f"{sum(g for _, _, g in found)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
