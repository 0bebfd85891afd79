"""Two people play a 3-point match online against the real server, in two browsers, with a third
watching: a private table and its invitation link, moves by taps, the cube, a resignation, both
chats, the points the ledger posted on the result and on the player pages."""

from __future__ import annotations

import re

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.e2e_helpers import open_app, play_by_clicks
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import DESKTOP, PHONE, nickname, person

RO = catalogue("ro")
EN = catalogue("en")


def shown(page: Page, act: str) -> bool:
    b = page.locator(f"#controls [data-act={act}]")
    return b.is_visible() and b.is_enabled()


def tap(page: Page, act: str) -> bool:
    """Press a control; False when something came over it first (the result dialog, a new state)."""
    try:
        page.click(f"#controls [data-act={act}]", timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


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
        assert ion.locator("#table-title").inner_text() == RO["waits"].format(name="Ana", points="0 puncte")
        ion.screenshot(path=str(artifacts / "online-invitation-opened-phone-ro.png"))
        ion.click("#btn-join")
        # The server's refusals, in words: a name kept for the computer, a name taken.
        for name, key in [("Calculatorul", "err_nick_reserved"), ("ANA", "err_nick_taken")]:
            ion.fill("#in-nick", name)
            ion.click("#btn-nick")
            ion.wait_for_function(f"document.querySelector('#nick-error').textContent === {RO[key]!r}")
        nickname(ion, "Ion")
        ion.wait_for_url("**/#/game/*")
        game = ion.url.split("/#/game/")[1]
        # Ana's waiting screen follows her into the game.
        ana.wait_for_url(f"**/#/game/{game}")
        for p in (ana, ion):
            p.wait_for_selector("#p-bottom .clock:not([hidden])")
            p.wait_for_function("window.__table && window.__table.version() > 0")
        assert ana.locator("#p-bottom .name").inner_text() == "Ana"
        # The clock of whoever decides runs on both screens (a relaxed clock: 15 s, then 9 minutes).
        running = ana.locator(".player .clock.running")
        running.wait_for()
        first = running.inner_text()
        ana.wait_for_function(f"document.querySelector('.player .clock.running').innerText !== {first!r}")
        assert ion.locator(".player .clock.running").count() == 1
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
                    tap(me, "next_game"); acted = True; continue
                if shown(me, "drop"):
                    if tap(me, "drop"):
                        seen.add("drop")
                    acted = True; continue
                if shown(me, "accept_resignation"):
                    if tap(me, "accept_resignation"):
                        seen.add("accept")
                    acted = True; continue
                if me is ana and shown(me, "double") and moves >= 4:
                    if tap(me, "double"):
                        seen.add("double")
                    acted = True; continue
                if me is ion and shown(me, "resign") and me.locator("#crawford").is_visible() and \
                        (shown(me, "roll") or me.locator("#board .ck.movable").count()):
                    if tap(me, "resign"):
                        seen.add("resign")
                        me.locator("#dlg-resign button[value='1']").click()
                    acted = True; continue
                if shown(me, "roll"):
                    tap(me, "roll"); acted = True; continue
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
        ion.wait_for_function("document.querySelector('#player-points').textContent === '−30'")
        ion.screenshot(path=str(artifacts / "player-page-phone-ro.png"))


def lobby_names(page: Page) -> list[str]:
    return page.locator("#lobby-open .table-item .who a").all_inner_texts()


def test_the_lobby_live_a_withdrawn_table_a_disconnect_leaving_for_100_points_and_a_rematch(browser, server_url,
                                                                                              artifacts):
    with person(browser, server_url, **PHONE) as maria, person(browser, server_url, **PHONE) as dan:
        open_app(dan)
        dan.click("#btn-online")
        nickname(dan, "Dan")
        dan.wait_for_selector("#lobby-open li")
        # Maria's public table shows in Dan's lobby by itself, and goes when she withdraws it.
        open_app(maria)
        maria.click("#btn-online")
        nickname(maria, "Maria")
        maria.click("#btn-create")
        maria.locator("#form-table input[name=clock][value=rapid]").check()
        maria.click("#btn-create-table")
        maria.wait_for_url("**/#/table/*")
        dan.wait_for_function("[...document.querySelectorAll('#lobby-open .who a')].some(a => a.textContent === 'Maria')")
        assert "Maria" in lobby_names(dan)
        dan.screenshot(path=str(artifacts / "online-lobby-live-phone-ro.png"))
        maria.click("#btn-withdraw")
        maria.wait_for_url("**/#/online")
        dan.wait_for_function("![...document.querySelectorAll('#lobby-open .who a')].some(a => a.textContent === 'Maria')")
        # Again; Maria waits in the lobby, her table first; Dan joins from the list with one tap.
        maria.click("#btn-create")
        maria.locator("#form-table select[name=length]").select_option("1")
        # A long clock: whoever has the opening roll must not lose on time (20 s of a rapid 1-point
        # match) while this test waits for the away notice on a loaded machine.
        maria.locator("#form-table input[name=clock][value=relaxed]").check()
        maria.click("#btn-create-table")
        maria.wait_for_url("**/#/table/*")
        maria.click("#btn-back-lobby")
        maria.wait_for_selector("#lobby-mine .table-item")
        dan.wait_for_function("[...document.querySelectorAll('#lobby-open .who a')].some(a => a.textContent === 'Maria')")
        dan.locator("#lobby-open .table-item", has_text="Maria").locator("button").click()
        dan.wait_for_url("**/#/game/*")
        game_url = dan.url
        maria.wait_for_url(game_url.split("#")[0] + "#" + game_url.split("#")[1])
        maria.wait_for_selector("#p-top .clock:not([hidden])")
        assert "Dan" in maria.locator("#p-top .name").inner_text()
        # Dan goes away: Maria sees it at once, with the time until she may claim.
        dan.wait_for_selector("#p-bottom .clock:not([hidden])")
        context = dan.context
        dan.close()
        # The time away counts from the server's moment of the disconnect: on a loaded machine the
        # notice may come a few seconds late, so any time under the 90 s before a claim will do.
        try:
            maria.wait_for_function("document.querySelector('#presence').textContent.includes('Dan s-a deconectat acum')",
                                    timeout=30000)
        except PlaywrightTimeout:
            raise AssertionError(f"no away notice; the presence line says {maria.locator('#presence').inner_text()!r}")
        away = maria.locator("#presence").inner_text()
        # On her own turn she is told to play on (her clock runs), on his the time until she may claim.
        if maria.locator("#p-bottom .clock.running").count():
            assert re.search(r"Dan s-a deconectat acum [1-5]?\d s\. ", away) and RO["away_play_on"] in away, away
        else:
            assert re.search(r"Dan s-a deconectat acum [1-5]?\d s\. Poți cere victoria peste (1 min )?[1-5]?\d s\.", away), away
        assert maria.locator("#controls [data-act=claim]").is_hidden()
        maria.screenshot(path=str(artifacts / "online-opponent-away-phone-ro.png"))
        # He comes back: the notice goes.
        dan = context.new_page()  # the same browser: its device token and settings are kept
        dan.goto(game_url)
        maria.wait_for_selector("#presence", state="hidden")
        dan.wait_for_function("window.__table && window.__table.version() > 0")
        # Maria leaves: she is told it costs 100 points, and it does.
        maria.locator("#controls [data-act=leave]").click()
        assert RO["leave_text"] in maria.locator("#dlg-leave").inner_text()
        maria.click("#btn-leave-ok")
        maria.wait_for_function("document.querySelector('#ledger').textContent === "
                                f"{RO['ledger_loss'].replace('{pts}', '100 de puncte')!r}")
        dan.wait_for_function(f"document.querySelector('#presence').textContent.includes({RO['left_by'].replace('{name}', 'Maria')!r})")
        assert dan.locator("#ledger").inner_text() == RO["ledger_zero"]
        for p in (maria, dan):
            if p.locator("#dlg-result[open]").count():
                p.locator("#dlg-result button").click()
        # A rematch when both want one.
        dan.click("#controls [data-act=rematch]")
        dan.wait_for_function(f"document.querySelector('#presence').textContent.includes({RO['rematch_wait'].replace('{name}', 'Maria')!r})")
        maria.wait_for_function(f"document.querySelector('#presence').textContent.includes({RO['rematch_offered'].replace('{name}', 'Dan')!r})")
        maria.click("#controls [data-act=rematch]")
        for p in (maria, dan):
            p.wait_for_function(f"location.href !== {game_url!r} && location.hash.startsWith('#/game/')")
        assert maria.url == dan.url
        maria.wait_for_selector("#controls [data-act=leave]:not([hidden])")
