"""A bounded slow-loris attack, and a health probe, for the tests (loopback addresses only).

Run as a separate process so that the attack competes with the server for
the machine, not for the test's interpreter::

    python -m tests.server.slowloris PORT SECONDS SOCKETS FIRST_SOURCE LAST_SOURCE

holds ``SOCKETS`` connections to 127.0.0.1:PORT, spread over the source
addresses 127.0.0.FIRST_SOURCE .. 127.0.0.LAST_SOURCE, each sending the start
of a request and then one more header line every second, never the blank
line that ends them; a socket the server closes is opened again (after
0.1 s).  It stops after ``SECONDS`` and prints one JSON line: the sockets
opened, the most held at once, and how many the server refused or closed.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import sys
import time
from dataclasses import dataclass, field


@dataclass
class Tally:
    opened: int = 0
    held: int = 0
    most_held: int = 0
    closed_by_server: int = 0
    failed: int = 0
    errors: dict[str, int] = field(default_factory=dict)


async def _hold(port: int, source: str, deadline: float, tally: Tally) -> None:
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 5)
        except (OSError, asyncio.TimeoutError) as exc:
            tally.failed += 1
            name = type(exc).__name__
            tally.errors[name] = tally.errors.get(name, 0) + 1
            await asyncio.sleep(0.1)
            continue
        tally.opened += 1
        tally.held += 1
        tally.most_held = max(tally.most_held, tally.held)
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: table\r\n")
            n = 0
            while loop.time() < deadline:
                try:
                    data = await asyncio.wait_for(reader.read(4096), 1.0)
                except asyncio.TimeoutError:
                    n += 1
                    writer.write(b"X-Slow-%d: x\r\n" % n)
                    continue
                if not data:  # closed by the server
                    tally.closed_by_server += 1
                    break
                # An answer (a refusal): wait for the close.
        except OSError:
            tally.closed_by_server += 1
        finally:
            tally.held -= 1
            writer.close()
        await asyncio.sleep(0.1)


async def attack(port: int, seconds: float, sockets: int, sources: list[str]) -> Tally:
    """Hold ``sockets`` half-sent requests for ``seconds``, round-robin over ``sources``."""
    tally = Tally()
    deadline = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(_hold(port, sources[i % len(sources)], deadline, tally) for i in range(sockets)))
    return tally


def probe(port: int, source: str = "127.0.0.1", path: str = "/api/health", timeout: float = 2.0) -> int:
    """The status of one GET from ``source`` (0: no answer within ``timeout``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    except OSError:
        return 0
    finally:
        conn.close()


def probe_during(port: int, seconds: float, every: float = 0.25, source: str = "127.0.0.1") -> list[int]:
    """Probe the health check every ``every`` seconds for ``seconds``; the statuses, in order."""
    statuses = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.monotonic()
        statuses.append(probe(port, source))
        time.sleep(max(0.0, every - (time.monotonic() - start)))
    return statuses


def main(argv: list[str]) -> int:
    port, seconds, sockets, first, last = int(argv[0]), float(argv[1]), int(argv[2]), int(argv[3]), int(argv[4])
    if not 1 <= first <= last <= 254:
        raise SystemExit("sources are 127.0.0.FIRST..LAST with 1 <= FIRST <= LAST <= 254")
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < sockets + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, sockets + 64), hard))
    tally = asyncio.run(attack(port, seconds, sockets, [f"127.0.0.{i}" for i in range(first, last + 1)]))
    print(json.dumps(tally.__dict__), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
