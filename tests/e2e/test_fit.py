"""What must stay readable and on screen at a phone's 390x844 and on a desktop, measured on the
boxes Chromium lays out: the offered cube clear of the dice, the player bars with the longest
names, the review's table, the board's size while a panel is open; the lobby and the player page
using a desktop's width; the Crawford badge and the days-per-move choice shown only when they apply."""

from __future__ import annotations

import pytest

from table.bot import Bot
from table.notation.xgid import to_xgid
from table.rules.position import Position

from tests.e2e.e2e_helpers import MOVABLE, click_loc, new_game, open_app, play_by_clicks, version, wait_my_move
from tests.e2e.online_helpers import DESKTOP, PHONE, nickname, person, start_match

SIZES = {"phone": PHONE, "desktop": DESKTOP}
BOXES = "(sel) => [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"

# White to play 2-1 in a race the computer leads by 32 pips: after any play the computer doubles
# (checked below with the bot the server uses).
RACE = Position.from_checkers({8: 5, 6: 5, 5: 5}, {6: 4, 5: 3, 4: 3, 3: 3, 2: 1, 1: 1})


def boxes(page, selector: str) -> list[list[float]]:
    return page.evaluate(BOXES, selector)


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def shoot(page, artifacts, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))


# Each size in one language, each language at one size: the board's geometry differs by size only.
@pytest.mark.parametrize(("size", "lang"), [("phone", "ro"), ("desktop", "en")])
def test_the_offered_cube_is_drawn_clear_of_the_dice(browser, server_url, artifacts, size, lang):
    bot = Bot("medium")
    assert all(bot.cube_decision(p.position, 1, "centre", 5, (0, 0)).double for p in RACE.legal_plays((2, 1)))
    with person(browser, server_url, **SIZES[size]) as page:
        open_app(page, lang)
        new_game(page, mode="computer", level="medium", length=5, cube=True,
                 start=to_xgid(RACE, dice=(2, 1), match_length=5))
        wait_my_move(page)
        play_by_clicks(page)
        page.click("#controls [data-act=confirm]")
        page.wait_for_selector("#controls [data-act=take]:visible")
        cube = boxes(page, "#board .cube.offered rect")
        dice = boxes(page, "#board .die rect")
        assert len(cube) == 1 and dice, (cube, dice)  # the last move's dice are still on the board
        assert not any(overlap(cube[0], d) for d in dice), (cube, dice)
        # The cube's value is drawn inside its own box, readable.
        value = boxes(page, "#board .cube.offered text")[0]
        assert cube[0][0] <= value[0] and value[0] + value[2] <= cube[0][0] + cube[0][2]
        assert page.locator("#board .cube.offered text").text_content() == "2"
        shoot(page, artifacts, f"fit-cube-offered-{size}-{lang}")


BAR_FITS = """() => [...document.querySelectorAll('.player')].map(bar => {
  const box = (e) => e.getBoundingClientRect();
  const pips = bar.querySelector('.pips'), clock = bar.querySelector('.clock'), name = bar.querySelector('.name');
  const line = parseFloat(getComputedStyle(pips).lineHeight) || 1.3 * parseFloat(getComputedStyle(pips).fontSize);
  return { id: bar.id, width: innerWidth, bar: [box(bar).x, box(bar).right, box(bar).height],
    pips: [pips.textContent, pips.getClientRects().length, box(pips).height, line],
    clock: clock.hidden ? null : [box(clock).x, box(clock).right, box(clock).y, box(clock).bottom, innerHeight],
    name: [name.textContent, name.title] };
})"""


def assert_bars_fit(page) -> None:
    for b in page.evaluate(BAR_FITS):
        x, right, height = b["bar"]
        assert x >= 0 and right <= b["width"] + 0.5, b
        text, rects, h, line = b["pips"]
        assert text and rects == 1 and h <= line * 1.5, b  # the pip count on one line
        assert b["clock"] is not None, b
        cx, cright, cy, cbottom, inner_h = b["clock"]
        assert cx >= 0 and cright <= b["width"] + 0.5 and cy >= 0 and cbottom <= inner_h, b
        assert b["name"][1] == b["name"][0]  # the whole name, when cut, in its tooltip


FRAME = "() => { const r = document.querySelector('#board .frame').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"

REVIEW_FITS = """() => {
  const panel = document.querySelector('#learn-panel'), p = panel.getBoundingClientRect();
  const cells = [...panel.querySelectorAll('.review-table th, .review-table td')].map(c => {
    const r = c.getBoundingClientRect(); return [c.textContent, r.x, r.right]; });
  return { scroll: [panel.scrollWidth, panel.clientWidth], left: p.x, right: p.x + panel.clientWidth, cells };
}"""


def assert_review_fits(page) -> None:
    """The review's table is whole inside its panel: nothing cut off, nothing to scroll sideways to."""
    fit = page.evaluate(REVIEW_FITS)
    assert fit["cells"] and fit["scroll"][0] <= fit["scroll"][1], fit
    for text, x, right in fit["cells"]:
        assert x >= fit["left"] - 0.5 and right <= fit["right"] + 0.5, (text, fit)


def test_twenty_character_names_fit_the_player_bars_the_chat_and_the_review(browser, server_url, artifacts):
    names = ("MMMMMMMMMMMMMMMMMMMM", "Alexandru_Ștefănescu")
    assert all(len(n) == 20 for n in names)
    with person(browser, server_url, **PHONE) as ana, person(browser, server_url, **DESKTOP) as ion:
        url = start_match(ana, ion, names, clock="tournament")
        ion.click("#btn-lang")  # one player reads English
        ion.wait_for_function("document.documentElement.lang === 'en'")
        for page in (ana, ion):
            page.wait_for_selector(".player .clock.running")
            assert_bars_fit(page)
        shoot(ana, artifacts, "fit-names-phone-ro")
        shoot(ion, artifacts, "fit-names-desktop-en")
        # Spectators: a phone in English, a desktop in Romanian.
        for lang, size in (("en", "phone"), ("ro", "desktop")):
            with person(browser, server_url, **SIZES[size]) as watcher:
                open_app(watcher, lang)
                watcher.goto("/" + url.split("/", 3)[3])
                watcher.wait_for_selector("#spectator:visible")
                watcher.wait_for_selector(".player .clock.running")
                assert_bars_fit(watcher)
                shoot(watcher, artifacts, f"fit-names-spectator-{size}-{lang}")
        # The chat opened on the phone leaves the board as it was; the page scrolls instead.
        board = ana.evaluate(FRAME)
        ana.click("#chat-toggle")
        ana.wait_for_selector("#chat-log", state="visible")
        ana.wait_for_timeout(300)  # past the board's redraw after a resize
        ana.evaluate("window.scrollTo(0, 0)")
        assert ana.evaluate(FRAME) == pytest.approx(board, abs=1), board
        ana.screenshot(path=str(artifacts / "fit-chat-open-phone-ro.png"), full_page=True)
        # The one on roll resigns, the other accepts: the review's table fits both screens.
        first, second = (ana, ion) if ana.locator("#controls [data-act=resign]").is_visible() else (ion, ana)
        first.click("#controls [data-act=resign]")
        first.locator("#dlg-resign button[value='1']").click()
        second.wait_for_selector("#controls [data-act=accept_resignation]:visible")
        second.click("#controls [data-act=accept_resignation]")
        for page in (ana, ion):
            page.wait_for_selector("#dlg-result[open]")
            page.locator("#dlg-result button[value=ok]").click()
            page.click("#btn-review")
            page.wait_for_selector(".review-table", timeout=60000)
            assert_review_fits(page)
        # Beside the board, the review leaves the chat's box on the screen.
        for part in boxes(ion, "#chat-form, #chat-mute, #chat-quick"):
            assert part[1] + part[3] <= 800, part
        shoot(ion, artifacts, "fit-review-names-desktop-en")
        ana.screenshot(path=str(artifacts / "fit-review-names-phone-ro.png"), full_page=True)


def _blunder() -> tuple[Position, tuple[int, int], list[tuple[int, int]]]:
    """The opening position with 6-5 and the worst play there (by far worse than 24/13)."""
    p = Position.initial()
    ranked = Bot("hard").ranked_plays(p, (6, 5))
    worst = ranked[-1][0]
    assert ranked[0][1] - ranked[-1][1] > 0.2
    return p, (6, 5), [(a, b) for a, b in worst.steps]


@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("desktop", "ro")])
def test_the_review_fits_and_opens_each_marked_play_on_the_board(browser, server_url, artifacts, size, lang):
    with person(browser, server_url, **SIZES[size]) as page:
        _review_and_peek(page, artifacts, size, lang)


def _review_and_peek(page, artifacts, size: str, lang: str) -> None:
    position, dice, steps = _blunder()
    open_app(page, lang)
    new_game(page, mode="local", length=3, cube=True, start=to_xgid(position, dice=dice, match_length=3))
    wait_my_move(page)
    for a, b in steps:
        click_loc(page, a)
        page.wait_for_selector("#board .target, #board .trayrect.lit")
        click_loc(page, b)
    before = version(page)
    page.click("#controls [data-act=confirm]")
    page.wait_for_function(f"window.__table.version() > {before}")
    for act in ("double", "drop"):  # Black doubles, White passes: the game is over
        page.locator(f"#controls [data-act={act}]").click()
    page.wait_for_selector("#dlg-result[open]")
    page.locator("#dlg-result button[value=ok]").click()
    page.click("#btn-review")
    page.wait_for_selector(".review-table", timeout=60000)
    page.wait_for_selector("#review-list button")
    assert_review_fits(page)
    page.screenshot(path=str(artifacts / f"fit-review-{size}-{lang}.png"), full_page=True)
    # The first marked decision is the blunder: it opens its position with the better play drawn.
    review = page.locator("#review-list button").first
    review.click()
    page.wait_for_selector("#peek:visible")
    page.wait_for_selector("#board .arrow")
    page.wait_for_timeout(300)  # scrolled
    # The board is in view to see it (on a phone it was scrolled away, up, for the review below).
    frame = page.evaluate(FRAME)
    assert frame[1] >= -1 and frame[1] + frame[3] <= page.evaluate("innerHeight") + 1, frame
    best = Bot("hard").ranked_plays(position, dice)[0][0]
    drawn = page.evaluate("[...document.querySelectorAll('#board .arrow')].map(a => [a.dataset.from, a.dataset.to])")
    assert len(drawn) == len(best.steps), (drawn, str(best))
    assert {(str(a), str(b)) for a, b in best.steps} == {tuple(x) for x in drawn}, (drawn, str(best))
    # The position is the one before the blunder: White's checkers where they started.
    assert page.locator("#board [data-loc='24'] .ck.c0").count() == 2
    assert page.locator("#board [data-loc='13'] .ck.c0").count() == 5
    shoot(page, artifacts, f"fit-review-peek-{size}-{lang}")


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_an_open_panel_leaves_the_phone_board_as_it_was(phone, artifacts, lang):
    page = phone
    open_app(page, lang)
    new_game(page, mode="computer", level="easy", seat=0, length=3, cube=True)
    # Where the computer won the opening roll, our first turn may start with a double, so the app
    # does not roll for us: roll by hand (the dice are the server's, shared by the tests before).
    page.wait_for_selector(f"{MOVABLE}, #controls [data-act=roll]:visible")
    if page.locator("#controls [data-act=roll]").is_visible():
        page.click("#controls [data-act=roll]")
    wait_my_move(page)
    page.wait_for_timeout(300)  # the board settled in its shape
    board = page.evaluate(FRAME)
    assert board[2] >= 0.95 * 390
    for button, shown, name in (("#btn-hint", ".hint-table", "hint"), ("#btn-moves", "#move-list", "moves"),
                                ("#btn-export", ".export-files", "export")):
        page.click(button)
        page.wait_for_selector(shown)
        page.wait_for_timeout(300)  # past the board's redraw after a resize
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(FRAME) == pytest.approx(board, abs=1), name
        page.screenshot(path=str(artifacts / f"fit-{name}-open-phone-{lang}.png"), full_page=True)
        if name == "moves":
            page.click("#btn-moves")  # folds the list away
        else:
            page.click("#learn-panel .close")
    page.wait_for_timeout(300)
    assert page.evaluate(FRAME) == pytest.approx(board, abs=1)
    assert page.evaluate("document.documentElement.scrollHeight") <= 844  # nothing open: no scrolling


def test_the_crawford_badge_goes_when_the_match_is_over(desktop):
    page = desktop
    open_app(page)
    # The Crawford game at 2-0 to 3; White bears off its last two checkers and wins the match.
    won = Position.from_checkers({1: 2}, {6: 5, 5: 5, 4: 5})
    new_game(page, mode="computer", level="easy", seat=0, length=3, cube=True,
             start=to_xgid(won, dice=(2, 1), score=(2, 0), match_length=3, crawford=True))
    wait_my_move(page)
    assert page.locator("#crawford").is_visible()
    play_by_clicks(page)
    page.click("#controls [data-act=confirm]")
    page.wait_for_selector("#dlg-result[open]")
    page.locator("#dlg-result button[value=ok]").click()
    assert not page.locator("#crawford").is_visible()


def test_the_days_per_move_show_only_with_the_turn_based_clock(browser, server_url):
    with person(browser, server_url, **PHONE) as page:
        open_app(page)
        page.click("#btn-online")
        nickname(page, "Zile_Pe_Mutare")
        page.click("#btn-create")
        form = page.locator("#form-table")
        for clock in ("rapid", "normal", "untimed"):
            form.locator(f"input[name=clock][value={clock}]").check()
            assert not form.locator("select[name=days]").is_visible(), clock
        form.locator("input[name=clock][value=days]").check()
        assert form.locator("select[name=days]").is_visible()


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_the_lobby_and_the_player_page_use_a_desktops_width(browser, server_url, artifacts, lang):
    with person(browser, server_url, **DESKTOP) as page:
        open_app(page, lang)
        page.click("#btn-online")
        name = f"Lat_{lang}"
        nickname(page, name)
        page.wait_for_selector("#lobby-top li")
        # One selector, so the three boxes come from one layout: the lobby may still be adding your
        # own tables or the waiting count above them between two separate measurements.
        cols = boxes(page, "section:has(> #lobby-open), section:has(> #lobby-live), section:has(> #lobby-top)")
        assert len(cols) == 3, cols
        # Side by side: one row, three columns, over most of the width.
        assert cols[0][0] + cols[0][2] <= cols[1][0] and cols[1][0] + cols[1][2] <= cols[2][0], cols
        assert max(c[1] for c in cols) - min(c[1] for c in cols) < 5, cols
        assert cols[2][0] + cols[2][2] - cols[0][0] >= 0.6 * 1280, cols
        shoot(page, artifacts, f"fit-lobby-desktop-{lang}")
        page.click("#lobby-me")
        page.wait_for_selector("#player-stats dl")
        parts = [boxes(page, sel)[0] for sel in ("#player-stats", "#player-games", "#player-history")]
        assert parts[0][0] + parts[0][2] <= parts[1][0] and parts[1][0] + parts[1][2] <= parts[2][0], parts
        assert parts[2][0] + parts[2][2] - parts[0][0] >= 0.6 * 1280, parts
        shoot(page, artifacts, f"fit-player-desktop-{lang}")
