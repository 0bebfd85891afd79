"""Figures for docs/deploy.md: ``table serve`` with its defaults under a slow-loris of 2,100 sockets.

    python -m tests.server.slowloris_measure [one] [many] [nginx]

runs ``table serve`` (SQLite in a temporary folder, the open-file limit of this shell) and,
for each case named (all three by default), holds 2,100 half-sent requests for 20 s from
127.0.0.2 (one), from 127.0.0.2..127.0.0.250 (many), or from those at nginx running
deploy/nginx in front of it (nginx), probing /api/health from 127.0.0.1 every 0.5 s for 15 s
once the attack is in place.  Prints one line a case.  Loopback addresses only.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.server.slowloris import probe_during
from tests.server.test_slowloris import finish, start_attack
from tests.server.test_slowloris_nginx import ROOT, free_port, nginx_binary, nginx_conf, stop, wait_for


def run(name: str, target: int, first: int, last: int, sockets: int = 2100, seconds: float = 20.0) -> None:
    attacker = start_attack(target, seconds, sockets, first, last)
    time.sleep(3.0)
    statuses = probe_during(target, seconds=15.0, every=0.5)
    tally = finish(attacker)
    others = sorted(set(s for s in statuses if s != 200))
    print(f"{name}: {statuses.count(200)} of {len(statuses)} health checks answered 200"
          f"{f' (the others: {others})' if others else ''}; attacker: {tally}", flush=True)
    time.sleep(2.0)


def main(cases: list[str]) -> int:
    cases = cases or ["one", "many", "nginx"]
    folder = Path(tempfile.mkdtemp(prefix="table-slowloris-"))
    port = free_port()
    with open(folder / "serve.log", "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "table", "serve", "--port", str(port),
                                   "--db", str(folder / "g.sqlite3")], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(port, "table serve", server)
        if "one" in cases:
            run("2,100 sockets from 127.0.0.2, table serve alone", port, 2, 2)
        if "many" in cases:
            run("2,100 sockets from 249 addresses, table serve alone", port, 2, 250)
        if "nginx" in cases:
            nport = free_port()
            conf = nginx_conf(folder / "nginx", nport, port)
            proxy = subprocess.Popen([nginx_binary(), "-p", str(folder / "nginx"), "-c", str(conf),
                                      "-e", str(folder / "nginx" / "error.log")])
            try:
                wait_for(nport, "nginx", proxy)
                run("2,100 sockets from 249 addresses, behind nginx (deploy/nginx)", nport, 2, 250)
            finally:
                stop(proxy)
    finally:
        stop(server)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
