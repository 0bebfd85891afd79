"""``table serve``: the web app on http://127.0.0.1:8000 (host, port and database configurable)."""

from __future__ import annotations

import argparse
from pathlib import Path

from table.server.storage import default_path, open_storage


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
    serve.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from table.server.app import create_app
    from table.server.http import uvicorn_options
    from table.server.memory import settle_memory

    storage = open_storage(args.db)
    app = create_app(storage, bot_delay=max(0.0, args.bot_delay))
    print(f"Table: http://{args.host}:{args.port}/  (games in {args.db or default_path()})", flush=True)
    settle_memory()
    try:
        # Bounded frames, headers and connections; see table.server.http.
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **uvicorn_options(app.state.limits))
    finally:
        storage.close()
    return 0
