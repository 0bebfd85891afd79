"""The board fits a phone held upright; screenshots at phone and desktop sizes; keyboard play."""

from __future__ import annotations

from tests.e2e.e2e_helpers import new_game, open_app, wait_my_move


def test_phone_shows_the_whole_board_without_scrolling(phone, artifacts):
    page = phone
    open_app(page)
    new_game(page, mode="computer", level="medium", length=5, cube=True)
    page.wait_for_function("['roll', 'move'].includes(window.__table.phase())")
    box = page.locator("#board").bounding_box()
    width, height = 390, 844
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height
    assert box["width"] >= 360  # it uses the width it has
    sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert sizes[0] <= width and sizes[1] <= height
    # The controls are on screen too.
    controls = page.locator("#controls").bounding_box()
    assert controls["y"] + controls["height"] <= height
    page.wait_for_timeout(500)  # let the dice settle
    page.screenshot(path=str(artifacts / "board-phone.png"))


def test_desktop_screenshot_and_keyboard_move(desktop, artifacts):
    page = desktop
    open_app(page)
    new_game(page, mode="computer", level="medium", cube=False)
    wait_my_move(page)
    page.wait_for_timeout(500)  # let the dice settle
    page.screenshot(path=str(artifacts / "board-desktop.png"))
    # Keyboard: Tab into the board lands on a movable point; Enter picks it, arrows reach a lit
    # destination, Enter moves there.
    page.locator("#board [tabindex='0']").focus()
    focused = page.evaluate("document.activeElement.getAttribute('data-loc')")
    assert focused is not None
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert "poți muta de aici" in label
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .target, #board .trayrect.lit")
    for _ in range(30):
        label = page.evaluate("document.activeElement.getAttribute('aria-label') || ''")
        if "poți muta aici" in label:
            break
        page.keyboard.press("ArrowRight")
    else:
        raise AssertionError("no lit destination reached by the arrow keys")
    page.keyboard.press("Enter")
    page.wait_for_function("!document.querySelector('#controls [data-act=undo]').disabled")
    page.keyboard.press("u")
    page.wait_for_function("document.querySelector('#controls [data-act=undo]').disabled")


def test_reading_pages_in_both_languages(desktop):
    page = desktop
    open_app(page)
    page.click("#btn-pages")
    page.wait_for_selector("#page-body h2")
    assert page.locator("#page-body h2").inner_text() == "Regulile jocului de table"
    page.click("#page-tabs a[href='#/learn/openings']")
    page.wait_for_function("document.querySelectorAll('#page-body tbody tr').length === 21")
    assert "8/5 6/5" in page.locator("#page-body").inner_text()
    for name in ("tips", "glossary", "faq"):
        page.click(f"#page-tabs a[href='#/learn/{name}']")
        page.wait_for_function(f"location.hash === '#/learn/{name}'")
        assert len(page.locator("#page-body").inner_text()) > 500
    page.click("#btn-lang")
    page.wait_for_function("document.querySelector('#page-body h2').textContent.startsWith('Frequently')")


def test_manifest_and_service_worker_are_served(desktop, server_url):
    page = desktop
    open_app(page)
    manifest = page.request.get("/static/manifest.webmanifest").json()
    assert manifest["start_url"] == "/" and any(i["sizes"] == "512x512" for i in manifest["icons"])
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).ok
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)").endswith("/sw.js")
