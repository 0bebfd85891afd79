"""The ``table`` command: one subcommand per module in this package.

Each module exposes ``register(subparsers)``, which adds its subcommands and
sets ``func`` on them; ``main`` parses the arguments and calls it.  Bad input
ends with a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from table.errors import TableError

# Modules that add subcommands; listed here so the dispatcher stays in one place.
_COMMAND_MODULES = ("engine", "bench", "serve", "play", "bot")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="table",
        description="Table: backgammon engine, computer opponent and web app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in _COMMAND_MODULES:
        module = importlib.import_module(f"table.cli.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.func(args)
    except TableError as exc:
        print(f"table: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        sys.stderr.close()
        return 0
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
