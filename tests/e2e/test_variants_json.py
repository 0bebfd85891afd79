"""The browser's variant table (src/table/web/js/engine/variants.json) is generated from Python's.

scripts/export-web-variants writes it from table.rules.variant.VARIANTS; the committed file must
be exactly what the script writes now, so a change to a variant never leaves the browser behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from table import Position
from table.rules.variant import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "src" / "table" / "web" / "js" / "engine" / "variants.json"


def test_the_committed_variants_json_is_what_python_generates(tmp_path):
    out = tmp_path / "variants.json"
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "export-web-variants"), "--out", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert out.read_text(encoding="utf-8") == COMMITTED.read_text(encoding="utf-8"), \
        "src/table/web/js/engine/variants.json is stale: run scripts/export-web-variants"


def test_the_json_holds_every_variant_with_its_start():
    table = json.loads(COMMITTED.read_text(encoding="utf-8"))["variants"]
    assert list(table) == list(VARIANTS)
    for name, v in VARIANTS.items():
        row = table[name]
        assert row["board"] == list(Position.initial(name).board)
        assert row["positionId"] == Position.initial(name).id
        assert (row["matName"], row["sgfName"], row["scoring"], row["checkers"]) == \
            (v.mat_name, v.sgf_name, list(v.scoring), v.checkers)
    assert table["nackgammon"]["positionId"] == "4Dl4ADbgOXgANg"


def test_every_variant_has_its_name_in_both_languages():
    # The new-game form offers every variant of the table, named from the catalogues.
    for lang in ("ro", "en"):
        words = json.loads((ROOT / "src" / "table" / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for name in VARIANTS:
            assert words.get(f"variant_{name}", "").strip(), f"{lang}.json has no variant_{name}"
