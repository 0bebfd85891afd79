"""Plakoto and Fevga against the computer on the server, in the browser on a phone (390x844): the
new-game form offers them against the computer, the game is the server's (not the device's), and
the person plays by taps from the start to the end while the computer answers every turn: a
Plakoto game in Romanian, and a Fevga game in English whose first roll is advised by the hint and
which is reviewed at its end."""

from __future__ import annotations

import re

from tests.e2e.e2e_helpers import new_game, open_app
from tests.e2e.test_nackgammon import _phone
from tests.e2e.test_match import visible
from tests.e2e.test_offline_play import _play_on
from tests.e2e.test_reserve_variants import _api, _finished


def _rolling_by_itself(browser, server_url):
    ctx, page, errors = _phone(browser, server_url)
    # The dice roll themselves (no cube in these games, so nothing to decide before a roll).
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: true, animations: false, botPause: 50}))")
    return ctx, page, errors


def _to_the_end(page):
    """Play by taps while the computer answers, until the game is over; the moves seen."""
    seen: set[str] = set()
    _play_on(page, lambda: visible(page, "rematch"), seen, seconds=180)
    if page.locator("#dlg-result[open]").count():
        page.locator("#dlg-result button").first.click()
    return seen


def _both_moved(server_url, game):
    moves = _api(server_url, f"/api/games/{game}/moves")["moves"]
    return {m["seat"] for m in moves if m["kind"] == "move" and m["steps"]} == {0, 1}  # type: ignore[index]


def test_a_plakoto_game_against_the_computer_on_the_server_from_the_start_to_the_end(browser, server_url, artifacts):
    ctx, page, errors = _rolling_by_itself(browser, server_url)
    try:
        open_app(page, "ro")
        new_game(page, mode="computer", level="easy", length=1, cube=False, variant="plakoto")
        game = page.url.split("/#/game/")[1]
        assert "local-" not in game  # the server's game
        assert page.locator("#variant-badge").inner_text() == "Plakoto"
        assert page.locator("#board .barzone").count() == 0
        page.screenshot(path=str(artifacts / "plakoto-computer-start-phone-ro.png"))
        seen = _to_the_end(page)
        page.screenshot(path=str(artifacts / "plakoto-computer-over-phone-ro.png"))
        view = _finished(server_url, game)
        assert view["result"]["how"] in ("checkers", "mother", "draw"), view["result"]  # type: ignore[index]
        assert _both_moved(server_url, game)
        assert "move" in seen
        assert not errors, errors
    finally:
        ctx.close()


def test_fevga_against_the_computer_on_the_server_from_the_form_with_a_hint_then_to_the_end_and_reviewed(
        browser, server_url, artifacts):
    variant, lang, badge, hint_title = "fevga", "en", "Fevga", "The computer's advice"
    ctx, page, errors = _rolling_by_itself(browser, server_url)
    try:
        open_app(page, lang)
        page.click("#btn-new")
        form = page.locator("#form-new")
        form.locator("input[name=mode][value=computer]").check()
        assert form.locator("input[name=variant][value=plakoto]").is_enabled()
        assert form.locator(f"input[name=variant][value={variant}]").is_enabled()
        form.locator("button[value=cancel]").click()
        new_game(page, mode="computer", level="easy", length=1, cube=False, variant=variant)
        assert re.search(r"#/game/[\w-]+$", page.url) and "local-" not in page.url  # the server's game
        assert page.locator("#variant-badge").inner_text() == badge
        page.screenshot(path=str(artifacts / f"{variant}-computer-start-phone-{lang}.png"))
        # The dice roll by themselves and the computer plays: the person's first roll to play comes
        # by itself; the computer's advice on it.
        page.wait_for_function("document.querySelector('#board .ck.movable')"
                               " && !document.querySelector('#btn-hint').disabled", timeout=60000)
        page.click("#btn-hint")
        page.wait_for_selector("#learn-panel .hint-table tr.best")
        assert hint_title in page.locator("#learn-panel").inner_text()
        # The best play first, written as the person numbers the board (from their own 24-point).
        assert re.match(r"1\. 24/\d", page.locator("#learn-panel .hint-table tr.best td.p").inner_text())
        page.screenshot(path=str(artifacts / f"{variant}-computer-hint-phone-{lang}.png"))
        # Then on to the end of the same game, and its review, which weighs both sides' plays.
        page.click("#learn-panel .close")
        seen = _to_the_end(page)
        page.screenshot(path=str(artifacts / f"{variant}-computer-over-phone-{lang}.png"))
        assert "move" in seen
        game = page.url.split("/#/game/")[1]
        assert _both_moved(server_url, game)
        view = _finished(server_url, game)
        assert view["over"] and max(view["off"]) == 15, view  # nobody resigned
        page.click("#btn-review")
        page.wait_for_selector("#learn-panel .review-table")
        assert page.locator("#learn-panel .review-table tr").count() == 3  # a heading, then each player
        page.screenshot(path=str(artifacts / f"{variant}-computer-review-phone-{lang}.png"))
        assert not errors, errors
    finally:
        ctx.close()
