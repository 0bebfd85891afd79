"""How a server process keeps its memory: settled for a long life, given back when the load falls.

A server makes many short-lived objects per move and keeps few for long; the
garbage collector's default settings suit neither.  ``settle_memory`` runs
once before serving; ``give_back_memory`` after many rooms were forgotten, and
at least every ``FULL_COLLECTION_SECONDS`` (``Rooms.sweep`` calls it).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc

YOUNG_THRESHOLD = 10_000
"""Objects made (less those freed) between two collections of the youngest generation."""
NEVER = 2**31 - 1
"""A threshold of the oldest generation that is never reached: it is collected only when asked."""
FULL_COLLECTION_SECONDS = 120.0
"""The longest time between two full collections (``Rooms.sweep``): what a closed connection
leaves in reference cycles among old objects waits at most this long (one pass with 1,000 rooms
held costs about 150 ms of CPU)."""


def settle_memory() -> None:
    """Ready the garbage collector for a long-lived server; call once, before serving.

    What is loaded by now (modules, the network, the compiled move generator)
    lives as long as the process: frozen, it is no longer walked by every full
    collection.  Young collections run less often: each move makes many
    short-lived objects, and a pass over more of them costs little more.

    The oldest generation is not collected automatically at all.  It holds the
    rooms being played, and a pass over them stalls every table: with 1,000 rooms
    held it walks 155,000 objects, about 150 ms of CPU, and frees almost nothing
    (rooms are freed by their reference counts, not by the collector).  It is
    collected by ``give_back_memory`` instead: when the load falls, and at least
    every ``FULL_COLLECTION_SECONDS``.
    """
    from table.rules.movegraph import move_graph
    from table.rules.position import Position

    # Loads (or compiles) the move generators and the move graph's walk now, before serving, so
    # that the first roll does not wait for them and what they load is frozen too.
    for variant in ("standard", "race"):
        move_graph(Position.initial(variant), (3, 1))
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 10, NEVER)


def give_back_memory() -> None:
    """Collect what the forgotten rooms left in reference cycles and hand free pages back to the system.

    Collections run on allocations, so after the last games of a busy hour
    nothing would collect their rooms' cycles until the next busy hour; and
    the C allocator keeps freed pages unless asked (glibc's ``malloc_trim``).
    """
    gc.collect()
    _trim()


def _trim() -> None:
    name = ctypes.util.find_library("c")
    if name is None:  # pragma: no cover - not a C library we know
        return
    libc = ctypes.CDLL(name)
    if hasattr(libc, "malloc_trim"):  # glibc only
        libc.malloc_trim(0)
