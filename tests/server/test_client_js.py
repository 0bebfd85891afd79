"""The client's own logic, tested with Node's test runner where Node is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_move_graph_walking():
    r = subprocess.run(["node", "--test", str(HERE / "js" / "moves.test.mjs")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
