"""End-to-end fixtures: a real server on a free port and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"



def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(folder: Path, **options: Any) -> Iterator[str]:
    """A real server on a free port, storing in ``folder``; ``options`` go to ``create_app``."""
    import uvicorn

    from table.rules.dice import SeededDice
    from table.server.app import create_app
    from table.server.edge.limits import Limits
    from table.server.store import open_storage

    storage = open_storage(folder / "games.sqlite3")
    port = _free_port()
    # Every test's browser comes from one address: no rate limit on new games.
    config = uvicorn.Config(create_app(storage, SeededDice(2024), bot_delay=0.05, limits=Limits(games_burst=10**6),
                                       **options),
                            host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    storage.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("db"))


# One browser per test module, not per session: Playwright's sync API keeps an event loop running
# in the main thread while it is open, and later tests that call asyncio.run() must not find one.
@pytest.fixture(scope="module")
def browser():
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    if not os.path.exists(CHROMIUM):  # scripts/test installs it; say so instead of failing obscurely
        pytest.skip(f"{CHROMIUM} is missing: run scripts/test, which installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser, **kw):
    """A fresh browser context and page; page errors fail the test."""
    # wait_for_function evaluates strings, which the app's CSP forbids (test_csp keeps it on).
    ctx = browser.new_context(bypass_csp=True, **kw)
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


@pytest.fixture
def desktop(browser, server_url):
    yield from _page(browser, viewport={"width": 1280, "height": 800}, base_url=server_url)


@pytest.fixture
def phone(browser, server_url):
    yield from _page(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                     is_mobile=True, has_touch=True, base_url=server_url)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
