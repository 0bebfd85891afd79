"""Hypergammon in the browser on a phone (390x844): offered by the new-game form in Romanian and
English with its start under the choice, and a 1-point match against the computer played to the
end on the device (the engine and Hypergammon's own networks in the browser, no network), its
.mat export naming the variation as GNU Backgammon does."""

from __future__ import annotations

from pathlib import Path

from table.match import Match
from table.rules.variant import HYPERGAMMON

from tests.e2e.e2e_helpers import new_game, open_app
from tests.e2e.test_match import visible
from tests.e2e.test_nackgammon import COUNT, _export_mat, _phone
from tests.e2e.test_offline_play import _play_on


def test_hypergammon_against_the_computer_on_the_device(browser, server_url, artifacts):
    for lang, hint in (("ro", "La început: 1\u00a0pe\u00a024, 1\u00a0pe\u00a023, 1\u00a0pe\u00a022"),
                       ("en", "At the start: 1\u00a0on\u00a024, 1\u00a0on\u00a023, 1\u00a0on\u00a022")):
        ctx, page, errors = _phone(browser, server_url)
        try:
            open_app(page, lang)
            page.click("#btn-new")
            form = page.locator("#form-new")
            form.locator("input[name=variant][value=hypergammon]").check()
            assert "Hypergammon" in form.locator("#fs-variant").inner_text()
            assert page.locator("#variant-start").inner_text().startswith(hint)
            page.screenshot(path=str(artifacts / f"hypergammon-form-phone-{lang}.png"))
            page.locator("#form-new button[value=cancel]").click()
            if lang == "en":
                # Two players on one device: Hypergammon's start, three checkers a side.
                new_game(page, mode="local", length=1, variant="hypergammon")
                page.wait_for_selector("#board .ck.movable")
                points = [p for p, _ in HYPERGAMMON.start]
                assert page.evaluate(COUNT, points + [25 - p for p in points]) == [1] * 6
                assert page.locator("#variant-badge").inner_text() == "Hypergammon"
                page.screenshot(path=str(artifacts / f"hypergammon-board-phone-{lang}.png"))
                assert not errors, errors
                continue
            # On the device, with no network: the browser's engine and Hypergammon's networks.
            page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
            page.wait_for_function("!!navigator.serviceWorker.controller")
            ctx.set_offline(True)
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            new_game(page, mode="computer", level="easy", length=1, cube=False, variant="hypergammon")
            assert "local-" in page.url
            assert page.locator("#variant-badge").inner_text() == "Hypergammon"
            page.screenshot(path=str(artifacts / f"hypergammon-start-phone-{lang}.png"))
            _play_on(page, lambda: visible(page, "rematch"), set(), seconds=240)
            page.screenshot(path=str(artifacts / f"hypergammon-over-phone-{lang}.png"))
            text = _export_mat(page)
            assert '; [Variation "HyperGammon (3)"]' in text, text[:400]
            ours = Match.from_mat(text)
            assert ours.variant is HYPERGAMMON and len(ours.results) == 1
            # One game: a single game, a gammon or a backgammon (none of three off), cube unused.
            assert ours.results[0].points in (1, 2, 3) and max(ours.score) == ours.results[0].points
            assert not errors, errors
        finally:
            ctx.close()
