"""Steps of online play against the real server, for the end-to-end tests."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Callable, Iterator

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.e2e_helpers import ACTS, await_roll, open_app, play_by_clicks

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@contextmanager
def person(browser, server_url, lang: str = "ro", auto_roll: bool = False, **kw) -> Iterator[Page]:
    """A browser of one's own (a context: its own device token) with one page; page errors fail the test.

    The dice are rolled by hand (the test decides when to double) unless ``auto_roll``: as the app
    does by default, where there is no cube to think of."""
    ctx = browser.new_context(bypass_csp=True, base_url=server_url, **kw)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    chosen = json.dumps({"autoRoll": auto_roll, "animations": False})
    page.add_init_script(f"try {{ localStorage.setItem('table.settings', {json.dumps(chosen)}); }}"
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


# What a player has to do now, read in one call (each Playwright query is a round trip, and a whole
# game asks hundreds of times): the match over, the result to close, the next game, a roll, a
# double to name (Acey-Deucey's 1-2), a move, or nothing; a roll the app makes by itself is
# "auto_roll".
_TO_DO = """() => {
  """ + ACTS + """
  if (acts.includes("rematch")) return "over";
  if (document.querySelector("#dlg-result[open]")) return "result";
  if (rollsItself(acts)) return "auto_roll";
  for (const act of ["next_game", "roll", "name_double"]) if (acts.includes(act)) return act;
  return document.querySelector("#board .ck.movable, #board .pilerect.source") ? "move" : "";
}"""


def act(me: Page) -> str:
    """Do by taps whatever this player may do now; what that was ("" for nothing, "over" when
    the match is over)."""
    todo = me.evaluate(_TO_DO)
    if todo == "result":
        me.locator("#dlg-result button").first.click()
    elif todo in ("roll", "auto_roll"):
        if not await_roll(me, todo == "auto_roll", timeout=3000):
            return ""  # something came over it first (the result, a new state): look again
    elif todo == "next_game":
        try:
            me.click("#controls [data-act=next_game]", timeout=3000)
        except PlaywrightTimeout:
            return ""
    elif todo == "name_double":  # the highest double the roll shows a button for
        try:
            me.locator("#controls [data-act=name_double]:visible").last.click(timeout=3000)
        except PlaywrightTimeout:
            return ""
    elif todo == "move":
        before = me.evaluate("window.__table.version()")
        try:
            play_by_clicks(me, wait_ms=3000)
            me.click("#controls [data-act=confirm]", timeout=5000)
        except PlaywrightTimeout:
            return ""  # the board was drawn anew meanwhile: look again
        me.wait_for_function(f"window.__table.version() > {before}")
    return todo


def play_until(ana: Page, bo: Page, enough: Callable[[], bool], turns: int = 3000) -> None:
    """Both players act by taps until ``enough()``."""
    for _ in range(turns):
        if enough():
            return
        done = [act(ana), act(bo)]
        if not any(d and d != "over" for d in done):
            ana.wait_for_timeout(100)
    raise AssertionError("the game did not get there")


def play_to_the_end(ana: Page, bo: Page) -> None:
    """Both play by taps (rolls, moves, the next game) until the match is over."""
    play_until(ana, bo, lambda: ana.evaluate(_TO_DO) == "over")
