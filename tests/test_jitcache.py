"""Every compiled function goes through ``table.jitcache.njit`` (compiled once per argument types)."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "table"
NUMBAS_OWN = re.compile(r"from numba import [^\n]*\b(njit|jit)\b|numba\.(njit|jit)\(")


def test_compiled_functions_use_the_projects_njit():
    # numba's own decorator compiles a callee again for each constant argument a compiled caller
    # passes it: the search was compiled four times over.
    offenders = [str(p.relative_to(SRC)) for p in sorted(SRC.rglob("*.py"))
                 if p.name != "jitcache.py" and NUMBAS_OWN.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    assert sum("from table.jitcache import njit" in p.read_text(encoding="utf-8") for p in SRC.rglob("*.py")) >= 20
