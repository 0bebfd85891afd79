"""The compiled code's cache folder is keyed by every module that compiled code is made from."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from table import jitcache

_CACHED = re.compile(r"@(numba\.)?njit\([^)]*cache=True")


def test_every_module_with_cached_compiled_functions_is_hashed() -> None:
    compiled = {p.parent.relative_to(jitcache.ROOT).as_posix()
                for p in jitcache.ROOT.rglob("*.py") if _CACHED.search(p.read_text(encoding="utf-8"))}
    assert {"rules", "bot", "tools", "tools/train"} <= compiled  # the scan finds them
    assert compiled <= set(jitcache.SOURCES)


def test_an_edit_in_a_tools_module_starts_a_fresh_cache(tmp_path: Path) -> None:
    for folder in jitcache.SOURCES:
        shutil.copytree(jitcache.ROOT / folder, tmp_path / folder, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.npz", "*.txt"))
    for module in ("tools/duel.py", "tools/train/refine.py"):
        before = jitcache.cache_dir(tmp_path)
        path = tmp_path / module
        path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        assert jitcache.cache_dir(tmp_path) != before, module
