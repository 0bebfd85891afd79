"""Helpers shared by the server tests."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from table.server.bench import first_path

__all__ = ["TestClient", "auth", "first_path"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
