"""A computer that thinks slowly, for the tests: module level, so worker processes can import it."""

from __future__ import annotations

import time

from table.server.play.computer import BotTask, think

THINK_SECONDS = 1.5


def slow_think(task: BotTask) -> dict:
    time.sleep(THINK_SECONDS)  # blocks its process, as a long search would
    return think(task)
