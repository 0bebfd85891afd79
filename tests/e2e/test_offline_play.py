"""Playing with no network at all after one visit: the engine and the computer in the browser.

Visit once (the service worker caches the app, the engine and the weights), go offline
(Playwright's offline mode), reload, and play on the device: a single game against Mediu to the
end, a 3-point match between two players on one device (cube, Crawford, resignations), a game
closed and reopened mid-way (and a hint), the .mat record of a finished game; then back online the
online pages work again.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from table.match import Match

from tests.e2e.e2e_helpers import ACTS, await_roll, download_record, new_game, open_app, play_by_clicks, version
from tests.e2e.test_match import scores, visible


def _offline_context(browser, server_url):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800}, base_url=server_url)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Roll by hand, so that a player may double or resign before rolling; no animations.
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: false, animations: false, botPause: 50}))")
    open_app(page)
    # The offline cache holds every file once the service worker is in charge.
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.wait_for_function("!!navigator.serviceWorker.controller")
    ctx.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    return ctx, page, errors


# The person's own decision: a roll, a take, or checkers to move.
_DECISION = "#controls [data-act=roll]:visible, #controls [data-act=take]:visible, #board .ck.movable"


def _settled(page) -> int:
    """Wait for the person's own decision with nothing changing for a second; its version.

    The computer answers within milliseconds on the device, so a state read at once may be
    the one just before its move."""
    for _ in range(30):
        page.wait_for_selector(_DECISION)
        at = version(page)
        page.wait_for_timeout(1000)
        if version(page) == at and page.locator(_DECISION).count():
            return at
    raise AssertionError("the game never settled at the person's decision")


def _tap(page, selector: str) -> bool:
    """Click ``selector`` unless it goes meanwhile: the state may move on between seeing a button
    and clicking it (the dice rolled for the person, a result shown), and the loop then looks
    again instead of waiting out the whole timeout for a button that will not come back."""
    try:
        page.click(selector, timeout=5000)
    except PlaywrightTimeout:
        return False
    return True


# What the screen offers, read in one call (each Playwright query is a round trip, and the loop
# below looks many times a turn): the controls lit (visible and enabled), whether the app rolls by
# itself, the result shown, and whether a checker or the pile may be picked up.
_SCREEN = """() => {
  """ + ACTS + """
  return { acts, autoRoll: rollsItself(acts), result: !!document.querySelector("#dlg-result[open]"),
    movable: !!document.querySelector("#board .ck.movable, #board .pilerect.source") };
}"""


def _play_on(page, until, seen: set[str], resign_when=None, seconds: float = 300) -> None:
    """Act for whoever may act on this device until ``until()``; note each kind of action in ``seen``.

    Bounded in time, not in turns of the loop: while the computer thinks (slowly, on a busy
    machine building its bear-off database) the loop only waits."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        # Look after the pause, not before it: a state that arrives during the pause must be
        # seen by ``until`` before the loop acts on it (it once played through the first move
        # at which a hint was to be asked, and so through the whole game).
        page.wait_for_timeout(30)
        if until():
            return
        screen = page.evaluate(_SCREEN)
        shown = screen["acts"]
        if screen["result"]:
            _tap(page, "#dlg-result button")
            continue
        if "next_game" in shown:
            if _tap(page, "#controls [data-act=next_game]"):
                seen.add("next_game")
            continue
        if "take" in shown:
            if _tap(page, "#controls [data-act=take]"):
                seen.add("take")
            continue
        if "accept_resignation" in shown:
            if _tap(page, "#controls [data-act=accept_resignation]"):
                seen.add("accept")
            continue
        if "roll" in shown:
            if resign_when is not None and "resign" in shown and resign_when(page, seen):
                if _tap(page, "#controls [data-act=resign]"):
                    seen.add("resign")
                    page.locator("#dlg-resign button[value='1']").click()
                continue
            if "double" in shown and "double" not in seen and resign_when is not None:
                if _tap(page, "#controls [data-act=double]"):
                    seen.add("double")
                continue
            await_roll(page, screen["autoRoll"]); continue
        if "name_double" in shown:  # Acey-Deucey's 1-2: name a double (the highest the roll shows buttons for)
            seen.add("name_double")
            page.locator("#controls [data-act=name_double]:visible").last.click()
            continue
        if screen["movable"]:
            play_by_clicks(page)
            page.click("#controls [data-act=confirm]")
            seen.add("move")
            continue
    # Say what the screen showed, so that a failure names the state the loop could not act in.
    controls = page.locator("#controls button:visible").evaluate_all("bs => bs.map(b => b.dataset.act)")
    raise AssertionError(f"the game did not get there; seen {sorted(seen)}, controls {controls}, "
                         f"status {page.locator('#status').inner_text()!r}, url {page.url}, "
                         f"version {version(page)}")


def test_a_whole_game_against_mediu_offline_then_resumed_and_exported(browser, server_url, artifacts):
    ctx, page, errors = _offline_context(browser, server_url)
    try:
        assert "Fără conexiune" in page.locator("#mode-line").inner_text()
        new_game(page, mode="computer", level="medium", length=1, cube=True)
        assert re.search(r"#/game/local-[0-9a-f]{16}$", page.url)
        assert page.locator("#device-badge").is_visible()
        assert page.locator("#offline").is_hidden()  # no "server unreachable" banner for a game here
        seen: set[str] = set()
        # Greu's advice comes from the device too. Asked at the person's first move: later on
        # the game may end before they have another (closed out, or the computer wins).
        _play_on(page, lambda: page.locator("#btn-hint").is_enabled() and page.locator("#board .ck.movable").count() > 0,
                 seen)
        page.click("#btn-hint")
        page.wait_for_selector(".hint-table tr.best")
        assert page.locator(".hint-table tr").count() >= 2
        # Halfway: close the app and open it again; the game is where it was.
        _play_on(page, lambda: "move" in seen and version(page) >= 12, seen)
        # Close it at the person's own decision, when the computer is not thinking: a move it
        # finds meanwhile would (rightly) be stored and make the game resume further on.
        at, game = _settled(page), page.url
        page.close()
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#device-games a")  # read from IndexedDB
        assert page.locator("#device-games a").count() == 1
        assert "în desfășurare" in page.locator("#device-games").inner_text()
        page.click("#btn-continue")
        page.wait_for_url(game)
        page.wait_for_function(f"window.__table.version() >= {at}")
        assert version(page) == at
        _play_on(page, lambda: page.locator("#dlg-result[open]").count() > 0
                 or visible(page, "rematch"), seen)
        page.screenshot(path=str(artifacts / "offline-game-over-desktop.png"))
        # The record of the finished game: a .mat that the Python engine replays to the same end.
        text = download_record(page, "mat")
        assert text.startswith('; [Site "Table"]') and " 0 point match" in text
        replayed = Match.from_mat(text)
        assert max(replayed.score) >= 1 and replayed.results
        page.goto("/")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#device-games a")
        assert "încheiată" in page.locator("#device-games").inner_text()
        # Back online: the online pages work again.
        ctx.set_offline(False)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert "Online" in page.locator("#mode-line").inner_text()
        page.click("#btn-home-online")
        page.wait_for_selector("#lobby:visible")
        page.wait_for_selector("#dlg-nick[open]")  # the lobby asks a newcomer for a nickname
        page.keyboard.press("Escape")
        page.goto("/")
        page.wait_for_selector("body[data-ready='1']")
        new_game(page, mode="computer", level="easy", length=1, cube=False)
        assert "local-" not in page.url
        # The server's seeded dice are shared by every test before this one: whoever opens, the
        # person soon has checkers to move (rolling by hand when the computer opened).
        page.wait_for_selector("#controls [data-act=roll]:visible, #board .ck.movable")
        if visible(page, "roll"):
            page.click("#controls [data-act=roll]")
        page.wait_for_selector("#board .ck.movable")
        assert page.locator("#device-badge").is_hidden()
        assert not errors, errors
    finally:
        ctx.close()


def test_a_three_point_match_between_two_players_offline(browser, server_url, artifacts):
    ctx, page, errors = _offline_context(browser, server_url)
    try:
        new_game(page, mode="local", length=3, cube=True)
        assert "local-" in page.url
        seen: set[str] = set()

        def resign(page, seen) -> bool:
            # After a double and a few moves, the player on roll gives up a single game; in the
            # Crawford game and after it, at once.
            if page.locator("#crawford").is_visible():
                seen.add("crawford")
            return "take" in seen and version(page) > 12 or sum(scores(page)) > 0

        _play_on(page, lambda: visible(page, "rematch"), seen, resign_when=resign)
        a, b = scores(page)
        assert max(a, b) >= 3
        assert {"double", "take", "resign", "accept", "next_game", "crawford"} <= seen, seen
        page.screenshot(path=str(artifacts / "offline-match-over-desktop.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_offline_on_a_phone_in_both_languages(browser, server_url, artifacts):
    from tests.e2e.online_helpers import PHONE

    for lang, offline_words in (("ro", "Fără conexiune"), ("en", "Offline")):
        ctx = browser.new_context(bypass_csp=True, base_url=server_url, **PHONE)
        ctx.set_default_timeout(20000)
        page = ctx.new_page()
        try:
            page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({animations: false}))")
            open_app(page, lang)
            page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
            page.wait_for_function("!!navigator.serviceWorker.controller")
            ctx.set_offline(True)
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            assert offline_words in page.locator("#mode-line").inner_text()
            page.screenshot(path=str(artifacts / f"offline-home-phone-{lang}.png"))
            new_game(page, mode="computer", level="medium", length=1, cube=True)
            page.wait_for_selector("#board .ck")
            assert page.locator("#device-badge").is_visible()
            # The board fills the phone's width, as online.
            width = page.evaluate("document.querySelector('#board').getBoundingClientRect().width")
            assert width >= 0.9 * 390
            page.screenshot(path=str(artifacts / f"offline-game-phone-{lang}.png"))
        finally:
            ctx.close()
