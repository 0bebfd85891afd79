"""``table serve``: the web app on http://127.0.0.1:8000 (host, port and database configurable).

With ``--redis`` (and a PostgreSQL ``--db``) it runs ``--workers`` processes
that share the games (``table.server.cluster``, docs/scaling.md); more such
servers, on other machines, may join the same database and Redis.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
from pathlib import Path
from typing import Any

from table.errors import TableError
from table.server.store import default_path, open_storage


def port_number(text: str) -> int:
    """A TCP port to listen on, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port {text!r} is not a number: use 1 to 65535") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} does not exist: use 1 to 65535")
    return port


def database(text: str) -> str:
    """A ``--db`` value whose folder exists (URLs other than ``sqlite:///`` are left to the storage)."""
    if "://" in text and not text.startswith("sqlite:///"):
        return text
    path = Path(text.removeprefix("sqlite:///"))
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; name a file in it, such as "
                                         f"{path / 'games.sqlite3'}")
    folder = path.parent
    if text != ":memory:" and not folder.is_dir():
        raise argparse.ArgumentTypeError(f"the folder {folder} does not exist: create it first, "
                                         "or name a file in an existing folder")
    return text


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    serve = sub.add_parser("serve", help="play in the browser: start the web app")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=port_number, default=8000,
                       help="port to listen on, 1 to 65535 (default 8000)")
    serve.add_argument("--db", type=database, default=None,
                       help=f"games database: a file path, sqlite:///PATH or postgresql://URL "
                            f"(default {default_path()})")
    serve.add_argument("--bot-delay", type=float, default=0.35,
                       help="seconds the computer waits before moving, so its move can be followed")
    serve.add_argument("--redis", default=None, metavar="URL",
                       help="Redis (redis://HOST:PORT/DB) shared by several server processes; "
                            "needs a PostgreSQL --db")
    serve.add_argument("--redis-prefix", type=redis_prefix, default="table", metavar="NAME",
                       help="the names of this site's keys and channels in Redis and of its locks in "
                            "PostgreSQL (default table): sites that share a Redis or a database need "
                            "different ones")
    serve.add_argument("--workers", type=workers_number, default=1,
                       help="server processes on this port (default 1; more than one needs --redis)")
    serve.set_defaults(func=_serve)


def workers_number(text: str) -> int:
    """How many server processes: 1 to 64."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--workers {text!r} is not a number: use 1 to 64") from None
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"--workers {n}: use 1 to 64")
    return n


def redis_prefix(text: str) -> str:
    """A name for the keys, channels and locks of one site: letters, digits, ``_`` and ``-``.

    >>> redis_prefix("site_2")
    'site_2'
    >>> redis_prefix("a b")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: --redis-prefix 'a b': use 1 to 32 letters, digits, _ or -
    """
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text):
        raise argparse.ArgumentTypeError(f"--redis-prefix {text!r}: use 1 to 32 letters, digits, _ or -")
    return text


ENVIRONMENT = ("TABLE_SERVE_DB", "TABLE_SERVE_REDIS", "TABLE_SERVE_WORKERS", "TABLE_SERVE_BOT_DELAY",
               "TABLE_SERVE_REDIS_PREFIX")


def cluster_app() -> Any:
    """The app of one of several server processes, configured by ``_serve`` through the environment
    (uvicorn starts each worker process by importing this factory)."""
    from table.server.app import create_app
    from table.server.cluster.member import Cluster
    from table.server.cluster.settings import ClusterSettings
    from table.server.edge.memory import settle_memory
    from table.server.edge.wallclock import SteadyWallClock

    db, redis, workers, delay, prefix = (os.environ[k] for k in ENVIRONMENT)
    cluster = Cluster(ClusterSettings(database=db, redis=redis, workers=int(workers), prefix=prefix))
    cpus = os.cpu_count() or 1
    app = create_app(open_storage(db), bot_delay=float(delay), cluster=cluster, warm_bot=True,
                     bot_workers=max(1, cpus // int(workers)), now=SteadyWallClock())
    settle_memory()
    return app


def _serve(args: argparse.Namespace) -> int:
    from table.server.edge.memory import use_the_c_allocator

    use_the_c_allocator()  # first: it starts the process again
    import uvicorn

    from table.server.app import create_app
    from table.server.edge.http import MAX_CONNECTIONS, connection_budget, raise_open_file_limit, uvicorn_options
    from table.server.edge.limits import Limits
    from table.server.edge.memory import settle_memory
    from table.server.edge.wallclock import SteadyWallClock

    # Every connection is an open file: ask for as many as the system allows, and keep uvicorn's
    # limit on connections under it (the worker processes inherit both).
    max_connections = connection_budget(raise_open_file_limit())
    if max_connections < MAX_CONNECTIONS:
        print(f"Table: the open-file limit allows {max_connections} connections at once, not "
              f"{MAX_CONNECTIONS}: raise it (ulimit -n, LimitNOFILE=) for more", flush=True)
    if args.workers > 1 and not args.redis:
        raise TableError("serve: --workers above 1 needs --redis URL and a PostgreSQL --db")
    if args.redis:
        if importlib.util.find_spec("redis") is None:
            raise TableError("serve: --redis needs the redis library: pip install 'table[scale]'")
        if not (args.db or "").startswith(("postgresql://", "postgresql+psycopg://")):
            raise TableError("serve: --redis needs --db postgresql://... (the processes share that database)")
        if not args.redis.startswith(("redis://", "rediss://", "unix://")):
            raise TableError(f"serve: --redis {args.redis!r} is not a Redis URL such as redis://127.0.0.1:6379/0")
        import sqlalchemy

        os.environ.update(zip(ENVIRONMENT, (args.db, args.redis, str(args.workers), str(max(0.0, args.bot_delay)),
                                            args.redis_prefix)))
        shown = sqlalchemy.make_url(args.db).render_as_string(hide_password=True)
        print(f"Table: http://{args.host}:{args.port}/  ({args.workers} worker process(es), games in {shown}, "
              f"shared through Redis)", flush=True)
        uvicorn.run("table.cli.serve:cluster_app", factory=True, workers=args.workers, host=args.host,
                    port=args.port, log_level="warning",
                    **uvicorn_options(Limits(), max_connections=max_connections))
        return 0
    storage = open_storage(args.db)
    # Game clocks read a clock that a step of the system's (NTP, an administrator) cannot move.
    app = create_app(storage, bot_delay=max(0.0, args.bot_delay), now=SteadyWallClock(), warm_bot=True)
    print(f"Table: http://{args.host}:{args.port}/  (games in {args.db or default_path()})", flush=True)
    if importlib.util.find_spec("pywebpush") is None:
        print("Table: \"your move\" notices by Web Push are off: pip install 'table[push]' to send them",
              flush=True)
    settle_memory()
    try:
        # Bounded frames, headers and connections; see table.server.edge.http.
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    **uvicorn_options(app.state.limits, max_connections=max_connections))
    finally:
        storage.close()
    return 0
