"""One socket's outgoing queue: in order, never blocking the room, dropping a reader that lags."""

from __future__ import annotations

import asyncio

from table.server.edge.outbox import SLOW_CODE, Outbox

from tests.server.server_helpers import run_async as run


class Socket:
    """A socket whose sends take ``delay`` seconds (None: never finish)."""

    def __init__(self, delay: float | None = 0.0) -> None:
        self.delay = delay
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send(self, text: str) -> None:
        if self.delay is None:
            await asyncio.Event().wait()
        await asyncio.sleep(self.delay)
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_messages_go_out_in_order_then_the_close():
    async def main():
        sock = Socket()
        box = Outbox(sock.send, sock.close, limit=10, timeout=1)
        for i in range(5):
            assert box.put(str(i))
        box.finish(4404, "no such game")
        assert not box.put("late")
        await box.run()
        return sock

    sock = run(main())
    assert sock.sent == ["0", "1", "2", "3", "4"] and sock.closed == (4404, "no such game")


def test_a_reader_that_lets_messages_pile_up_is_dropped_at_once():
    async def main():
        sock = Socket(delay=None)
        box = Outbox(sock.send, sock.close, limit=4, timeout=0.2)
        runner = asyncio.ensure_future(box.run())
        await asyncio.sleep(0)  # the first send starts, and hangs
        puts = [box.put(str(i)) for i in range(6)]
        await runner
        return sock, box, puts

    sock, box, puts = run(main())
    assert puts == [True, True, True, True, False, False] and not box.open
    assert sock.sent == [] and sock.closed[0] == SLOW_CODE


def test_a_send_that_takes_too_long_drops_the_reader():
    async def main():
        sock = Socket(delay=5)
        box = Outbox(sock.send, sock.close, limit=10, timeout=0.1)
        box.put("x")
        start = asyncio.get_running_loop().time()
        await box.run()
        return sock, box, asyncio.get_running_loop().time() - start

    sock, box, took = run(main())
    assert not box.open and sock.sent == [] and sock.closed[0] == SLOW_CODE and took < 1


def test_a_busy_outbox_holds_back_its_own_requests():
    async def main():
        sock = Socket(delay=0.01)
        box = Outbox(sock.send, sock.close, limit=4, timeout=1)
        runner = asyncio.ensure_future(box.run())
        for i in range(4):
            box.put(str(i))
        waited = asyncio.ensure_future(box.roomy())
        await asyncio.sleep(0)
        assert not waited.done()  # more than half full while the first is sent
        await asyncio.wait_for(waited, 1)
        box.finish()
        await runner
        return sock

    assert run(main()).sent == ["0", "1", "2", "3"]
