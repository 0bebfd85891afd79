"""The Tavli match on one device without a network, in the browser on a phone (390x844): the
new-game form offers it to 3, 5 or 7 points; the badge names the game being played (Portes, then
Plakoto), the status who won the Greek opening roll, the score line the match score; the
hint button (the device's engine advises in them); the first game's winner starts the second without an
opening roll; the match's JSON record, exported, reads back in Python.  The first game ends by a
resignation, so the test stays short."""

from __future__ import annotations

from table.match import Match, Phase

from tests.e2e.e2e_helpers import open_app
from tests.e2e.test_greek_device import _scripted_dice, on_the_device
from tests.e2e.test_nackgammon import _phone

WORDS = {
    "ro": {"badge1": "Tavli · Portes (jocul 1)", "badge2": "Tavli · Plakoto (jocul 2)",
           "opening": "Albul a câștigat aruncarea de început, 5 la 3.", "score": "Scor 0–1 · până la 3 puncte",
           "note": "O partidă de Portes, Plakoto și Fevga, pe rând"},
    "en": {"badge1": "Tavli · Portes (game 1)", "badge2": "Tavli · Plakoto (game 2)",
           "opening": "White won the opening roll, 5 to 3.", "score": "Score 0–1 · match to 3 points",
           "note": "A match of Portes, Plakoto and Fevga in turn"},
}


def _start_tavli(page) -> None:
    page.click("#btn-new")
    form = page.locator("#form-new")
    form.locator("input[name=mode][value=local]").check()
    form.locator("input[name=variant][value=tavli]").check()
    # To 3, 5 or 7 points only, without the cube.
    enabled = form.locator("select[name=length] option:not([disabled])").evaluate_all("os => os.map(o => o.value)")
    assert enabled == ["3", "5", "7"], enabled
    assert form.locator("select[name=length]").input_value() == "3"
    assert form.locator("input[name=cube]").is_disabled() and not form.locator("input[name=cube]").is_checked()


def test_a_tavli_match_on_one_device_goes_from_portes_to_plakoto(browser, server_url, artifacts):
    for lang, words in WORDS.items():
        ctx, page, errors = _phone(browser, server_url)
        try:
            _scripted_dice(page, [5, 3])  # White wins the opening roll, 5 against 3
            open_app(page, lang)
            on_the_device(page)
            _start_tavli(page)
            assert words["note"] in page.locator("#variant-start").inner_text()
            page.screenshot(path=str(artifacts / f"tavli-form-phone-{lang}.png"))
            page.click("#btn-start")
            page.wait_for_url("**/#/game/local-*")
            page.wait_for_selector("#controls [data-act=roll]:visible")
            assert page.locator("#variant-badge").inner_text() == words["badge1"]
            assert words["opening"] in page.locator("#status").inner_text()
            assert page.locator("#btn-hint").is_visible()  # the device's engine advises in each game
            assert page.locator("#board .barzone").count() == 1  # Portes is backgammon's board
            page.screenshot(path=str(artifacts / f"tavli-portes-phone-{lang}.png"))
            # White resigns a single game, Black accepts: 1 point to Black.
            page.click("#controls [data-act=resign]")
            assert page.locator("#dlg-resign button[value='3']").is_hidden()  # no backgammon in Portes
            page.locator("#dlg-resign button[value='1']").click()
            page.click("#controls [data-act=accept_resignation]")
            page.wait_for_selector("#dlg-result[open]")
            page.locator("#dlg-result button[value=ok]").click()
            page.click("#controls [data-act=next_game]")
            # Game 2 is Plakoto, and Black, who won game 1, rolls first: no opening roll.
            page.wait_for_function("document.getElementById('variant-badge').textContent.includes('Plakoto')")
            assert page.locator("#variant-badge").inner_text() == words["badge2"]
            assert page.locator("#score").inner_text() == words["score"]
            assert page.locator("#controls [data-act=roll]").is_visible()
            assert page.locator("#p-top.active").count() == 1  # Black (at the top) is on roll
            assert page.locator("#board .barzone").count() == 0
            assert page.locator("#btn-hint").is_visible()  # the device's engine advises in each game
            page.screenshot(path=str(artifacts / f"tavli-plakoto-phone-{lang}.png"))
            if lang == "en":
                # No .mat for a Tavli match; Table's JSON record, which Python reads back to this game.
                page.click("#btn-export")
                link = page.locator("#learn-panel a[data-kind=json]")
                link.wait_for()
                assert "Tavli" in page.locator("#export-why").inner_text()
                with page.expect_download() as caught:
                    link.click()
                back = Match.from_json(caught.value.path().read_text(encoding="utf-8"))
                assert (back.kind, back.variant.name, back.game_number, back.score, back.phase, back.on_roll) == \
                    ("tavli", "plakoto", 2, (0, 1), Phase.ROLL, 1)
            assert not errors, errors
        finally:
            ctx.close()
