"""Nackgammon in the browser on a phone (390x844): chosen in the new-game form, started from its
own position, played to the end against the computer on the server and offline on the device, and
its .mat export read back by GNU Backgammon with the variation and the score."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.match import Match
from table.rules.variant import NACKGAMMON, VARIANTS

from tests.e2e.e2e_helpers import new_game, open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.test_match import visible
from tests.e2e.test_offline_play import _play_on
from tests.notation.helpers import needs_gnubg, through_gnubg

RO = catalogue("ro")

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

# Checkers on each point at the start, by the point's number (both sides start alike): the
# opponent's mirror the mover's.  Counted on the drawn board.
COUNT = """(points) => points.map(p => document.querySelectorAll(`#board [data-loc='${p}'] .ck`).length)"""


def _start_counts(page) -> list[int]:
    points = [p for p, _ in NACKGAMMON.start]
    return list(page.evaluate(COUNT, points + [25 - p for p in points]))


def _export_mat(page) -> str:
    if page.locator("#dlg-result[open]").count():
        page.locator("#dlg-result button").click()
    page.click("#btn-export")
    with page.expect_download() as dl:
        page.locator("a[data-kind=mat]").click()
    return Path(dl.value.path()).read_text(encoding="utf-8")


def _check_record(text: str, folder: Path) -> None:
    """Our .mat of a single game: Nackgammon for Python and for GNU Backgammon, won by someone."""
    assert '; [Variation "NackGammon"]' in text, text[:400]
    # A single game is written as GNU Backgammon writes one game of a session: " 0 point match".
    assert " 0 point match" in text, text[:400]
    ours = Match.from_mat(text)
    assert ours.variant is NACKGAMMON and len(ours.results) == 1 and max(ours.score) >= 1, ours.score
    back = through_gnubg(text, "mat", folder)
    assert '; [Variation "NackGammon"]' in back, back[:400]
    again = Match.from_mat(back)
    assert again.variant is NACKGAMMON
    assert again.score == ours.score and [r.points for r in again.results] == [r.points for r in ours.results]


def _play_the_game_and_check_its_record(page, folder: Path) -> None:
    """Play the single game on screen to its end, then export its .mat and check it."""
    _play_on(page, lambda: visible(page, "rematch"), set(), seconds=600)
    assert page.locator("#score").inner_text() == RO["length_single"]  # a single game shows no score
    _check_record(_export_mat(page), folder)


def _phone(browser, server_url):
    ctx = browser.new_context(bypass_csp=True, base_url=server_url, **PHONE)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: false, animations: false, botPause: 50}))")
    return ctx, page, errors


def test_the_form_offers_nackgammon_and_the_board_starts_from_it(browser, server_url, artifacts):
    for lang, name, hint in (("ro", "Nackgammon", "La început: 2\u00a0pe\u00a024, 2\u00a0pe\u00a023"),
                             ("en", "Nackgammon", "At the start: 2\u00a0on\u00a024, 2\u00a0on\u00a023")):
        ctx, page, errors = _phone(browser, server_url)
        try:
            open_app(page, lang)
            page.click("#btn-new")
            form = page.locator("#form-new")
            # Every variant Table offers, then the Greek games and the Tavli match, each to be chosen.
            offered = form.locator("input[name=variant]:not([disabled])").evaluate_all("xs => xs.map(x => x.value)")
            assert offered == [*VARIANTS, "plakoto", "fevga", "portes", "tavli"], offered
            assert form.locator("input[name=variant][value=standard]").is_checked()
            assert page.locator("#variant-start").is_hidden()
            form.locator("input[name=variant][value=nackgammon]").check()
            assert name in form.locator("#fs-variant").inner_text()
            assert page.locator("#variant-start").inner_text().startswith(hint)
            page.screenshot(path=str(artifacts / f"nackgammon-form-phone-{lang}.png"))
            page.locator("#form-new button[value=cancel]").click()
            # Two players on one device: the opening roll is made, nothing moved yet.
            new_game(page, mode="local", length=3, cube=True, variant="nackgammon")
            page.wait_for_selector("#board .ck.movable")
            assert _start_counts(page) == [2, 2, 4, 3, 4] * 2
            assert page.locator("#variant-badge").inner_text() == "Nackgammon"
            page.screenshot(path=str(artifacts / f"nackgammon-board-phone-{lang}.png"))
            # The next new game offers the variant played last.
            page.click("#btn-new")
            assert page.locator("#form-new input[name=variant][value=nackgammon]").is_checked()
            page.locator("#form-new button[value=cancel]").click()
            assert not errors, errors
        finally:
            ctx.close()


@needs_gnubg
# A single game each: the whole seam in CI's time (a 3-point match took 91 s on the device in a
# CI try); test_offline_play and test_match play longer matches.
@pytest.mark.parametrize("where", ["server", "offline"])
def test_a_nackgammon_match_against_the_computer_to_the_end(browser, server_url, artifacts, tmp_path, where):
    ctx, page, errors = _phone(browser, server_url)
    try:
        open_app(page)
        if where == "offline":
            # One visit keeps the app, the engine and the weights; then no network at all.
            page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
            page.wait_for_function("!!navigator.serviceWorker.controller")
            ctx.set_offline(True)
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
        new_game(page, mode="computer", level="easy", length=1, cube=False, variant="nackgammon")
        assert ("local-" in page.url) == (where == "offline")  # the device's game, or the server's
        assert page.locator("#variant-badge").inner_text() == "Nackgammon"
        _play_the_game_and_check_its_record(page, tmp_path)
        page.screenshot(path=str(artifacts / f"nackgammon-over-phone-{where}.png"))
        if where == "offline":
            # The device's list of games names the variant; the game resumes with it after a reload.
            game = page.url
            page.goto("/")
            page.wait_for_selector("#device-games a")
            assert "Nackgammon" in page.locator("#device-games").inner_text()
            page.goto(game)
            page.wait_for_function("window.__table.version() > 0")
        else:
            # A rematch is Nackgammon again.
            url = page.url
            page.click("#controls [data-act=rematch]")
            page.wait_for_function("u => location.href !== u", arg=url)
            page.wait_for_function("document.querySelector('#board').childElementCount > 0")
            page.wait_for_selector("#variant-badge:visible")
        assert page.locator("#variant-badge").inner_text() == "Nackgammon"
        assert not errors, errors
    finally:
        ctx.close()
