"""What a player reads on the board: the other side's move, where a checker may land, pip
counts, notices, the cube, titles, themes; each numbered and worded from the reader's side."""

from __future__ import annotations

import re

import pytest

from table.notation.xgid import TOP, to_xgid
from table.rules.position import Position

from tests.e2e.e2e_helpers import (click_loc, loc_of, new_game, open_app, play_by_clicks, start_easy_game,
                                   version, wait_my_move)

LAST_MOVE = re.compile(r"a dat (\d)-(\d) și a mutat (.+?)\.(?: |$)")


def computer_has_moved(page) -> None:
    """Wait until the computer's last move is on screen and it is our move."""
    wait_my_move(page)
    if not page.locator("#last").inner_text().strip():
        v = version(page)
        play_by_clicks(page)
        page.click("#controls [data-act=confirm]")
        page.wait_for_function(f"window.__table.version() >= {v + 3}")
        wait_my_move(page)
    page.wait_for_selector("#board .arrow")


def chains(arrows: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Where each moved checker started and ended: an arrow from where another one ended goes on
    with that checker."""
    paths: list[list[str]] = []
    for a, b in arrows:
        path = next((p for p in paths if p[-1] == a), None)
        if path is None:
            paths.append([a, b])
        else:
            path.append(b)
    merged = True
    while merged:
        merged = False
        for first in paths:
            later = next((p for p in paths if p is not first and p[0] == first[-1]), None)
            if later is not None:
                first.extend(later[1:])
                paths.remove(later)
                merged = True
                break
    return {(p[0], p[-1]) for p in paths}


@pytest.mark.parametrize("mode", ["computer", "local"])
def test_the_last_move_is_written_and_drawn_from_the_side_shown(desktop, mode):
    page = desktop
    open_app(page)
    if mode == "computer":
        # Black: its numbering is the mirror of the server's, which is where the old text went wrong.
        new_game(page, mode="computer", level="easy", cube=False, seat=1)
        computer_has_moved(page)
    else:
        # Two players on one device: the board is numbered from the side of the one to move, so
        # the move just made is written from the other player's side.
        new_game(page, mode="local", cube=False)
        wait_my_move(page)
        play_by_clicks(page)
        page.click("#controls [data-act=confirm]")
        page.wait_for_selector("#board .arrow")
    mover = page.evaluate("window.__table.last().seat")
    m = LAST_MOVE.search(page.locator("#last").inner_text())
    assert m, page.locator("#last").inner_text()
    high, low, play = int(m.group(1)), int(m.group(2)), m.group(3)
    assert high >= low  # dice high first
    arrows = page.evaluate("[...document.querySelectorAll('#board .arrow')].map(a => [a.dataset.from, a.dataset.to])")
    words = set()
    for word in play.split():
        points = re.sub(r"\(\d\)$", "", word).replace("*", "").split("/")
        words.add((points[0].replace("bara", "bar"), points[-1].replace("afară", "off")))
    assert words == chains([tuple(a) for a in arrows])
    # Each moved checker ends on a point that now holds one of the mover's checkers, and that
    # point bears the number the text says (the numbers on the board are those of the side shown).
    for _, to in words:
        if to != "off":
            assert page.locator(f"#board .pt[data-num='{to}'] .ck.c{mover}").count() >= 1, to
    # The computer's dice lie beside its move.
    label = page.locator("#board .lastdice").get_attribute("aria-label")
    assert sorted(int(x) for x in re.findall(r"\d", label)) == sorted([high, low])


def test_hits_are_marked_on_the_board(desktop):
    page = desktop
    open_app(page)
    # The computer (Black, on roll with 6-6) has a checker on the bar and one way in: onto White's
    # blot on White's 6 point. Every play it has hits, whatever its level's noise picks, and none
    # makes a point in its home board: White always comes in, so no second move of the computer's
    # can replace this one under #last before the test reads it (a dance did that once in CI).
    position = Position.from_checkers({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 13: 4})
    plays = position.legal_plays((6, 6))
    assert all(any(play.hits) for play in plays)
    homes = [play.position.checkers(mover=False) for play in plays]  # the computer's side, after
    assert all(n < 2 for home in homes for pt, n in home.items() if pt <= 6)
    new_game(page, mode="computer", level="easy", seat=0,
             start=to_xgid(position, turn=TOP, dice=(6, 6), match_length=3))
    page.wait_for_function("window.__table.last() && window.__table.last().seat === 1")
    page.wait_for_selector("#board .arrow")
    text = page.locator("#last").inner_text()
    assert "*" in text, text
    hits = page.locator("#board .arrow[data-hit='1']").count()
    assert hits >= 1 and page.locator("#board .hitmark").count() == hits
    assert page.locator("#board .barzone .ck.c0").count() == 1  # White's blot went to the bar


def test_an_arrow_straight_across_the_board_is_drawn_with_width(desktop):
    """13/12 goes from one row to the other in one column: the arrow bends, so it has width and
    reads as an arrow rather than a line along the checkers (and the tests can see it)."""
    page = desktop
    open_app(page)
    boxes = page.evaluate("""async () => {
      const { Board } = await import('/static/js/board.js');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.style.width = '800px';
      document.body.appendChild(svg);
      const board = new Board(svg, { pick() {}, drop() {}, t: (k) => k });
      const points = Array(24).fill(0);
      points[12] = 4; points[11] = 1; points[0] = -2;
      const boxOf = (steps) => {
        board.render({ points, bar: [0, 0], off: [0, 0], viewer: 0, numbersFor: 0, turn: 1, dice: null,
                       lastSteps: steps, lastHits: steps.map(() => false), lastSeat: 0 });
        const r = svg.querySelector('.arrow').getBoundingClientRect();
        return [r.width, r.height];
      };
      const result = [boxOf([[13, 12]]), boxOf([[13, 7]])];
      svg.remove();
      return result;
    }""")
    (across_w, across_h), (along_w, _) = boxes
    assert across_h > 100 and across_w > 5, boxes
    assert along_w > 100, boxes


def test_destinations_are_checker_sized_and_uncovered(desktop, phone):
    for page in (desktop, phone):
        start_easy_game(page)
        src = loc_of(page, "#board .ck.movable")
        click_loc(page, src)
        page.wait_for_selector("#board .target")
        checker = page.locator("#board .ck").first.bounding_box()
        for target in page.locator("#board .dest .target").all():
            box = target.bounding_box()
            assert box["width"] >= 0.9 * checker["width"]
            # A tap on it lands on that destination.
            loc = target.evaluate("e => e.closest('[data-loc]').dataset.loc")
            under = page.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, {box['y'] + box['height'] / 2})"
                                  ".closest('[data-loc]').dataset.loc")
            assert under == loc
        # Destinations are drawn last: nothing (a die, say) covers them.
        assert page.evaluate("[...document.querySelector('#board').children].slice(-1)[0].classList.contains('dest')")
        # The picked checker looks unlike the others that may move: a halo of its own.
        assert page.locator("#board .ck.selected").count() == 1 and page.locator("#board .selring").count() == 1
        movable = page.locator("#board .ck.movable:not(.selected)").first.evaluate("e => getComputedStyle(e).stroke")
        selected = page.locator("#board .ck.selected").evaluate("e => getComputedStyle(e).stroke")
        assert movable != selected


def test_pip_counts_follow_the_checkers_before_confirming(desktop):
    page = desktop
    start_easy_game(page)
    before = page.locator("#p-bottom .pips").inner_text()
    v = version(page)
    src = loc_of(page, "#board .ck.movable")
    click_loc(page, src)
    target = loc_of(page, "#board .target, #board .trayrect.lit")
    click_loc(page, target)
    page.wait_for_function(f"document.querySelector('#p-bottom .pips').textContent !== {before!r}")
    # Romanian counts from 20 up with "de": "167 de pipuri" (it said "167 pipuri").
    assert re.fullmatch(r"\d+ de pipuri( · .*)?", before), before
    n_before = int(re.match(r"\d+", before).group())
    n_after = int(re.match(r"\d+", page.locator("#p-bottom .pips").inner_text()).group())
    assert n_before - n_after == abs(src - target) and version(page) == v


def test_a_refusal_passes_without_erasing_the_computers_move(desktop, artifacts):
    page = desktop
    open_app(page)
    new_game(page, mode="computer", level="easy", cube=False)
    computer_has_moved(page)
    last = page.locator("#last").inner_text()
    assert "Calculatorul" in last
    # Tap an empty point: not a checker that can move.
    sources = set(page.evaluate(
        "[...document.querySelectorAll('#board .ck.movable')].map(c => +c.closest('[data-loc]').dataset.loc)"))
    empty = next(p for p in range(1, 25)
                 if p not in sources and page.locator(f"#board .pt[data-loc='{p}'] .ck").count() == 0)
    click_loc(page, empty)
    page.wait_for_selector("#toast:visible")
    assert "nu poți muta" in page.locator("#toast").inner_text()
    page.screenshot(path=str(artifacts / "refusal-desktop.png"))
    assert page.locator("#last").inner_text() == last
    page.wait_for_selector("#toast", state="hidden", timeout=6000)
    assert page.locator("#last").inner_text() == last


def test_a_spectator_is_told_they_only_watch(desktop, browser, server_url, artifacts):
    page = desktop
    start_easy_game(page)
    assert page.locator("#spectator").is_hidden()
    ctx = browser.new_context(bypass_csp=True, base_url=server_url, viewport={"width": 1280, "height": 800})
    try:
        other = ctx.new_page()
        other.goto("/" + page.url.split("/", 3)[3])
        other.wait_for_selector("#spectator:visible")
        assert "Doar urmărești" in other.locator("#spectator").inner_text()
        assert other.locator("#controls button:visible").count() == 0
        # The player is not "you" to a spectator.
        assert other.locator("#p-bottom .name").inner_text() == "Albul"
        other.wait_for_timeout(500)
        assert other.locator("#spectator").is_visible()  # it stays
        other.screenshot(path=str(artifacts / "spectator-desktop.png"))
    finally:
        ctx.close()


def test_the_cube_offered_then_taken_is_drawn_and_said(desktop, artifacts):
    page = desktop
    page.add_init_script("localStorage.setItem('table.settings', JSON.stringify({autoRoll: false, animations: false, botPause: 50}))")
    open_app(page)
    new_game(page, mode="local", length=3, cube=True)
    # Before any double: the cube sits in the middle at 64.
    wait_my_move(page)
    assert page.locator("#board .cube text").text_content() == "64"
    play_by_clicks(page)
    page.click("#controls [data-act=confirm]")
    page.wait_for_selector("#controls [data-act=double]:visible")
    page.click("#controls [data-act=double]")
    page.wait_for_selector("#controls [data-act=take]:visible")
    # The offered cube lies on the offering side, showing 2, and no other cube is drawn.
    assert page.locator("#board .cube").count() == 1
    assert page.locator("#board .cube.offered text").text_content() == "2"
    page.screenshot(path=str(artifacts / "cube-offered-desktop.png"))
    page.click("#controls [data-act=take]")
    page.wait_for_function("document.querySelector('#last').textContent.includes('a acceptat dublarea')")
    assert "miza este acum 2" in page.locator("#last").inner_text()
    assert page.locator("#board .cube text").text_content() == "2"
    assert page.locator("#board .cube.offered").count() == 0
    page.screenshot(path=str(artifacts / "cube-taken-desktop.png"))


def test_title_and_board_words_follow_the_language(desktop):
    page = desktop
    open_app(page)
    assert page.title() == "Table"
    page.click("#btn-pages")
    page.wait_for_function("document.title === 'Reguli · Table'")
    new_game(page, mode="computer", level="easy", cube=False)
    page.wait_for_function("document.title === 'Partida · Table'")
    assert page.locator("#board").get_attribute("aria-roledescription") == "tablă"
    page.click("#btn-lang")
    page.wait_for_function("document.title === 'Game · Table'")
    assert page.locator("#board").get_attribute("aria-roledescription") == "board"


def relative_luminance(rgb: str) -> float:
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_borne_off_checkers_of_both_colours_stand_out_in_both_themes(desktop):
    page = desktop
    start_easy_game(page)
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        tray = page.locator("#board .trayrect").first.evaluate("e => getComputedStyle(e).fill")
        fills = page.evaluate("""() => ['c0', 'c1'].map(c => {
            const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
            r.setAttribute('class', 'slab ' + c); document.querySelector('#board').appendChild(r);
            const f = getComputedStyle(r).fill; r.remove(); return f; })""")
        for fill in fills:
            assert contrast(tray, fill) >= 3, (theme, tray, fill)


def test_dark_theme_setting(desktop):
    page = desktop
    page.emulate_media(color_scheme="dark")
    open_app(page)
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert relative_luminance(bg) < 0.05  # the system's dark preference is followed
    page.click("#btn-settings")
    page.select_option("#dlg-settings select[name=theme]", "light")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert relative_luminance(page.evaluate("getComputedStyle(document.body).backgroundColor")) > 0.7
    page.click("#dlg-settings button[value=ok]")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"


@pytest.mark.parametrize("on", [False, True])
def test_sounds_only_when_turned_on(desktop, on):
    page = desktop
    # Count the audio contexts the page makes: none unless the player turned sounds on.
    page.add_init_script("""window.__audio = 0; const A = window.AudioContext;
        window.AudioContext = class extends A { constructor(...a) { super(...a); window.__audio++; } };""")
    page.add_init_script(f"localStorage.setItem('table.settings', JSON.stringify({{sounds: {str(on).lower()}}}))")
    start_easy_game(page)
    click_loc(page, loc_of(page, "#board .ck.movable"))
    click_loc(page, loc_of(page, "#board .target, #board .trayrect.lit"))
    page.wait_for_function("!document.querySelector('#controls [data-act=undo]').disabled")
    assert (page.evaluate("window.__audio") > 0) == on


RO_NUMBER = re.compile(r"^[+−]?\d{1,3}(\.\d{3})*(,\d+)?%?$")


def test_the_hint_writes_numbers_as_the_reader_does(desktop):
    """A decimal comma in Romanian, a true minus: "−0,467", "36,1%" (it wrote "-0.467", "36.1%")."""
    page = desktop
    start_easy_game(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tr.best")
    cells = [c for c in page.locator(".hint-table td.num").all_inner_texts() if c]
    assert cells and all(RO_NUMBER.match(c) for c in cells), cells
    assert any("," in c for c in cells) and not any("." in c or "-" in c for c in cells), cells
    assert page.locator("#learn-panel h3").inner_text() == "Sfatul calculatorului (Greu)"


def test_the_review_writes_numbers_as_the_reader_does(desktop):
    page = desktop
    open_app(page)
    texts = page.evaluate("""async () => {
      const { renderReview } = await import('/static/js/learn.js');
      const p = document.createElement('div');
      document.body.appendChild(p);
      const r = { depth: 2, totals: [{ error_rate: 12.34, rating: 'expert', cube_errors: 1, luck: -0.467 },
                                     { error_rate: 3.06, rating: 'world_class', cube_errors: 0, luck: 0.5 }],
                  decisions: [{ mark: '?', game: 1, move: 3, player: 0, dice: [3, 1], played_play: null,
                                played: 'no double', best_play: null, best: 'double', loss: 0.123 }] };
      renderReview(p, r, { name: (s) => ['Ana', 'Ion'][s], side: (s) => s });
      const out = [...p.querySelectorAll('td.num')].map((e) => e.textContent).concat([p.querySelector('#review-list').textContent]);
      p.remove();
      return out;
    }""")
    assert texts[:6] == ["12,3 · expert", "1", "−0,467", "3,1 · clasă mondială", "0", "+0,500"], texts
    assert texts[-1].endswith("(−0,123)"), texts


def test_the_result_dialog_says_what_the_game_cost(desktop):
    """The second game of a match lost by a gammon: the dialog says the game cost 20 points, and the
    match so far 30, named as such (it said "Pierzi 30 de puncte", the match's total, for the game)."""
    page = desktop
    open_app(page)
    note = page.evaluate("""async () => {
      const { OnlineMatch } = await import('/static/js/match.js');
      const m = Object.create(OnlineMatch.prototype);
      m.you = (seat) => seat === 1;
      m.name = (seat) => ['Ana', 'Ion'][seat];
      const ledger = [{ seat: 0, amount: 20, reason: 'win:single' }, { seat: 1, amount: -10, reason: 'loss:single' },
                      { seat: 0, amount: 40, reason: 'win:gammon' }, { seat: 1, amount: -20, reason: 'loss:gammon' }];
      const msg = (entries) => ({ seats: [1], view: { ledger: entries } });
      return [m.resultNote(msg(ledger.slice(0, 2))), m.resultNote(msg(ledger))];
    }""")
    assert note[0] == "Jocul acesta te-a costat 10 puncte."
    assert note[1] == "Jocul acesta te-a costat 20 de puncte. Partida aceasta te-a costat 30 de puncte."
