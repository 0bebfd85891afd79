"""The benchmarks behind ``table bench``: each prints its figures.

``movegen`` (legal-play generation), ``latency`` (time per move of each level),
``strength`` (duplicate-dice games between two players), ``cube`` (cube decisions against
cubeful rollouts), ``server`` (the web app) and ``online`` (many online matches at once).
Their options are wired in ``table.cli.bench`` and ``table.cli.bot``.
"""

from __future__ import annotations

from table.errors import TableError


class BenchError(TableError):
    """A benchmark was asked for something it cannot do."""
