"""The files an offline game needs are all kept by the service worker, and named in its version."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from table.server.app import web_root, web_version

WEB = Path(web_root())


def test_the_service_worker_keeps_every_file_of_the_engine_and_the_computer():
    sw = (WEB / "sw.js").read_text(encoding="utf-8")
    cached = set(re.findall(r'"/static/([^"]+)"', sw))
    # The engine's generated data (variants.json) is imported like a module: kept too.
    needed = {p.relative_to(WEB).as_posix()
              for p in [*(WEB / "js").rglob("*.js"), *(WEB / "js").rglob("*.json"), *(WEB / "bot").iterdir()]}
    assert needed - cached == set(), "add these to SHELL in sw.js"


def test_a_change_to_the_weights_makes_a_new_cache(tmp_path):
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy)
    before = web_version(copy)
    data = (copy / "bot" / "table.bin").read_bytes()
    (copy / "bot" / "table.bin").write_bytes(bytes([data[0] ^ 1]) + data[1:])
    assert web_version(copy) != before
