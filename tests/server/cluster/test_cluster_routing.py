"""Which process serves what, without any server: routing, game ids, and rooms let go of.

(tests/server/cluster/test_cluster.py runs real processes over PostgreSQL and Redis.)
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("redis.asyncio")

from table.server.cluster.member import Cluster  # noqa: E402
from table.server.cluster.partitions import partition_of  # noqa: E402
from table.server.cluster.routed import TUNNELLED, local_scope, wire_scope  # noqa: E402
from table.server.cluster.settings import ClusterSettings  # noqa: E402
from table.server.edge.outbox import Outbox  # noqa: E402
from table.server.play.rooms import MOVED_CODE, RoomError, Rooms, Watcher  # noqa: E402
from table.server.protocol import parse_client  # noqa: E402
from table.server.store import open_storage  # noqa: E402


def cluster(owned: set[int] = frozenset()) -> Cluster:  # type: ignore[assignment]
    c = Cluster(ClusterSettings(database="postgresql://nobody@127.0.0.1/none", redis="redis://127.0.0.1:1/0"))
    c.owned = set(owned)
    return c


@pytest.mark.parametrize(("path", "method", "key"), [
    ("/ws/games/Ab_9-x", None, "Ab_9-x"),
    ("/api/games/Ab_9-x", "GET", "Ab_9-x"),
    ("/api/games/Ab_9-x/actions", "POST", "Ab_9-x"),
    ("/api/games/Ab_9-x/review", "POST", "Ab_9-x"),
    ("/api/review/import-Zz9", "GET", "Zz9"),
    ("/api/games", "POST", None),  # a new game: made here, in a partition of this process
    ("/api/tables/T1/join", "POST", None),  # joining starts the game here too
    ("/api/tables/T1/leave", "POST", None),  # no online tables in this test: refused here as anywhere
    ("/api/players/ana", "GET", None),
    ("/ws/lobby", None, None),
    ("/static/js/main.js", "GET", None),
    ("/ws/games/" + "x" * 65, None, None),  # not a game id: the app refuses it
])
def test_requests_for_a_game_go_to_its_owner_and_the_rest_stay(path: str, method: str | None,
                                                               key: str | None) -> None:
    scope = {"type": "http" if method else "websocket", "path": path, "method": method}
    assert asyncio.run(cluster().route_key(scope)) == key


def test_a_carried_scope_arrives_as_it_was_sent_and_marked() -> None:
    scope = {"type": "http", "path": "/api/games/g1/hint", "method": "GET", "query_string": b"lang=ro&x=%C8%99",
             "headers": [(b"authorization", b"Bearer t0k"), (b"x-odd", "ș".encode())],
             "client": ("10.1.2.3", 5555), "server": ("127.0.0.1", 8000), "scheme": "http", "http_version": "1.1"}
    back = local_scope(wire_scope(scope))
    for k in ("type", "path", "method", "query_string", "headers", "client", "server", "scheme", "http_version"):
        assert back[k] == scope[k], k
    assert back[TUNNELLED] is True and "subprotocols" not in back
    ws = local_scope(wire_scope({**scope, "type": "websocket", "method": None}))
    assert ws["subprotocols"] == [] and "method" not in ws


def test_new_games_get_ids_in_the_partitions_this_process_owns() -> None:
    c = cluster({3, 41})
    ids = [c.new_id() for _ in range(200)]
    assert {partition_of(i, 64) for i in ids} == {3, 41}
    assert all(c.owns(i) for i in ids)
    c.leaving.add(41)  # being handed over: nothing new goes there, and it is not served
    assert {partition_of(c.new_id(), 64) for _ in range(50)} == {3}
    assert not any(c.owns(i) for i in ids if partition_of(i, 64) == 41)
    with pytest.raises(RoomError) as refused:
        cluster().new_id()
    assert refused.value.code == "moved"


def test_a_room_of_another_process_is_not_loaded_and_a_retired_one_closes_its_sockets(tmp_path: Path) -> None:
    async def main() -> None:
        storage = open_storage(str(tmp_path / "g.sqlite3"))
        try:
            rooms = Rooms(storage)
            room, token = await rooms.create({"mode": "local", "length": 1})
            sent: list[str] = []
            closed: list[int] = []

            async def send(text: str) -> None:
                sent.append(text)

            async def close(code: int, reason: str = "") -> None:
                closed.append(code)

            outbox = Outbox(send, close)
            running = asyncio.ensure_future(outbox.run())
            await room.watch(Watcher(outbox, room.seats_for(token)))
            assert [r.id for r in rooms.retire(lambda game_id: game_id == room.id)] == [room.id]
            await asyncio.wait_for(running, 5)
            assert closed == [MOVED_CODE] and sent  # what was queued went first
            assert len(rooms) == 0 and room.retired
            with pytest.raises(RoomError) as refused:  # a request that still holds it changes nothing
                await room.act(room.seats_for(token), parse_client('{"type": "action", "action": {"type": "roll"}}'))
            assert refused.value.code == "moved"
            # Another process serves it now: this one does not load it again.
            rooms.owns = lambda game_id: False
            with pytest.raises(RoomError) as refused:
                await rooms.get(room.id)
            assert refused.value.code == "moved"
            rooms.owns = lambda game_id: True
            assert (await rooms.get(room.id)).version == room.version  # as stored
        finally:
            storage.close()
    asyncio.run(main())
