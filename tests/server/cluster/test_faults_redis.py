"""Redis restarted in the middle of a match between players on two workers.

Before the fix the workers never read a command again after Redis came back empty (its consumer
groups gone: NOGROUP, logged every second): the player whose socket went through the other
worker waited forever.

The test runs a Redis server of its own (so that stopping it touches no other test) and two
`table serve --redis` workers over a PostgreSQL schema of its own.  While Redis is down a
request the other worker must carry to the game's owner is answered 503 with Retry-After; once
it is back the players (bots that reconnect when their socket closes) finish the match, and
every state either of them was sent is the stored game at that version: nothing acknowledged
was lost.  Needs TABLE_TEST_POSTGRES_URL and Debian's redis-server (scripts/test provides both).
"""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.storage_fixtures import PG, postgres_schema
from tests.server.cluster.test_cluster import Player, Workers, eventually, free_port, replayed_ids, seated

pytestmark = pytest.mark.skipif(not PG, reason="set TABLE_TEST_POSTGRES_URL (scripts/test does)")


class OwnRedis:
    """A Redis server on a loopback port, that the test may stop and start again."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (scripts/redis-for-tests installs it)")
        self.binary, self.folder, self.port = binary, folder, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen([self.binary, "--bind", "127.0.0.1", "--port", str(self.port),
                                         "--dir", str(self.folder), "--save", "", "--appendonly", "no"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        eventually(lambda: self._pings(redis), 10, "redis-server did not start")

    def _pings(self, redis: object) -> bool:
        try:
            return bool(redis.Redis(port=self.port, socket_timeout=1).ping())  # type: ignore[attr-defined]
        except Exception:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[OwnRedis, Workers]]:
    pytest.importorskip("redis")
    own = OwnRedis(tmp_path)
    own.start()
    try:
        with postgres_schema() as url:
            group = Workers(url, own.url, tmp_path)
            try:
                yield own, group
            finally:
                group.stop()
    finally:
        own.stop()


def status_of(url: str) -> tuple[int, str | None]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers.get("retry-after")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("retry-after")
    except OSError:
        return 0, None


def test_redis_restarted_during_a_match_on_two_workers_loses_nothing(cluster: tuple[OwnRedis, Workers]) -> None:
    own, workers = cluster
    urls = [workers.start(), workers.start()]
    workers.shared()
    a, b, game = seated(urls, 1)
    other = urls[1 - workers.owner(game)]
    pa, pb = Player(a, game, [urls[0]]), Player(b, game, [urls[1]])
    pa.start()
    pb.start()
    eventually(lambda: len(pa.states) >= 6 or pa.error is not None, 60, "the match did not get going")

    own.stop()
    time.sleep(1.0)
    # The owner's partner cannot reach it: a clear refusal, to be retried, not a hang or a 500.
    assert status_of(f"{other}/api/games/{game}") == (503, "1")
    time.sleep(2.0)
    own.start()

    pa.join(240)
    pb.join(240)
    assert pa.error is None and pb.error is None, (pa.error, pb.error)
    last_a, last_b = pa.states[-1], pb.states[-1]
    assert last_a["version"] == last_b["version"] and last_a["view"]["over"]  # type: ignore[index]
    assert status_of(f"{other}/api/games/{game}")[0] == 200  # carried again
    forwarded = pa if urls[0] == other else pb
    assert forwarded.reconnects >= 1  # its socket, carried through Redis, was closed and came back
    ids = replayed_ids(workers.db, game)
    assert ids.entries == last_a["version"]  # type: ignore[attr-defined]
    for player in (pa, pb):
        for s in player.states:
            seat = s["seats"][0]  # type: ignore[index]
            assert s["view"]["ids"] == ids(s["version"], seat), s["version"]  # type: ignore[arg-type,index]
