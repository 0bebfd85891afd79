"""A turn-based game in two browsers against a real server whose calendar the test moves on: the two
players move on different days, the dice rolled when the turn is opened survive a reload, and the
games waiting for you show first in the lobby with a count in the header and the tab's title."""

from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import serve
from tests.e2e.e2e_helpers import open_app, play_by_clicks
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person

RO, EN = catalogue("ro"), catalogue("en")
DAY = 86400.0
SHIFT = [0.0]  # seconds the server's calendar is ahead of the real one


@pytest.fixture(scope="module")
def calendar_url(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("db-turns"), now=lambda: time.time() + SHIFT[0])


def move(page) -> None:
    """Play a whole move by taps and confirm it; wait until the server has it."""
    page.wait_for_selector("#board .ck.movable")
    before = int(page.evaluate("window.__table.version()"))
    play_by_clicks(page)
    page.locator("#controls [data-act=confirm]").click()
    page.wait_for_function(f"window.__table.version() > {before}")


def lobby_waits(page, words, n: int) -> None:
    """Back in the lobby (a reload, as on another day): ``n`` games wait, first, with the count shown."""
    page.goto("/#/online")
    page.reload()
    page.wait_for_selector("#lobby-waiting-box:not([hidden]) .table-item.your-turn")
    assert page.locator("#lobby-waiting .table-item").count() == n
    assert page.locator("#lobby-waiting-count").inner_text() == str(n)
    page.wait_for_function(f"document.querySelector('#waiting-badge').textContent === '{n}'")
    assert page.locator("#waiting-badge").is_visible()
    assert page.title().startswith(f"({n}) ")
    assert words["your_turn_marker"] in page.locator("#lobby-waiting").inner_text()
    assert words["turn_based_marker"] in page.locator("#lobby-waiting").inner_text()


def test_a_turn_based_game_over_several_days(browser, calendar_url, artifacts):
    with person(browser, calendar_url, **PHONE) as ana, person(browser, calendar_url, **PHONE) as ion:
        open_app(ana, "ro")
        open_app(ion, "en")
        for page, name in ((ana, "Ana"), (ion, "Ion")):
            page.click("#btn-online")
            nickname(page, name)
        # Ana makes a turn-based table: 2 days a move, no cube (the dice then roll as the turn opens).
        ana.click("#btn-create")
        form = ana.locator("#form-table")
        assert form.locator("select[name=days]").input_value() == "3"  # 3 days a move unless you choose
        form.locator("select[name=length]").select_option("1")
        form.locator("input[name=cube]").uncheck()
        form.locator("input[name=clock][value=days]").check()
        form.locator("select[name=days]").select_option("2")
        ana.click("#btn-create-table")
        ana.wait_for_url("**/#/table/*")
        item = ion.locator("#lobby-open .table-item", has_text="Ana")
        item.wait_for()
        assert EN["clock_days2"] in item.inner_text() and EN["turn_based_marker"] in item.inner_text()
        item.locator("button").click()
        ion.wait_for_url("**/#/game/*")
        ana.wait_for_url(ion.url)
        for page in (ana, ion):
            page.wait_for_function("window.__table && window.__table.version() > 0")
        # No away claims at a turn-based table: the days clock decides.
        assert RO["turn_based_note"] in ana.locator("#presence").inner_text()
        # The opening roll gave one of them the first move.
        for _ in range(100):
            if ana.locator("#board .ck.movable").count() or ion.locator("#board .ck.movable").count():
                break
            ana.wait_for_timeout(100)
        first, second, words = (ana, ion, EN) if ana.locator("#board .ck.movable").count() else (ion, ana, RO)
        second.goto("/#/online")  # the second player leaves for the lobby

        # Day 1: the first player moves.
        SHIFT[0] += DAY
        move(first)

        # Day 2: the second player comes back: the game waits for them, first in the lobby.
        SHIFT[0] += DAY
        lobby_waits(second, words, 1)
        lang = "en" if second is ion else "ro"
        second.screenshot(path=str(artifacts / f"turn-based-lobby-waiting-phone-{lang}.png"))
        second.locator("#lobby-waiting .table-item button").click()
        second.wait_for_url("**/#/game/*")
        # Opening the turn rolled the dice; a reload (or another device) shows the same ones.
        second.wait_for_function("window.__table.dice() !== null")
        dice, version = second.evaluate("window.__table.dice()"), second.evaluate("window.__table.version()")
        second.reload()
        second.wait_for_function(f"window.__table && window.__table.version() >= {version}")
        assert second.evaluate("window.__table.dice()") == dice
        assert second.evaluate("window.__table.version()") == version  # no second roll
        # The days clock shows days and hours.
        clock_text = second.locator("#p-bottom .clock").inner_text()
        assert ("d" in clock_text and "h" in clock_text) or (" z " in clock_text), clock_text
        second.screenshot(path=str(artifacts / f"turn-based-game-phone-{lang}.png"))
        move(second)

        # Day 3: now the first player's move waits; their lobby says so, in their language.
        SHIFT[0] += DAY
        other_words = RO if first is ana else EN
        lobby_waits(first, other_words, 1)
        lang = "ro" if first is ana else "en"
        first.screenshot(path=str(artifacts / f"turn-based-lobby-waiting-phone-{lang}.png"))
