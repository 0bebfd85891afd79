"""What every action costs the event loop (issue 52.8): no task made for work that needs none."""

from __future__ import annotations

import asyncio

from table.rules.dice import SeededDice
from table.server.edge.outbox import Outbox
from table.server.play.rooms import Rooms
from table.server.protocol import Act, MoveSteps
from table.server.store import open_storage
from table.tools.bench.server import first_path

from tests.server.server_helpers import run_async as run


def test_an_outbox_sends_from_its_own_task_with_no_task_per_message():
    async def main():
        senders: list[asyncio.Task[object] | None] = []

        async def send(text: str) -> None:
            senders.append(asyncio.current_task())

        async def close(code: int, reason: str) -> None:
            pass

        box = Outbox(send, close, limit=10, timeout=1)
        for i in range(5):
            box.put(str(i))
        box.finish()
        runner = asyncio.ensure_future(box.run())
        await runner
        return senders, runner

    senders, runner = run(main())
    assert len(senders) == 5 and all(task is runner for task in senders)


def test_an_action_that_leaves_the_game_to_a_person_starts_no_server_run(tmp_path):
    async def main():
        rooms = Rooms(open_storage(tmp_path / "g.sqlite3"), SeededDice(3))
        room, token = await rooms.create({"mode": "local", "length": 1})
        seats = room.seats_for(token)
        started = room._advancing  # the opening roll was the server's
        assert started is not None and started.done()
        version = room.version
        view = room.message(seats)["view"]
        assert "move" in view["actions"]  # the opening roll's winner moves
        await room.act(seats, Act(MoveSteps(tuple(map(tuple, first_path(view["moves"])))), version))
        assert not room.waits_on_server()  # a person rolls (or doubles) next
        await rooms.settle(room)
        return room._advancing is started, room.version == version + 1

    same_run, one_entry = run(main())
    assert same_run and one_entry
