"""Where numba keeps the compiled code: one folder per version of the compiled sources.

Numba's own cache checks only the file of each compiled function, so a function in
``search.py`` kept the code it had inlined from ``net.py`` after ``net.py`` changed: a silent
mixture of old and new code until the cache was deleted by hand.  Keying the folder by a hash
of every source that compiled code is made from makes any change start a fresh cache.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     root = pathlib.Path(d)
...     (root / "rules").mkdir()
...     _ = (root / "rules" / "kernel.py").write_text("x = 1")
...     before = cache_dir(root)
...     _ = (root / "rules" / "kernel.py").write_text("x = 2")
...     before != cache_dir(root)
True
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent
SOURCES = ("rules", "bot", "tools", "tools/train")  # the folders whose modules hold compiled functions
STALE_AFTER = 86400.0  # seconds unused before another version's folder is removed


def cache_dir(root: Path = ROOT) -> Path:
    """The cache folder for the compiled sources under ``root`` as they are now."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((root / folder).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return root / "__pycache__" / f"numba-{digest.hexdigest()[:16]}"


def configure() -> None:
    """Point numba at this version's folder, unless the user chose one (``NUMBA_CACHE_DIR``).

    Must run before the first compiled function is defined.  Numba falls back to its
    own places when the folder cannot be written (a read-only install).  Other versions'
    folders not written to for a day are removed.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = cache_dir()
    setattr(numba.config, "CACHE_DIR", str(here))  # numba reads it as each compiled function is defined
    for other in here.parent.glob("numba-*"):
        try:
            if other != here and time.time() - other.stat().st_mtime > STALE_AFTER:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:  # pragma: no cover - removed by another process meanwhile
            pass


configure()
