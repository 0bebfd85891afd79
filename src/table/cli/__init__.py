"""The ``table`` command: one subcommand per module in this package.

Each module exposes ``register(subparsers)``, which adds its subcommands and
sets ``func`` on them; ``main`` parses the arguments and calls it.  Bad input
ends with a one-line error and exit status 2.

>>> main(["--version"])
table 0.1.0
0
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn, Sequence

from table import __version__
from table.errors import TableError

# Modules that add subcommands; listed here so the dispatcher stays in one place.
_COMMAND_MODULES = ("engine", "bench", "serve", "play", "bot", "online")


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line, ``table: error: ...``, as for any other error.

    Subcommands' parsers are made from this class too (argparse uses the parent's class).
    """

    def error(self, message: str) -> NoReturn:
        command = self.prog.split(" ", 1)[1] + ": " if " " in self.prog else ""
        self.exit(2, f"table: error: {command}{message} (see table --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = _Parser(
        prog="table",
        description="Table: backgammon engine, computer opponent and web app.",
    )
    parser.add_argument("--version", action="version", version=f"table {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in _COMMAND_MODULES:
        module = importlib.import_module(f"table.cli.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a bad argument already reported
        return exc.code if isinstance(exc.code, int) else 2
    try:
        result = args.func(args)
    except TableError as exc:
        print("table: error: " + " ".join(str(exc).split()), file=sys.stderr)
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
