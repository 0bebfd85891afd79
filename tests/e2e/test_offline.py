"""When the server is away: a plain screen instead of an empty board; and the offline cache
that must never serve an old release."""

from __future__ import annotations

import shutil
import threading
import time

from tests.e2e.conftest import _free_port
from tests.e2e.e2e_helpers import new_game, open_app, wait_my_move


class Server:
    """A server of our own, which the test can stop and start again on the same port."""

    def __init__(self, storage, port: int) -> None:
        self.storage, self.port = storage, port

    def start(self) -> None:
        import uvicorn

        from table.rules.dice import SeededDice
        from table.server.app import create_app

        config = uvicorn.Config(create_app(self.storage, SeededDice(7), bot_delay=0.05), host="127.0.0.1",
                                port=self.port, log_level="warning", ws="websockets-sansio",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the test server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        assert not self.thread.is_alive(), "the test server did not stop"


def test_opening_while_the_server_is_down_says_so_and_shows_no_controls(browser, tmp_path, artifacts):
    from table.server.store import open_storage

    storage = open_storage(tmp_path / "games.sqlite3")
    server = Server(storage, _free_port())
    server.start()
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}, base_url=f"http://127.0.0.1:{server.port}")
    try:
        page = ctx.new_page()
        open_app(page)
        new_game(page, mode="computer", level="easy", cube=False)
        wait_my_move(page)
        # The offline cache holds the app's files once the service worker is in charge.
        page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.wait_for_function("!!navigator.serviceWorker.controller")
        game = page.url
        # Leave the page (closing its connection), stop the server, and open the game again.
        page.goto("about:blank")
        server.stop()
        page.goto(game)
        page.wait_for_selector("#connect:visible")
        page.wait_for_selector("#btn-retry:visible")
        assert "Serverul nu poate fi contactat" in page.locator("#connect-title").inner_text()
        assert page.locator("#play").is_hidden()
        assert page.locator("#controls button:visible").count() == 0
        assert page.locator("#board").evaluate("e => e.childElementCount") == 0
        page.screenshot(path=str(artifacts / "server-down-phone.png"))
        # The server is back: one tap and the game is there again.
        server.start()
        # (The page also retries by itself, so the button may already be gone: press it either way.)
        page.evaluate("document.getElementById('btn-retry').click()")
        page.wait_for_selector("#play:visible")
        wait_my_move(page)
        assert page.locator("#connect").is_hidden()
    finally:
        ctx.close()
        if server.thread.is_alive():
            server.stop()
        storage.close()


def test_the_offline_cache_is_named_after_the_files_it_holds(desktop, tmp_path):
    from table.server.app import web_root, web_version

    page = desktop
    open_app(page)
    text = page.request.get("/sw.js").text()
    version = web_version(web_root())
    assert f'"table-shell-{version}"' in text and "WEB_VERSION" not in text
    # Any change to any shipped file gives another name, so a new worker fetches everything afresh.
    copy = tmp_path / "web"
    shutil.copytree(web_root(), copy)
    assert web_version(copy) == version
    css = copy / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert web_version(copy) != version
