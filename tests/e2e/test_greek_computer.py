"""Plakoto and Fevga against the computer on the server, in the browser on a phone (390x844): the
new-game form offers them against the computer, the game is the server's (not the device's), the
person plays by taps to the end while the computer answers every turn: a whole Fevga game from the
form, its first roll advised by the hint and the finished game reviewed (in English); a Plakoto
game from a position near the end, made through the API as a program would (in Romanian)."""

from __future__ import annotations

import json
import re

from table.rules.position import Position

from tests.e2e.e2e_helpers import new_game, open_app
from tests.e2e.test_nackgammon import _phone
from tests.e2e.test_match import visible
from tests.e2e.test_offline_play import _play_on
from tests.e2e.test_reserve_variants import _api, _finished, _match_id


def _rolling_by_itself(browser, server_url):
    ctx, page, errors = _phone(browser, server_url)
    # The dice roll themselves (no cube in these games, so nothing to decide before a roll).
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: true, animations: false}))")
    return ctx, page, errors


def test_a_plakoto_game_against_the_computer_on_the_server_to_the_end(browser, server_url, artifacts):
    # Near the end: each side's last straggler still to come past the other's, the rest at home.
    position = Position.from_checkers({16: 1, 8: 2, 6: 4, 5: 4, 4: 2, 3: 2}, {14: 1, 8: 2, 6: 4, 5: 3, 4: 3, 2: 2},
                                      "plakoto")
    made = _api(server_url, "/api/games", {"mode": "computer", "level": "easy", "length": 1, "cube": False,
                                           "variant": "plakoto",
                                           "start": {"position": position.id, "match": _match_id((0, 0))}})
    ctx, page, errors = _rolling_by_itself(browser, server_url)
    try:
        page.add_init_script(f"localStorage.setItem('table.games', JSON.stringify({{{json.dumps(made['game'])}: "
                             f"{{token: {json.dumps(made['token'])}, created: 1}}}}))")
        open_app(page, "ro")
        page.goto(f"/#/game/{made['game']}")
        page.wait_for_function("window.__table && window.__table.version() >= 0")
        assert page.locator("#variant-badge").inner_text() == "Plakoto"
        assert page.locator("#board .barzone").count() == 0
        page.screenshot(path=str(artifacts / "plakoto-computer-start-phone-ro.png"))
        seen: set[str] = set()
        _play_on(page, lambda: visible(page, "rematch"), seen, seconds=180)
        if page.locator("#dlg-result[open]").count():
            page.locator("#dlg-result button").first.click()
        page.screenshot(path=str(artifacts / "plakoto-computer-over-phone-ro.png"))
        view = _finished(server_url, str(made["game"]))
        assert view["result"]["how"] in ("checkers", "mother", "draw"), view["result"]  # type: ignore[index]
        moves = _api(server_url, f"/api/games/{made['game']}/moves")["moves"]
        assert {m["seat"] for m in moves if m["kind"] == "move" and m["steps"]} == {0, 1}  # type: ignore[index]
        assert "move" in seen
        assert not errors, errors
    finally:
        ctx.close()


def test_a_whole_fevga_game_against_the_computer_on_the_server_with_a_hint_and_its_review(
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
