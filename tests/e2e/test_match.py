"""Two players on one device play a whole match with the cube, then a rematch."""

from __future__ import annotations

import re

from tests.e2e.e2e_helpers import answered, new_game, open_app, play_by_clicks, version


def visible(page, act: str) -> bool:
    b = page.locator(f"#controls [data-act={act}]")
    return b.is_visible() and b.is_enabled()


def scores(page) -> tuple[int, int]:
    m = re.search(r"(\d+)–(\d+)", page.locator("#score").inner_text())
    assert m, page.locator("#score").inner_text()
    return int(m.group(1)), int(m.group(2))


def test_two_players_play_a_match_with_the_cube(desktop, artifacts):
    page = desktop
    # Roll by hand, so that a player may resign before rolling.
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: false, animations: false, botPause: 50}))")
    open_app(page)
    new_game(page, mode="local", length=3, cube=True)
    seen = set()
    doubles = 0
    for _ in range(400):
        page.wait_for_function("window.__table && window.__table.version() > 0")
        page.wait_for_timeout(30)
        if page.locator("#dlg-result[open]").count():
            page.locator("#dlg-result button").click()
        if visible(page, "rematch"):
            break
        if visible(page, "next_game"):
            # The game's result is a sentence of its own before what to do next.
            status = page.locator("#status").inner_text()
            assert re.search(r"\d+ (de )?punc(t|te)\. Apasă", status), status
            seen.add("next_game"); answered(page, "next_game"); continue
        if visible(page, "take"):
            # The first double is taken, the redouble dropped.
            act = "take" if "take" not in seen else "drop"
            seen.add(act); answered(page, act); continue
        if visible(page, "accept_resignation"):
            seen.add("accept"); answered(page, "accept_resignation"); continue
        if visible(page, "double") and doubles < 2:
            doubles += 1; seen.add("double"); answered(page, "double"); continue
        if page.locator("#crawford").is_visible():
            # No cube may be used in the Crawford game, so none is drawn.
            seen.add("crawford")
            assert page.locator("#board .cube").count() == 0
        if visible(page, "roll"):
            a, b = scores(page)
            bottom_on_roll = "active" in (page.locator("#p-bottom").get_attribute("class") or "")
            behind = (a < b) if bottom_on_roll else (b < a)
            if a + b > 0 and behind and visible(page, "resign"):
                # Behind in the Crawford game: give up a single game.
                seen.add("resign")
                page.click("#controls [data-act=resign]")
                at = version(page)
                page.locator("#dlg-resign button[value='1']").click()
                page.wait_for_function(f"window.__table.version() !== {at}")
                continue
            answered(page, "roll"); continue
        if page.locator("#board .ck.movable").count():
            play_by_clicks(page)
            answered(page, "confirm")
            continue
    else:
        raise AssertionError("the match did not end")
    a, b = scores(page)
    assert max(a, b) >= 3
    assert {"double", "take", "drop", "next_game"} <= seen
    page.screenshot(path=str(artifacts / "match-over-desktop.png"))
    old = page.url
    page.click("#controls [data-act=rematch]")
    page.wait_for_function(f"location.href !== {old!r}")
    page.wait_for_function("document.querySelector('#score').textContent.includes('0–0')")
    assert page.locator("#controls [data-act=rematch]").is_hidden()
