"""Plakoto and Fevga against the computer on the server, in the browser on a phone (390x844): the
new-game form offers them against the computer, the game is the server's (not the device's), the
person plays it by taps to the end while the computer answers every turn, the hint ranks the
person's plays (in Romanian), the result is said (in English for Fevga) and the game reviewed."""

from __future__ import annotations

import re

import pytest

from tests.e2e.e2e_helpers import new_game, open_app
from tests.e2e.test_nackgammon import _phone
from tests.e2e.test_match import visible
from tests.e2e.test_offline_play import _play_on

WORDS = {"plakoto": ("ro", "Plakoto", "Sfatul calculatorului"), "fevga": ("en", "Fevga", "The computer's advice")}


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_a_greek_game_against_the_computer_on_the_server_to_the_end(browser, server_url, artifacts, variant):
    lang, badge, hint_title = WORDS[variant]
    ctx, page, errors = _phone(browser, server_url)
    # The dice roll themselves (no cube in these games, so nothing to decide before a roll).
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: true, animations: false}))")
    try:
        open_app(page, lang)
        page.click("#btn-new")
        form = page.locator("#form-new")
        form.locator("input[name=mode][value=computer]").check()
        assert form.locator(f"input[name=variant][value={variant}]").is_enabled()
        form.locator("button[value=cancel]").click()
        new_game(page, mode="computer", level="easy", length=1, cube=False, variant=variant)
        assert re.search(r"#/game/[\w-]+$", page.url) and "local-" not in page.url  # the server's game
        assert page.locator("#variant-badge").inner_text() == badge
        page.screenshot(path=str(artifacts / f"{variant}-computer-start-phone-{lang}.png"))
        seen: set[str] = set()
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
        # Until the game is over (the loop closes the result's dialog on its way).
        _play_on(page, lambda: visible(page, "rematch"), seen)
        if page.locator("#dlg-result[open]").count():
            page.locator("#dlg-result button").first.click()
        page.screenshot(path=str(artifacts / f"{variant}-computer-over-phone-{lang}.png"))
        assert "move" in seen
        # The review weighs both sides' plays.
        page.click("#btn-review")
        page.wait_for_selector("#learn-panel .review-table")
        assert page.locator("#learn-panel .review-table tr").count() == 3  # a heading, then each player
        page.screenshot(path=str(artifacts / f"{variant}-computer-review-phone-{lang}.png"))
        moves = page.evaluate("fetch(location.hash.replace('#/game/', '/api/games/') + '/moves').then(r => r.json())")
        assert {m["seat"] for m in moves["moves"] if m["kind"] == "move" and m["steps"]} == {0, 1}
        assert not errors, errors
    finally:
        ctx.close()
