"""How a server process keeps its memory: settled for a long life, given back when the load falls.

A server makes many short-lived objects per move and keeps few for long; the
garbage collector's default settings suit neither.  ``settle_memory`` runs
once before serving; then ``keep_memory`` collects the youngest generation every
``YOUNG_SECONDS``, and a ``MemoryKeeper`` decides every ``RECENT_SECONDS`` what becomes of
the older ones: while the tables are busy, what reached them since the last tick is set
aside unwalked; once the load falls, everything is collected.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import gc
import os
import sys
from collections.abc import Callable

YOUNG_THRESHOLD = 10_000
"""Objects made (less those freed) between two collections of the youngest generation."""
MIDDLE_THRESHOLD = 10
"""Young collections between two collections of the middle generation (the default), where the
collector starts them itself (a process with no keeper).  Under a server's keeper the middle
generation is never walked: what reaches it is set aside every ``RECENT_SECONDS``."""
YOUNG_SECONDS = 0.1
"""How often a server's keeper collects the youngest generation itself (``keep_memory``).  The
collector's own trigger counts objects made less objects freed, and under load the rooms' older
states die as fast as new ones are made: with 1,000 tables the youngest generation held 40,000
to 90,000 live objects when its pass came, a pause of 25 to 85 ms each.  A pass every tenth of
a second walks what that tenth of a second kept alive."""
NEVER = 2**31 - 1
"""A threshold of the oldest generation that is never reached: it is collected only when asked."""
RECENT_SECONDS = 2.0
"""How often the objects that reached the oldest generation since the last tick are set aside
(``set_recent_aside``), so that no young or middle pass walks them again."""
FULL_COLLECTION_SECONDS = 3600.0
"""The longest time between two full collections while the load never falls: what a closed
connection leaves in reference cycles among objects already set aside waits at most this long."""


def settle_memory() -> None:
    """Ready the garbage collector for a long-lived server; call once, before serving.

    What is loaded by now (modules, the network, the compiled move generator)
    lives as long as the process: frozen, it is no longer walked by every full
    collection.  Young collections run less often: each move makes many
    short-lived objects, and a pass over more of them costs little more.

    The oldest generation is not collected automatically at all.  It holds the
    rooms being played and their connections: with 1,000 tables, half a million
    objects, a walk of about a second that stalls every table and frees almost
    nothing (rooms are freed by their reference counts, not by the collector).
    A ``MemoryKeeper`` sets its newcomers aside instead, and collects it all once the load falls.
    """
    from table.rules.movegraph import move_graph
    from table.rules.position import Position

    # Loads (or compiles) the move generators and the move graph's walk now, before serving, so
    # that the first roll does not wait for them and what they load is frozen too.
    for variant in ("standard", "race"):
        move_graph(Position.initial(variant), (3, 1))
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, NEVER)
    _trim()  # what loading freed (the compilers' work above all) goes back before serving


def settled() -> bool:
    """Whether ``settle_memory`` has run in this process (the oldest generation is then left to a keeper).

    A server embedded in another program (a test, a notebook) leaves that program's collector
    as it was, and no keeper freezes its objects.
    """
    return gc.get_threshold()[2] == NEVER


def set_recent_aside() -> None:
    """Set aside what reached the oldest generation (or any) since the last call, without walking it.

    Under load almost all of it is alive or freed by its reference count: with 1,000 tables,
    a pass that walked two seconds' newcomers took 60-150 ms, stalled every table meanwhile,
    and freed nothing (0 objects in nine passes of ten).  Set aside (``gc.freeze``, which
    costs no walk), those objects are still freed by their reference counts; only a
    reference cycle among them waits for ``give_back_memory``.
    """
    gc.freeze()


def give_back_memory() -> None:
    """Collect everything, the objects set aside included, and hand free pages back to the system.

    Collections run on allocations, so after the last games of a busy hour
    nothing would collect their rooms' cycles until the next busy hour; and
    the C allocator keeps freed pages unless asked (glibc's ``malloc_trim``).
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _trim()


class MemoryKeeper:
    """Decides, on each ``tick``, which collection the oldest generation gets.

    While the tables are busy, none: the newcomers are set aside (``set_recent_aside``); once the rooms held
    have fallen to a quarter of their peak since the last full collection (the load has
    fallen: a full pass then stalls few tables), or ``FULL_COLLECTION_SECONDS`` have passed,
    everything (``give_back_memory``).

    >>> done = []
    >>> keeper = MemoryKeeper(lambda: 0.0, lambda: done.append("recent"), lambda: done.append("full"))
    >>> keeper.tick(400), keeper.tick(150), keeper.tick(100), done
    ('recent', 'recent', 'full', ['recent', 'recent', 'full'])
    """

    def __init__(self, clock: Callable[[], float], recent: Callable[[], None] = set_recent_aside,
                 full: Callable[[], None] = give_back_memory) -> None:
        self.clock = clock
        self.recent = recent
        self.full = full
        self.peak = 0  # the most rooms held since the last full collection
        self.full_at = clock()

    def tick(self, held: int) -> str:
        """Collect as the rooms held now call for; say which ("recent" or "full")."""
        now = self.clock()
        self.peak = max(self.peak, held)
        if held <= self.peak // 4 < self.peak or now - self.full_at >= FULL_COLLECTION_SECONDS:
            self.full()
            self.peak = held
            self.full_at = now
            return "full"
        self.recent()
        return "recent"


def use_the_c_allocator() -> None:
    """Start this ``table serve`` process again (the same process id) on the C library's allocator.

    Python's small-object allocator gives a 1 MiB arena back to the system only once every
    object in it is gone, and after a busy hour a few long-lived objects hold most of them:
    measured after 1,000 tables had come and gone, 178 arenas were held for 76 MB of objects.
    glibc's allocator gives back every free page on ``malloc_trim`` (``give_back_memory``).
    Nothing is done where ``PYTHONMALLOC`` is set already (whatever its value, someone chose
    it; it is also what ends the restart), off glibc, or in a process not started as
    ``table serve`` (a test calling the command's function).
    """
    libc = _libc()
    if ("PYTHONMALLOC" in os.environ or sys.argv[1:2] != ["serve"] or libc is None
            or not hasattr(libc, "malloc_trim")):
        return
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable, "-m", "table", *sys.argv[1:]], {**os.environ, "PYTHONMALLOC": "malloc"})


async def keep_memory(held: Callable[[], int], keeper: MemoryKeeper, period: float = RECENT_SECONDS,
                      young: float = YOUNG_SECONDS) -> None:
    """Collect the youngest generation every ``young`` seconds and tick ``keeper`` with the rooms
    ``held`` every ``period`` seconds (runs until cancelled; the collector's own young passes
    are off meanwhile, and on again after)."""
    loop = asyncio.get_running_loop()
    automatic = gc.get_threshold()
    gc.set_threshold(NEVER, *automatic[1:])
    try:
        due = loop.time() + period
        while True:
            await asyncio.sleep(young)
            gc.collect(0)
            if loop.time() >= due:
                keeper.tick(held())
                due = loop.time() + period
    finally:
        gc.set_threshold(*automatic)


def _trim() -> None:
    libc = _libc()
    if libc is not None and hasattr(libc, "malloc_trim"):  # glibc only
        libc.malloc_trim(0)


@functools.cache
def _libc() -> ctypes.CDLL | None:
    # Loaded once: each load makes a few objects in reference cycles.
    name = ctypes.util.find_library("c")
    return None if name is None else ctypes.CDLL(name)
