"""A phone's checkers (27 px on a 390 px screen) are smaller than a fingertip: a point's whole
column is its tap target, a dragged checker lands on the nearest legal point, and a finger that
slips never plays a move that was not meant.  Real Chromium, real taps and drags, 390x844."""

from __future__ import annotations

from table.notation.xgid import to_xgid
from table.rules.position import Position

from tests.e2e.e2e_helpers import new_game, open_app, wait_my_move

# The opening position, White (the viewer, bottom) to play 3-1: from 8 the legal landings are
# 7 (the 1), 5 (the 3) and 4 (both); point 3 is not one of them.
START = to_xgid(Position.initial(), dice=(3, 1), match_length=1)


def _start(page) -> None:
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({animations: false}))")
    open_app(page)
    new_game(page, mode="computer", level="easy", seat=0, start=START)
    wait_my_move(page)
    page.wait_for_timeout(300)  # the board settled in its final shape


def checkers(page, loc: int) -> list[dict]:
    return page.evaluate(f"""[...document.querySelectorAll("#board [data-loc='{loc}'] .ck")].map(e => {{
      const r = e.getBoundingClientRect(); return {{x: r.x + r.width / 2, top: r.y, bottom: r.bottom, size: r.width}}; }})""")


def point_centre(page, loc: int) -> tuple[float, float]:
    """The middle of a point's triangle on screen."""
    r = page.evaluate(f"""(() => {{ const r = document.querySelector("#board [data-loc='{loc}'] .tri").getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2]; }})()""")
    return r[0], r[1]


def selected(page) -> list[int]:
    return page.evaluate("[...document.querySelectorAll('#board .ck.selected')].map(e => +e.closest('[data-loc]').dataset.loc)")


def white_on(page, loc: int) -> int:
    return page.locator(f"#board [data-loc='{loc}'] .ck.c0").count()


def test_a_tap_4px_outside_a_checker_in_its_column_picks_it(phone, artifacts):
    page = phone
    _start(page)
    six = checkers(page, 6)
    assert len(six) == 5 and six[0]["size"] < 30  # small checkers: the case this is about
    # 4 px below the checker nearest the board's edge (on the point's number).
    edge = max(six, key=lambda c: c["bottom"])
    page.touchscreen.tap(edge["x"], edge["bottom"] + 4)
    page.wait_for_function("document.querySelectorAll('#board .ck.selected').length === 1")
    assert selected(page) == [6]
    # 4 px above the top of a stack of three (toward the middle of the board).
    eight = checkers(page, 8)
    top = min(eight, key=lambda c: c["top"])
    page.touchscreen.tap(top["x"], top["top"] - 4)
    page.wait_for_function("document.querySelector('#board .ck.selected') && "
                           "document.querySelector('#board .ck.selected').closest('[data-loc]').dataset.loc === '8'")
    # 4 px beyond the checker at the edge of the top row (White's 13 point, on its number).
    thirteen = checkers(page, 13)
    outer = min(thirteen, key=lambda c: c["top"])
    page.touchscreen.tap(outer["x"], outer["top"] - 4)
    page.wait_for_function("document.querySelector('#board .ck.selected') && "
                           "document.querySelector('#board .ck.selected').closest('[data-loc]').dataset.loc === '13'")
    assert page.locator("#controls [data-act=undo]").is_disabled()  # picking played nothing
    page.screenshot(path=str(artifacts / "touch-picked-phone-ro.png"))


def _drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(start[0] + (end[0] - start[0]) * i / 10, start[1] + (end[1] - start[1]) * i / 10)
    page.mouse.up()


def test_a_drag_lands_on_the_nearest_legal_point(phone, artifacts):
    page = phone
    _start(page)
    eight = checkers(page, 8)
    top = min(eight, key=lambda c: c["top"])
    # Dropped on point 3, which no play reaches; its neighbour 4 is legal (8/5/4).
    _drag(page, (top["x"], top["top"] + 10), point_centre(page, 3))
    page.wait_for_function("!document.querySelector('#controls [data-act=undo]').disabled")
    assert white_on(page, 4) == 1 and white_on(page, 8) == 2 and white_on(page, 3) == 0
    page.screenshot(path=str(artifacts / "touch-drag-snapped-phone-ro.png"))
    # Let go far from every legal point: the checker goes back, nothing is played.
    for _ in range(2):  # one step at a time: 8/5, then 5/4
        page.click("#controls [data-act=undo]")
    page.wait_for_function("document.querySelector('#controls [data-act=undo]').disabled")
    six = checkers(page, 6)
    _drag(page, (six[0]["x"], six[0]["top"] + 10), point_centre(page, 18))
    page.wait_for_timeout(300)
    assert page.locator("#controls [data-act=undo]").is_disabled()
    assert white_on(page, 6) == 5


def test_a_slip_of_the_finger_never_plays_a_move(phone, artifacts):
    page = phone
    _start(page)
    eight = checkers(page, 8)
    page.touchscreen.tap(eight[0]["x"], eight[0]["bottom"] - 10)
    page.wait_for_function("document.querySelectorAll('#board .target').length >= 2")  # 5, 7 and 4 are lit
    # A finger that comes down on an empty point (2) and slides onto a lit one (5) is not a tap on 5.
    _drag(page, point_centre(page, 2), point_centre(page, 5))
    page.wait_for_timeout(300)
    assert white_on(page, 5) == 0 and white_on(page, 8) == 3
    assert page.locator("#controls [data-act=undo]").is_disabled()
    # A tap on a point that no play reaches plays nothing either.
    x, y = point_centre(page, 3)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(300)
    assert page.locator("#controls [data-act=undo]").is_disabled()
    assert sum(white_on(page, p) for p in (3, 4, 5, 7)) == 0
    page.screenshot(path=str(artifacts / "touch-slip-phone-ro.png"))
