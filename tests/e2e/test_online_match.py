"""Two people play a 3-point match online against the real server, in two browsers, with a third
watching: a private table and its invitation link, moves by taps, the cube, a resignation, both
chats, the points the ledger posted on the result and on the player pages."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Iterator

from playwright.sync_api import Page

from tests.e2e.e2e_helpers import open_app, play_by_clicks
from tests.e2e.online_fakes import catalogue

RO = catalogue("ro")
EN = catalogue("en")


@contextmanager
def person(browser, server_url, lang: str = "ro", **kw) -> Iterator[Page]:
    ctx = browser.new_context(bypass_csp=True, base_url=server_url, **kw)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Roll by hand: the test decides when to double.
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: false, animations: false}))")
    try:
        yield page
    finally:
        ctx.close()
    assert not errors, errors


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def nickname(page: Page, name: str) -> None:
    page.locator("#dlg-nick").wait_for(state="visible")
    page.fill("#in-nick", name)
    page.click("#btn-nick")
    page.locator("#dlg-nick").wait_for(state="hidden")


def shown(page: Page, act: str) -> bool:
    b = page.locator(f"#controls [data-act={act}]")
    return b.is_visible() and b.is_enabled()


def score(page: Page) -> tuple[int, int]:
    m = re.search(r"(\d+)–(\d+)", page.locator("#score").inner_text())
    assert m, page.locator("#score").inner_text()
    return int(m.group(1)), int(m.group(2))


def open_chat(page: Page) -> None:
    """Open the chat panel where it is folded (a phone); beside the board it is always open."""
    if page.locator("#chat-input").is_hidden():
        page.locator("#chat-toggle").click()


def chat(page: Page, text: str) -> None:
    open_chat(page)
    page.fill("#chat-input", text)
    page.locator("#chat-form button[type=submit]").click()


def chat_lines(page: Page) -> list[str]:
    return [t for t in page.locator("#chat-log li:not(.empty)").all_inner_texts()]


def test_a_private_table_a_match_to_three_a_spectator_both_chats_and_the_ledger(browser, server_url, artifacts):
    with person(browser, server_url, **DESKTOP) as ana, person(browser, server_url, **PHONE) as ion, \
            person(browser, server_url, "en", **DESKTOP) as vlad:
        # Ana creates a private table: 3 points, the cube, a relaxed clock.
        open_app(ana)
        ana.click("#btn-online")
        nickname(ana, "Ana")
        ana.wait_for_selector("#lobby:not([hidden])")
        ana.click("#btn-create")
        form = ana.locator("#form-table")
        form.locator("select[name=length]").select_option("3")
        form.locator("input[name=cube]").set_checked(True)
        form.locator("input[name=clock][value=relaxed]").check()
        form.locator("input[name=visibility][value=private]").check()
        ana.click("#btn-create-table")
        ana.wait_for_url("**/#/join/*")
        ana.wait_for_selector("#invite-box:not([hidden])")
        link = ana.locator("#invite-link").input_value()
        assert "/#/join/" in link
        # A private table is not in the lobby.
        assert ana.request.get("/api/tables").json()["open"] == []

        # Ion opens the link on his phone and sits down with one tap (after choosing a name).
        open_app(ion)
        ion.goto(link)
        ion.wait_for_selector("#btn-join:not([hidden])")
        ion.click("#btn-join")
        nickname(ion, "Ion")
        ion.wait_for_url("**/#/game/*")
        game = ion.url.split("/#/game/")[1]
        # Ana's waiting screen follows her into the game.
        ana.wait_for_url(f"**/#/game/{game}")
        for p in (ana, ion):
            p.wait_for_selector("#p-bottom .clock:not([hidden])")
            p.wait_for_function("window.__table && window.__table.version() > 0")
        assert ana.locator("#p-bottom .name").inner_text() == "Ana"
        assert ana.locator("#p-top .name").inner_text() == "Ion"
        # Each player sees their own side at the bottom, numbered from there.
        assert ion.locator("#p-bottom .name").inner_text() == "Ion"
        assert ion.locator("#board [data-loc='1']").count() == 1

        # Vlad, a guest too, watches (the table is private: he follows the game's address).
        open_app(vlad, "en")
        vlad.click("#btn-online")
        nickname(vlad, "Vlad")
        vlad.goto(f"/#/game/{game}")
        vlad.wait_for_selector("#spectator:not([hidden])")

        # The players' chat goes both ways; the spectators' stays apart.
        open_chat(ana)
        ana.locator("#chat-quick button", has_text=RO["quick_hi"]).click()
        ion.wait_for_function("[...document.querySelectorAll('#chat-log li')].some(l => l.textContent.includes('Bună!'))")
        chat(ion, "Salut, Ana! <b>noroc</b>")
        ana.wait_for_function("[...document.querySelectorAll('#chat-log li')].some(l => l.textContent.includes('noroc'))")
        assert ana.locator("#chat-log b", has_text="noroc").count() == 0  # text, never markup
        assert vlad.locator("#chat-title").inner_text() == EN["chat_spectators"]
        chat(vlad, "Go Ion!")
        vlad.wait_for_function("[...document.querySelectorAll('#chat-log li')].some(l => l.textContent.includes('Go Ion!'))")
        chat(ion, "Mulțumesc!")
        ana.wait_for_function("[...document.querySelectorAll('#chat-log li')].some(l => l.textContent.includes('Mulțumesc!'))")
        assert not any("Go Ion!" in line for line in chat_lines(ana) + chat_lines(ion))
        assert not any("Bună!" in line or "noroc" in line for line in chat_lines(vlad))

        # Play: moves by taps; Ana doubles and Ion drops twice; in the Crawford game Ion resigns.
        moves = 0
        seen: set[str] = set()
        for _ in range(600):
            if ana.locator("#controls [data-act=rematch]").is_visible():
                break
            acted = False
            for me, other in ((ana, ion), (ion, ana)):
                if me.locator("#dlg-result[open]").count():
                    me.locator("#dlg-result button").click()
                    acted = True
                    continue
                if shown(me, "next_game"):
                    me.click("#controls [data-act=next_game]"); acted = True; continue
                if shown(me, "drop"):
                    seen.add("drop"); me.click("#controls [data-act=drop]"); acted = True; continue
                if shown(me, "accept_resignation"):
                    seen.add("accept"); me.click("#controls [data-act=accept_resignation]"); acted = True; continue
                if me is ana and shown(me, "double") and moves >= 4:
                    seen.add("double"); me.click("#controls [data-act=double]"); acted = True; continue
                if me is ion and shown(me, "resign") and me.locator("#crawford").is_visible() and \
                        (shown(me, "roll") or me.locator("#board .ck.movable").count()):
                    seen.add("resign")
                    me.click("#controls [data-act=resign]")
                    me.locator("#dlg-resign button[value='1']").click()
                    acted = True; continue
                if shown(me, "roll"):
                    me.click("#controls [data-act=roll]"); acted = True; continue
                if me.locator("#board .ck.movable").count():
                    before = me.evaluate("window.__table.version()")
                    play_by_clicks(me)
                    me.click("#controls [data-act=confirm]")
                    me.wait_for_function(f"window.__table.version() > {before}")
                    moves += 1
                    acted = True
                    if moves == 3:
                        # The spectator sees the same position, live, and cannot act.
                        version = me.evaluate("window.__table.version()")
                        vlad.wait_for_function(f"window.__table.version() >= {version}")
                        assert vlad.locator("#board .ck.movable").count() == 0
                        assert all(b.is_hidden() for b in vlad.locator("#controls button").all())
                        ion.screenshot(path=str(artifacts / "online-match-phone-ro.png"))
                        vlad.screenshot(path=str(artifacts / "online-spectator-desktop-en.png"))
                    continue
            if not acted:
                ana.wait_for_timeout(150)
        else:
            raise AssertionError(f"the match did not end: {score(ana)}")
        assert {"double", "drop", "resign", "accept"} <= seen, seen
        assert score(ana) == (3, 0)

        # The ledger: three games won by Ana at the cube's 1 (+20 each), lost by Ion (-10 each).
        ana.wait_for_selector("#ledger:not([hidden])")
        assert ana.locator("#ledger").inner_text() == RO["ledger_gain"].replace("{pts}", "60 de puncte")
        assert ion.locator("#ledger").inner_text() == RO["ledger_loss"].replace("{pts}", "30 de puncte")
        ion.screenshot(path=str(artifacts / "online-match-over-phone-ro.png"))
        for p in (ana, ion):
            if p.locator("#dlg-result[open]").count():
                p.locator("#dlg-result button").click()
        ana.goto("/#/player/Ana")
        ana.wait_for_function("document.querySelector('#player-points').textContent === '60'")
        assert ana.locator("#player-record").inner_text() == RO["player_record"].replace("{w}", "3").replace("{l}", "0")
        assert ana.locator("#player-games li").count() == 3
        ion.goto("/#/player/Ion")
        ion.wait_for_function("document.querySelector('#player-points').textContent === '-30'")
        ion.screenshot(path=str(artifacts / "player-page-phone-ro.png"))
