"""Regenerate tests/rules/data/perft.json: exact play counts from the naive oracle.

Run from the repository root: ``python3 -m tests.rules.make_perft``.  The
positions come from seeded random games and are stored by Position ID, so
the fixture stays fixed even if the corpus code changes; the counts come from
the oracle, not from the engine under test.
"""

from __future__ import annotations

import json
from pathlib import Path

from table.tools.corpus import random_positions

from .oracle import oracle_results

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
OUT = Path(__file__).parent / "data" / "perft.json"


def main() -> None:
    rows = []
    for position in random_positions(300, seed=7):
        counts = [len(oracle_results(position.board, roll)) for roll in ROLLS]
        rows.append({"id": position.id, "counts": counts})
    data = {"rolls": ["%d%d" % r for r in ROLLS], "positions": rows,
            "total": sum(sum(r["counts"]) for r in rows)}
    lines = ",\n".join(json.dumps(r) for r in rows)
    OUT.write_text(
        f'{{"rolls": {json.dumps(data["rolls"])},\n"total": {data["total"]},\n'
        f'"positions": [\n{lines}\n]}}\n'
    )
    print(f"{len(rows)} positions, {data['total']} plays -> {OUT}")


if __name__ == "__main__":
    main()
