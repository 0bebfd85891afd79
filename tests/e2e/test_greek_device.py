"""Plakoto and Fevga on one device without a network, in the browser on a phone (390x844): a
Plakoto pin made by taps and drawn under its captor with a
mark and a label, its JSON record exported and read back by Python, and Fevga's start with both
sides at their own corners and no bar.

The dice of games on the device come from ``crypto.getRandomValues`` one byte at a time
(engine/dice.js); the page's one-byte draws are answered from a script here, so the game is known."""

from __future__ import annotations

import json

from table.match import Match

from tests.e2e.e2e_helpers import click_loc, new_game, open_app
from tests.e2e.test_nackgammon import _phone


def _scripted_dice(page, faces: list[int]) -> None:
    """The device's dice give ``faces`` first (then fair ones again)."""
    page.add_init_script(f"""(() => {{
      const faces = {json.dumps(faces)}, real = crypto.getRandomValues.bind(crypto);
      crypto.getRandomValues = (a) => {{
        if (a instanceof Uint8Array && a.length === 1 && faces.length) {{ a[0] = faces.shift() - 1; return a; }}
        return real(a);
      }};
    }})()""")


def on_the_device(page) -> None:
    """Take the network away once the service worker keeps the app: new games live on the device."""
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.wait_for_function("!!navigator.serviceWorker.controller")
    page.context.set_offline(True)


def _new_device_game(page, variant: str) -> None:
    on_the_device(page)
    page.click("#btn-new")
    form = page.locator("#form-new")
    form.locator("input[name=mode][value=local]").check()
    form.locator(f"input[name=variant][value={variant}]").check()
    assert form.locator("input[name=cube]").is_disabled() and not form.locator("input[name=cube]").is_checked()
    form.locator("select[name=length]").select_option("1")
    page.click("#btn-start")
    page.wait_for_url("**/#/game/local-*")
    page.wait_for_selector("#controls [data-act=roll]:visible")


def _point(page, loc: int) -> str:
    return str(page.locator(f"#board .pt[data-loc='{loc}']").get_attribute("aria-label"))


def _move(page, src: int, dst: int) -> None:
    page.wait_for_selector(f"#board .pt[data-loc='{src}'] .ck.movable")  # the roll has arrived
    click_loc(page, src)
    page.wait_for_selector(f"#board .dest[data-loc='{dst}']")
    click_loc(page, dst)


def test_plakoto_on_one_device_a_pin_drawn_under_its_captor(browser, server_url, artifacts):
    ctx, page, errors = _phone(browser, server_url)
    try:
        # White opens (2 against 1) and rolls 5-5; Black then rolls 3-1.
        _scripted_dice(page, [2, 1, 5, 5, 3, 1])
        open_app(page, "ro")
        _new_device_game(page, "plakoto")
        assert page.locator("#variant-badge").inner_text() == "Plakoto"
        assert page.locator("#board .barzone").count() == 0  # nothing is hit: no bar
        page.screenshot(path=str(artifacts / "plakoto-start-phone-ro.png"))
        page.click("#controls [data-act=roll]")
        _move(page, 24, 4)  # one checker all the way, 24/4: alone on Black's 21-point
        page.click("#controls [data-act=confirm]")
        page.click("#controls [data-act=roll]")
        _move(page, 1, 4)  # Black's 24/21* pins it
        assert page.locator("#board .pinmark").count() == 1
        _move(page, 1, 2)
        page.click("#controls [data-act=confirm]")
        page.wait_for_selector("#controls [data-act=roll]:visible")
        # The pinned white checker at the foot of the point, Black's captor above it, and the label says so.
        assert page.locator("#board .pt[data-loc='4'] .pinmark").count() == 1
        assert page.locator("#board .pt[data-loc='4'] .ck").count() == 2
        assert "dedesubt, o piesă albă prinsă" in _point(page, 4)
        # Told in the numbers on the board, White's now (on roll), with * for the pin.
        assert "1/4* 1/2" in page.locator("#last").inner_text()
        page.screenshot(path=str(artifacts / "plakoto-pin-phone-ro.png"))
        # No .mat for Plakoto, said why; Table's JSON record instead, which Python reads back to this game.
        page.click("#btn-export")
        link = page.locator("#learn-panel a[data-kind=json]")
        link.wait_for()
        assert "Plakoto" in page.locator("#export-why").inner_text()
        assert page.locator("#learn-panel a[data-kind=mat]").count() == 0
        with page.expect_download() as caught:
            link.click()
        record = Match.from_json(caught.value.path().read_text(encoding="utf-8"))
        assert record.variant.name == "plakoto"
        assert sorted(record.actions[-1].to_json()["play"].split()) == ["24/21*", "24/23"]
        assert record.position.id.endswith(":4:")  # White (on roll) has a checker pinned on its 4-point
        assert not errors, errors
    finally:
        ctx.close()


def test_fevga_on_one_device_starts_at_opposite_corners(browser, server_url, artifacts):
    ctx, page, errors = _phone(browser, server_url)
    try:
        _scripted_dice(page, [2, 1, 6, 4, 5, 3])  # White opens and rolls 6-4, Black rolls 5-3
        open_app(page, "en")
        _new_device_game(page, "fevga")
        # White's 15 on its 24-point, Black's on White's 12-point (Black's own 24); no bar.
        assert _point(page, 24) == "Point 24: 15 white checkers"
        assert _point(page, 12) == "Point 12: 15 black checkers"
        assert page.locator("#board .barzone").count() == 0
        assert "Both sides move the same way" in page.locator("#variant-start").inner_text()
        page.click("#controls [data-act=roll]")
        # Only one checker may leave until it has passed Black's start: 24/14, one way or the other,
        # picked and put down at the keyboard.
        page.wait_for_selector("#board .pt[data-loc='24'] .ck.movable")
        for loc in (24, 14):
            page.focus(f"#board .pt[data-loc='{loc}']")
            page.keyboard.press("Enter")
        page.click("#controls [data-act=confirm]")
        page.wait_for_selector("#controls [data-act=roll]:visible")
        # Black on roll: the board numbers the points Black's way, its 24 where its checkers are.
        assert _point(page, 12).startswith("Point 24: 15 black checkers")
        assert _point(page, 14).startswith("Point 2: one white checker")
        # The last move told in White's numbering, who made it (Black's would read 12/2).
        assert "24/14" in page.locator("#last").inner_text()
        page.screenshot(path=str(artifacts / "fevga-start-phone-en.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_fevga_against_the_computer_on_the_device_with_its_hint(browser, server_url, artifacts):
    # Without a network the browser's own computer plays Fevga: White opens (2 against 1) with a
    # 6-4, asks for the computer's advice, plays its best, and the computer answers with Black.
    ctx, page, errors = _phone(browser, server_url)
    try:
        _scripted_dice(page, [2, 1, 6, 4])
        open_app(page, "ro")
        on_the_device(page)
        new_game(page, mode="computer", level="medium", length=1, cube=False, variant="fevga")
        assert "local-" in page.url and page.locator("#variant-badge").inner_text() == "Fevga"
        page.click("#controls [data-act=roll]")
        page.wait_for_selector("#board .ck.movable")
        page.click("#btn-hint")
        best = page.locator("#learn-panel .hint-table tr.best td.p")
        best.wait_for()
        # The first checker alone may leave: one play, 24/14, however the dice are used.
        assert best.inner_text() == "1. 24/14", best.inner_text()
        page.screenshot(path=str(artifacts / "fevga-device-hint-phone-ro.png"))
        for loc in (24, 14):
            page.focus(f"#board .pt[data-loc='{loc}']")
            page.keyboard.press("Enter")
        page.click("#controls [data-act=confirm]")
        # The computer (Black) rolls and plays from its own corner, White's 12-point.
        page.wait_for_function("document.querySelector('#last').textContent.includes('Calculatorul')")
        page.wait_for_selector("#controls [data-act=roll]:visible")
        assert not _point(page, 12).startswith("Punctul 12: 15")
        page.screenshot(path=str(artifacts / "fevga-device-computer-phone-ro.png"))
        assert not errors, errors
    finally:
        ctx.close()
