"""The board fits a phone held upright; screenshots at phone and desktop sizes; keyboard play."""

from __future__ import annotations

from tests.e2e.e2e_helpers import new_game, open_app, wait_dice_settled, wait_my_move


MEASURE = """() => {
  const svg = document.querySelector('#board'), k = svg.getScreenCTM().a;
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const shown = [...document.querySelectorAll('#controls button')].filter(b => !b.hidden);
  const board = [...svg.querySelectorAll('.frame')].map(box)[0];
  return {
    board, checker: box(svg.querySelector('.ck'))[2],
    numberFont: Math.min(...[...svg.querySelectorAll('.num')].map(n => parseFloat(n.getAttribute('font-size')) * k)),
    die: box(svg.querySelector('.dice:not(.lastdice) .die rect'))[2],
    dice: [...svg.querySelectorAll('.die rect, .dice text')].map(box),
    controls: shown.map(box),
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
  };
}"""


def test_phone_upright_board_fills_the_width_with_controls_at_the_bottom(phone, artifacts):
    page = phone
    open_app(page)
    new_game(page, mode="computer", level="medium", length=5, cube=True)
    page.wait_for_function("['roll', 'move'].includes(window.__table.phase())")
    if page.evaluate("window.__table.phase()") == "roll":
        page.click("#controls [data-act=roll]")
    # The roll to play: when the computer opened, its dice are drawn too, smaller (.lastdice).
    page.wait_for_selector("#board .dice:not(.lastdice) .die")
    wait_dice_settled(page)
    m = page.evaluate(MEASURE)
    width, height = 390, 844
    x, y, w, h = m["board"]
    assert x >= 0 and y >= 0 and x + w <= width + 0.5 and y + h <= height
    assert w >= 0.95 * width  # the board takes the width
    assert m["checker"] >= 26 and m["die"] >= 32 and m["numberFont"] >= 11, m
    # Nothing drawn with the dice overlaps another die (a double shows four dice, no "×4" label).
    dice = m["dice"]
    for i, (ax, ay, aw, ah) in enumerate(dice):
        for bx, by, bw, bh in dice[i + 1:]:
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, dice
    assert m["scroll"][0] <= width and m["scroll"][1] <= height
    # The buttons sit at the bottom, within a thumb's reach, and the board takes the height between.
    assert m["controls"]
    assert all(by + bh <= height for _, by, _, bh in m["controls"])
    assert max(by + bh for _, by, _, bh in m["controls"]) >= height - 30
    assert h >= 0.6 * height
    page.screenshot(path=str(artifacts / "board-phone.png"))


def test_phone_on_its_side_plays_without_scrolling(browser, server_url, artifacts):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True, base_url=server_url)
    try:
        page = ctx.new_page()
        open_app(page)
        new_game(page, mode="computer", level="easy", cube=False)
        wait_my_move(page)
        m = page.evaluate(MEASURE)
        x, y, w, h = m["board"]
        assert y + h <= 390 and x + w <= 844
        assert m["scroll"][1] <= 390 and m["scroll"][0] <= 844
        # Every action button is on screen, beside the board.
        assert m["controls"] and all(by + bh <= 390 and bx >= x + w for bx, by, _, bh in m["controls"])
        assert m["checker"] >= 24, m
        page.screenshot(path=str(artifacts / "board-phone-landscape.png"))
    finally:
        ctx.close()


def test_desktop_screenshot_and_keyboard_move(desktop, artifacts):
    page = desktop
    open_app(page)
    new_game(page, mode="computer", level="medium", cube=False)
    wait_my_move(page)
    wait_dice_settled(page)
    page.screenshot(path=str(artifacts / "board-desktop.png"))
    # The score board, messages and controls use the side of the screen, beside the board.
    m = page.evaluate(MEASURE)
    side = page.locator("#p-bottom").bounding_box()
    assert side["x"] >= m["board"][0] + m["board"][2] and m["board"][3] >= 650
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
    # "u" takes back one step: a destination reached with both dice (or more of a double) was
    # several steps, each taken back by its own "u" (the dice decide how many).
    for _ in range(4):
        page.keyboard.press("u")
        if page.evaluate("document.querySelector('#controls [data-act=undo]').disabled"):
            break
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
    # Every game the app offers is explained, the Greek ones too, in each language.
    page.click("#page-tabs a[href='#/learn/variants']")
    page.wait_for_function("location.hash === '#/learn/variants'")
    titles = page.locator("#page-body h3").all_inner_texts()
    assert {"Plakoto", "Fevga", "Portes and the Tavli match", "Acey-Deucey"} <= set(titles), titles
    page.click("#btn-lang")
    page.wait_for_function("document.querySelector('#page-body h2').textContent.startsWith('Alte jocuri')")
    assert "Portes și partida de Tavli" in page.locator("#page-body h3").all_inner_texts()


def test_manifest_and_service_worker_are_served(desktop, server_url):
    page = desktop
    open_app(page)
    manifest = page.request.get("/static/manifest.webmanifest").json()
    assert manifest["start_url"] == "/" and any(i["sizes"] == "512x512" for i in manifest["icons"])
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).ok
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)").endswith("/sw.js")
