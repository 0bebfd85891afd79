"""How a server process keeps its memory: no full collection stalls the tables by itself; while
they are busy only the oldest generation's newcomers are walked; everything (and memory given back)
when the load falls and at least every ``FULL_COLLECTION_SECONDS``; a forgotten room leaves nothing
behind."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import weakref

import pytest

from table.rules.dice import SeededDice
from table.server.app import create_app
from table.server.edge.limits import Limits
from table.server.edge.memory import FULL_COLLECTION_SECONDS, RECENT_SECONDS, MemoryKeeper, settled
from table.server.store import open_storage

from tests.server.server_helpers import TestClient
from tests.server.test_room_lifecycle import clock, finish  # noqa: F401 - fixture

LIMITS = Limits(games_burst=100, room_idle_seconds=480)


@pytest.fixture
def client(tmp_path, clock):
    storage = open_storage(tmp_path / "g.sqlite3")
    with TestClient(create_app(storage, SeededDice(4), limits=LIMITS, clock=clock)) as c:
        yield c
    storage.close()


def test_a_settled_server_runs_no_full_collection_by_itself():
    # In a process of its own: settling changes the collector for the whole process.
    script = textwrap.dedent("""
        import gc
        from table.server.edge.memory import settle_memory
        settle_memory()
        passes = [0, 0, 0]
        gc.callbacks.append(lambda phase, info: phase == "stop" and passes.__setitem__(
            info["generation"], passes[info["generation"]] + 1))
        kept = []
        for i in range(1_500_000):  # objects that stay (the rooms' under load) and their garbage
            kept.append([])
            [i]
        print(passes)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    young, middle, full = eval(out.stdout)
    assert young > 100 and middle > 10  # the young generations are still collected ...
    assert full == 0  # ... the oldest only when asked


def _run(script: str) -> str:
    """Run ``script`` in a process of its own: settling changes the collector for the whole process."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=300, check=True).stdout


def test_a_recent_pass_sets_the_newcomers_aside_without_walking_them():
    out = _run("""
        import gc
        from table.server.edge.memory import set_recent_aside, settle_memory
        settle_memory()
        kept = [[i] for i in range(300_000)]  # the tables being played
        gc.collect(1)  # they reach the oldest generation, as they do under load
        in_oldest = len(gc.get_objects(2))
        passes = []
        gc.callbacks.append(lambda phase, info: phase == "start" and passes.append(info["generation"]))
        set_recent_aside()
        print([in_oldest, passes, len(gc.get_objects(2)), gc.get_freeze_count() >= 300_000])
    """)
    in_oldest, passes, left, frozen = eval(out)
    assert in_oldest >= 300_000
    assert passes == []  # no collection walked them (one took 60-150 ms with 1,000 tables) ...
    assert left == 0 and frozen  # ... they were set aside, out of every later young or full pass


def test_under_the_keeper_the_young_passes_are_timed_not_counted():
    # Under load old states die as fast as new ones are made, so the collector's count of
    # objects made less objects freed hardly grows while the young generation fills up.
    out = _run("""
        import asyncio, gc, time
        from table.server.edge.memory import NEVER, YOUNG_THRESHOLD, MemoryKeeper, keep_memory, settle_memory

        async def main():
            settle_memory()
            old = [[i] for i in range(60_000)]
            gc.freeze()  # the rooms' states, set aside
            passes, walked, done = [], [], asyncio.Event()
            def seen(phase, info):
                if phase == "start":
                    passes.append(info["generation"])
                    walked.append(len(gc.get_objects(0)))
                    done.set()
            keeper = asyncio.ensure_future(keep_memory(lambda: 1, MemoryKeeper(time.monotonic), young=0.01))
            await asyncio.sleep(0)  # the keeper starts
            gc.callbacks.append(seen)
            for i in range(60_000):  # each new state made as an old one dies
                old[i] = [i]
            made_unwalked = len(gc.get_objects(0))
            before_tick = list(passes)
            await asyncio.wait_for(done.wait(), 60)  # the keeper's first young pass
            gc.callbacks.remove(seen)
            off = gc.get_threshold()[0] == NEVER
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
            print([made_unwalked, before_tick, passes[0], walked[0], off, gc.get_threshold()[0] == YOUNG_THRESHOLD])

        asyncio.run(main())
    """)
    made_unwalked, before_tick, first, walked, off, restored = eval(out)
    assert made_unwalked >= 60_000 and before_tick == []  # the collector's count never fired ...
    assert first == 0 and walked >= 60_000  # ... the keeper's timed pass took the young generation
    assert off and restored  # the collector's own young passes are off under the keeper only


def test_giving_memory_back_frees_a_cycle_among_objects_set_aside():
    out = _run("""
        import gc, weakref
        from table.server.edge.memory import set_recent_aside, give_back_memory, settle_memory
        settle_memory()
        class Room:
            pass
        room = Room()
        room.me = room  # a forgotten room's reference cycle
        gone = weakref.ref(room)
        set_recent_aside()  # the room, alive, is set aside
        del room
        set_recent_aside()
        after_recent = gone() is None
        give_back_memory()
        print([after_recent, gone() is None, gc.get_threshold()[2] == 2**31 - 1])
    """)
    assert eval(out) == [False, True, True]  # only the full pass reaches it, and the collector stays settled


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_keeper_collects_only_newcomers_while_busy_and_everything_once_the_load_falls():
    clock = Clock()
    done: list[str] = []
    keeper = MemoryKeeper(clock, lambda: done.append("recent"), lambda: done.append("full"))
    for held in (1_000, 900, 600, 400, 251):
        clock.now += RECENT_SECONDS
        keeper.tick(held)
    assert done == ["recent"] * 5  # a quarter of the peak not reached yet
    keeper.tick(250)
    assert done[-1] == "full"  # a quarter of the 1,000: the load has fallen
    keeper.tick(250)
    keeper.tick(63)
    assert done[-2:] == ["recent", "recent"]  # the peak starts again from the 250 held then
    keeper.tick(62)
    assert done[-1] == "full"
    keeper.tick(40)
    keeper.tick(0)
    assert done[-2:] == ["recent", "full"]  # the last room left


def test_the_keeper_collects_everything_at_least_hourly_under_a_load_that_never_falls():
    clock = Clock()
    done: list[str] = []
    keeper = MemoryKeeper(clock, lambda: done.append("recent"), lambda: done.append("full"))
    while clock.now < FULL_COLLECTION_SECONDS - RECENT_SECONDS:
        clock.now += RECENT_SECONDS
        keeper.tick(1_000)
    assert set(done) == {"recent"}
    clock.now += RECENT_SECONDS
    keeper.tick(1_000)
    assert done[-1] == "full"


def test_a_server_embedded_in_another_program_leaves_its_collector_alone(client):
    # This test process never settled its memory: the app starts no keeper that would freeze its objects.
    assert not settled()
    before = gc.get_freeze_count()
    client.post("/api/games", json={"mode": "local", "length": 1})
    assert gc.get_freeze_count() == before


def test_a_forgotten_room_leaves_memory(client, clock):
    rooms = client.app.state.rooms
    g = client.post("/api/games", json={"mode": "local", "length": 1}).json()
    finish(client, g)
    room = weakref.ref(rooms._rooms[g["game"]])
    game = weakref.ref(rooms._rooms[g["game"]].game)
    clock.now += LIMITS.room_idle_seconds
    assert rooms.sweep() == [g["game"]]
    gc.collect()
    assert room() is None and game() is None
