"""Helpers shared by the server tests."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

__all__ = ["TestClient", "auth", "first_path"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def first_path(moves: dict) -> list[list[int]]:
    """The steps of the first complete play in a view's move graph."""
    node, steps = 0, []
    while str(node) not in moves["finals"]:
        edge = moves["nodes"][node][0]
        steps.append(edge[:2])
        node = edge[4]
    return steps
