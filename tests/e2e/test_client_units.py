"""The client's pure modules (move text, pip counts, the move graph), tested with Node's runner."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def test_client_modules_under_node():
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the client's unit tests need it")
    files = sorted(str(p) for p in (HERE / "js").glob("*.test.mjs"))
    assert files
    run = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
