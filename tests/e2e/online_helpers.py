"""Steps of online play against the real server, for the end-to-end tests."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from playwright.sync_api import Page

from tests.e2e.e2e_helpers import open_app

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@contextmanager
def person(browser, server_url, lang: str = "ro", **kw) -> Iterator[Page]:
    """A browser of one's own (a context: its own device token) with one page; page errors fail the test."""
    ctx = browser.new_context(bypass_csp=True, base_url=server_url, **kw)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Roll by hand: the test decides when to double.
    page.add_init_script("try { localStorage.setItem('table.settings', JSON.stringify({autoRoll: false, animations: false})); }"
                         " catch (_) { /* about:blank has none */ }")
    try:
        yield page
    finally:
        ctx.close()
    assert not errors, errors


def nickname(page: Page, name: str) -> None:
    """Answer the nickname dialog with a name the server takes."""
    page.locator("#dlg-nick").wait_for(state="visible")
    page.fill("#in-nick", name)
    page.click("#btn-nick")
    page.locator("#dlg-nick").wait_for(state="hidden")


def start_match(creator: Page, joiner: Page, names: tuple[str, str], *, clock: str, length: int = 1) -> str:
    """``creator`` makes a public table, ``joiner`` sits down from the lobby; the game's address."""
    for page, name in ((creator, names[0]), (joiner, names[1])):
        open_app(page)
        page.click("#btn-online")
        nickname(page, name)
    creator.click("#btn-create")
    form = creator.locator("#form-table")
    form.locator("select[name=length]").select_option(str(length))
    form.locator(f"input[name=clock][value={clock}]").check()
    creator.click("#btn-create-table")
    creator.wait_for_url("**/#/table/*")
    joiner.locator("#lobby-open .table-item", has_text=names[0]).locator("button").click()
    joiner.wait_for_url("**/#/game/*")
    creator.wait_for_url(joiner.url)
    for page in (creator, joiner):
        page.wait_for_function("window.__table && window.__table.version() > 0")
    return joiner.url
