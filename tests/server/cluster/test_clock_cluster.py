"""Clocks across a change of owner between `table serve --redis` workers (a kill -9, a handover):
the decision that was timing goes on from where it stood when its owner last noted serving it (in
Redis, per partition, every beat and at a handover), and nobody's reserve grows.

Needs TABLE_TEST_POSTGRES_URL and TABLE_TEST_REDIS_URL, as tests/server/cluster/test_cluster.py."""

from __future__ import annotations

import time
import urllib.error
from typing import Any

import pytest

from table.server.cluster.partitions import partition_of
from table.server.store import open_storage

from tests.server.cluster.test_cluster import PG, REDIS, Workers, eventually, health, seated, workers  # noqa: F401 - fixture
from tests.server.test_clock_restart import clock_of as clock_now

pytestmark = pytest.mark.skipif(not (PG and REDIS),
                                reason="set TABLE_TEST_POSTGRES_URL and TABLE_TEST_REDIS_URL (scripts/test does)")


def noted(workers: Workers, game: str) -> float | None:
    """When the owner of ``game``'s partition last noted serving it."""
    import redis
    value = redis.Redis.from_url(workers.redis).hget(f"{workers.prefix}:served", str(partition_of(game, 64)))
    return None if value is None else float(value)


def serves(workers: Workers, i: int, game: str) -> bool:
    """Whether worker ``i`` serves ``game`` now."""
    h = health(workers.urls[i])
    return h is not None and partition_of(game, 64) in h["partitions"]  # type: ignore[operator]


def clock_of(url: str, game: str) -> dict[str, Any]:
    """The game's clock as a client reads it: while the game's partition is changing hands the worker
    answers 503 ``moved`` with Retry-After, and a client asks again."""
    read: list[dict[str, Any]] = []

    def answered() -> bool:
        try:
            read.append(clock_now(url, game))
        except urllib.error.HTTPError as exc:
            if exc.code != 503:
                raise
            return False
        return True

    eventually(answered, 30, "the game's worker kept answering 503")
    return read[0]


def stored(workers: Workers, game: str) -> dict[str, Any]:
    storage = open_storage(workers.db)
    try:
        saved = storage.load_clock(game)
    finally:
        storage.close()
    assert saved is not None
    return saved[0]


def test_a_worker_taking_a_dead_ones_games_gives_back_only_the_time_nobody_served_them(workers: Workers) -> None:
    urls = [workers.start(), workers.start()]
    workers.shared()
    _, _, game = seated(urls, 3, clock="rapid")  # 8 s a decision, 3 x 20 s of reserve; nobody plays
    assert workers.owner(game) == 1
    before = clock_of(urls[0], game)
    seat = before["running"]
    started = before["deadline"] - 8.0 - 60.0
    eventually(lambda: (noted(workers, game) or 0.0) >= started + 3, 20, "the owner noted nothing")
    workers.procs[1].kill()  # kill -9
    workers.procs[1].wait()
    last = noted(workers, game)
    killed = time.time()
    assert last is not None
    eventually(lambda: serves(workers, 0, game), 60, "the survivor did not take the game's partition")
    eventually(lambda: stored(workers, game)["started"] != started, 30, "the survivor did not load the game")
    after = clock_of(urls[0], game)
    clock = stored(workers, game)
    assert after["running"] == seat and clock["reserve"] == [60.0, 60.0]  # no grace for anyone
    # It went on from the last note: loaded at ``resumed``, with ``last - started`` used by then.
    resumed = clock["started"] + (last - started)
    assert killed <= resumed <= after["now"]


def test_a_handed_over_game_goes_on_where_it_stood(workers: Workers) -> None:
    url = workers.start()
    eventually(lambda: len((health(url) or {}).get("partitions", [])) == 64, 30, "one worker did not take all")
    # A game in the partitions the first worker hands over when a second one comes (its highest half).
    while True:
        _, _, game = seated([url, url], 3, clock="rapid")
        if partition_of(game, 64) >= 32:
            break
    before = clock_of(url, game)
    started = before["deadline"] - 8.0 - 60.0
    eventually(lambda: (noted(workers, game) or 0.0) >= started + 2, 20, "the owner noted nothing")
    joined = time.time()  # the handover comes after this
    workers.start()
    eventually(lambda: serves(workers, 1, game), 60, "the game was not handed over")
    eventually(lambda: stored(workers, game)["started"] != started, 30, "the new owner did not load the game")
    after = clock_of(url, game)
    clock = stored(workers, game)
    assert after["running"] == before["running"] and clock["reserve"] == [60.0, 60.0]  # no grace for anyone
    # By the state's time the decision has used at least what it had used at the handover (which came
    # after ``joined``), and never more than the time since it began.
    used = after["now"] - clock["started"]
    assert joined - started <= used <= after["now"] - started
