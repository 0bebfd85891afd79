"""A person playing in real headless Chromium."""

from __future__ import annotations

import json
import re

from tests.e2e.e2e_helpers import (click_loc, loc_of, new_game, open_app, play_by_clicks, start_easy_game,
                                   version, wait_my_move)


def lift(page, src: int) -> None:
    """Press on the top checker of ``src`` and start dragging it."""
    box = page.locator(f"#board [data-loc='{src}'] .ck.movable").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)


def drag(page, src: int) -> None:
    """Drag the top checker of ``src`` onto its first lit destination."""
    lift(page, src)
    tb = page.locator("#board .target, #board .trayrect.lit").first.bounding_box()
    page.mouse.move(tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2, steps=8)
    page.mouse.up()


def test_play_the_computer_by_click_and_drag(desktop):
    page = desktop
    start_easy_game(page)
    before = version(page)
    # First checker by two taps.
    src = loc_of(page, "#board .ck.movable")
    click_loc(page, src)
    page.wait_for_selector("#board .target, #board .trayrect.lit")
    click_loc(page, loc_of(page, "#board .target, #board .trayrect.lit"))
    assert page.locator("#controls [data-act=undo]").is_enabled()
    # Then by dragging, until the whole roll is used.
    for _ in range(4):
        if page.locator("#controls [data-act=confirm]").is_enabled():
            break
        drag(page, loc_of(page, "#board .ck.movable"))
    page.click("#controls [data-act=confirm]")
    # The computer rolls and replies; then it is our move again (or the game ended).
    page.wait_for_function(f"window.__table.version() >= {before + 3}")
    page.wait_for_function("document.querySelector('#last').textContent.includes('Calculatorul')")


def test_an_illegal_drop_is_refused(desktop):
    page = desktop
    start_easy_game(page)
    v = version(page)
    src = loc_of(page, "#board .ck.movable")
    # Drop it on a point that is not lit: the opponent's 6-point holds five checkers.
    blocked = page.locator("#board [data-loc='19'] .hit" if src < 19 else "#board [data-loc='1'] .hit").bounding_box()
    assert blocked is not None
    lift(page, src)
    page.mouse.move(blocked["x"] + blocked["width"] / 2, blocked["y"] + 30, steps=6)
    page.mouse.up()
    page.wait_for_function("document.querySelector('#toast').textContent.includes('nepermisă')")
    assert page.locator("#controls [data-act=undo]").is_disabled()
    assert version(page) == v


def test_reload_keeps_the_game(desktop):
    page = desktop
    start_easy_game(page)
    play_by_clicks(page)
    page.click("#controls [data-act=confirm]")
    wait_my_move(page)
    url, v = page.url, version(page)
    # The same board, but for the dice's rolling animation, which a reload does not replay.
    board = page.locator("#board").inner_html().replace("dice rolling", "dice")
    page.reload()
    page.wait_for_function(f"window.__table && window.__table.version() == {v}")
    assert page.url == url and page.locator("#board").inner_html() == board
    # From the home page the game is offered again.
    page.goto("/#/")
    page.wait_for_selector("#btn-continue")
    assert page.locator("#play").is_hidden() and page.locator("#home").is_visible()
    page.click("#btn-continue")
    page.wait_for_function(f"window.__table.version() == {v}")
    assert page.url == url


def test_english_switch(desktop):
    page = desktop
    open_app(page)
    assert page.locator("#btn-home-new").inner_text() == "Joc nou"
    page.click("#btn-lang")
    page.wait_for_function("document.querySelector('#btn-home-new').textContent === 'New game'")
    assert page.evaluate("document.documentElement.lang") == "en"
    new_game(page, mode="computer", level="easy", cube=False)
    wait_my_move(page)
    assert "pick a highlighted checker" in page.locator("#status").inner_text()
    page.click("#btn-lang")
    page.wait_for_function("document.querySelector('#status').textContent.includes('alege o piesă evidențiată')")


def test_server_unreachable_is_said_plainly(desktop):
    page = desktop
    start_easy_game(page)
    assert page.locator("#offline").is_hidden()
    page.context.set_offline(True)
    page.wait_for_selector("#offline", state="visible")
    assert "Serverul nu răspunde" in page.locator("#offline").inner_text()
    page.context.set_offline(False)


def test_one_gesture_uses_both_dice(desktop):
    page = desktop
    open_app(page)
    for _ in range(6):
        new_game(page, mode="computer", level="easy", cube=False)
        wait_my_move(page)
        # The roll to play, not the last move's dice (drawn too when the computer has just moved).
        dice = page.evaluate("[...document.querySelectorAll('#board .dice:not(.lastdice) .die')].length")
        label = page.locator("#board .dice:not(.lastdice)").get_attribute("aria-label")
        a, b = [int(x) for x in label.split() if x.isdigit()]
        if a != b and dice == 2:
            break
    else:
        raise AssertionError("no non-double roll to test with")
    # Find a checker whose farthest lit destination is both dice away, and tap it there.
    for src in sorted({int(x) for x in page.evaluate(
            "[...document.querySelectorAll('#board .ck.movable')].map(c => c.closest('[data-loc]').dataset.loc)")}):
        click_loc(page, src)
        # Attached, not visible: while the board redraws, the selected checker may be reported hidden.
        page.wait_for_selector(f"#board [data-loc='{src}'] .ck.selected", state="attached")
        page.wait_for_selector("#board .target, #board .trayrect.lit", state="attached")
        targets = [int(x) for x in page.evaluate(
            "[...document.querySelectorAll('#board .target')].map(c => c.closest('[data-loc]').dataset.loc)")]
        far = [t for t in targets if abs(t - src) == a + b]
        if far:
            click_loc(page, far[0])
            page.wait_for_function("document.querySelectorAll('#board .die.used').length === 2")
            assert page.locator("#controls [data-act=confirm]").is_enabled()
            return
        click_loc(page, 0 if src != 0 else 1)  # tap elsewhere to drop the selection
        page.wait_for_selector("#board .ck.selected", state="detached")
        assert page.locator("#board .target").count() == 0, "a dropped selection leaves no lit targets"
    raise AssertionError(f"no checker could use both dice of {a}-{b}: "
                         + str(page.evaluate("[...document.querySelectorAll('#board .pt')].map(g => g.getAttribute('aria-label'))")))


def test_a_player_who_has_rolled_can_resign(desktop):
    page = desktop
    open_app(page)
    new_game(page, mode="local", length=3)
    wait_my_move(page)  # the server's opening roll is made: the starter has the dice
    dice = page.evaluate("window.__table.dice()")
    resign = page.locator("#controls [data-act=resign]")
    assert page.evaluate("window.__table.phase()") == "move" and resign.is_visible()
    # Halfway through the move, offer a single game; the other player refuses.
    click_loc(page, loc_of(page, "#board .ck.movable"))
    click_loc(page, loc_of(page, "#board .target, #board .trayrect.lit"))
    v = version(page)
    resign.click()
    page.locator("#dlg-resign button[value='1']").click()
    page.wait_for_function(f"window.__table.version() > {v} && window.__table.phase() === 'resign'")
    assert page.evaluate("window.__table.dice()") == dice
    page.wait_for_function("document.querySelector('#status').textContent.includes('abandonează')")
    page.click("#controls [data-act=reject_resignation]")
    # The same roll is played from its start; no second offer before it is.
    page.wait_for_function("window.__table.phase() === 'move'")
    page.wait_for_function("document.querySelector('#last').textContent.includes('a refuzat abandonul')")
    wait_my_move(page)
    assert page.evaluate("window.__table.dice()") == dice
    assert resign.is_hidden() and page.locator("#controls [data-act=undo]").is_disabled()
    play_by_clicks(page)
    v = version(page)
    page.click("#controls [data-act=confirm]")
    # The other player rolls (automatically), and resigns a gammon with the dice on the board.
    page.wait_for_function(f"window.__table.version() >= {v + 2} && window.__table.phase() === 'move'")
    wait_my_move(page)
    resign.click()
    page.locator("#dlg-resign button[value='2']").click()
    page.wait_for_selector("#controls [data-act=accept_resignation]:visible")
    page.click("#controls [data-act=accept_resignation]")
    page.wait_for_selector("#dlg-result[open]")
    assert "abandon, marț, 2 puncte" in page.locator("#result-text").inner_text()


def test_a_stale_refusal_keeps_a_move_made_for_the_newer_state(desktop):
    # A tap on the roll button can race the app's own roll: the server refuses the second roll as
    # stale, with the version it is at. When that state is already on the board, the move made on
    # it stays and its confirm button works; when a newer state is still on its way, the move is
    # cleared on the screen too, so the player is never left with a confirm button that does nothing.
    page = desktop
    sockets = []

    def through(ws):
        ws.connect_to_server()  # the game's messages pass as they are; the test adds its own
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/games/"), through)
    start_easy_game(page)
    play_by_clicks(page)
    v = version(page)
    confirm = page.locator("#controls [data-act=confirm]")

    def refuse(code: str, at: int) -> None:
        sockets[-1].send(json.dumps({"type": "error", "code": code, "message": "test", "version": at}))

    refuse("stale", v)
    refuse("illegal", v)  # its notice shows that the stale refusal before it was handled
    page.wait_for_function("document.querySelector('#toast').textContent.includes('nu este permisă')")
    assert confirm.is_enabled() and page.locator("#controls [data-act=undo]").is_enabled()
    refuse("stale", v + 1)
    page.wait_for_function("document.querySelector('#controls [data-act=confirm]').disabled")
    assert page.locator("#controls [data-act=undo]").is_disabled()
    assert page.locator("#board .ck.movable").count() > 0  # the same roll is played again from its start
    play_by_clicks(page)
    confirm.click()
    page.wait_for_function(f"window.__table.version() > {v}")
