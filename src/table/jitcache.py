"""How Table's functions are compiled: numba's ``njit``, once per argument types, cached in one
folder per version of the compiled sources.

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
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import numba
from numba.core import types

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

F = TypeVar("F", bound=Callable[..., Any])
unliteral: Callable[[Any], Any] = types.unliteral  # the type of a value, less the value

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


def njit(**options: Any) -> Callable[[F], Dispatcher[F]]:
    """numba's ``njit(**options)``, but a compiled caller's constant arguments are typed by their
    type, not their value.

    Numba compiles a function called from compiled code once per *literal* argument:
    ``evaluate(..., 0)`` and ``evaluate(..., 1)`` were two more compilations of the search
    besides the one for any ``int``, each with all it inlines.  Without them the bot's first move
    compiles in 48 s of CPU instead of 109 s, and its first cube decision in 1 s instead of 8 s.

    >>> @njit(cache=False)
    ... def twice(x):
    ...     return 2 * x
    >>> @njit(cache=False)
    ... def both():
    ...     return twice(1) + twice(2)
    >>> both(), [str(sig) for sig in twice.signatures]
    (6, ['(int64,)'])
    """
    def compile_(func: F) -> Dispatcher[F]:
        dispatcher: Dispatcher[F] = numba.njit(**options)(func)
        by_types = dispatcher.get_call_template

        def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
            return by_types(tuple(unliteral(a) for a in args), {k: unliteral(v) for k, v in kws.items()})

        # numba's type of a compiled callee asks its dispatcher for this template (the hook it has)
        setattr(dispatcher, "get_call_template", get_call_template)
        return dispatcher
    return compile_


configure()
