"""The replay screen draws each step's board: a pasted match (the home screen's paste dialog) and a
finished online match, stepped with → and ← against the server's positions."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_helpers import DESKTOP, person
from tests.e2e.test_standings import api, forfeit, guest

MAT = Path(__file__).parents[1] / "notation" / "data" / "gnubg_3pt.mat"

# Checkers on each point as the page draws them: + white (seat 0), - black, by the point's data-loc.
DRAWN = """() => {
  const svg = document.getElementById("replay-board");
  const at = (loc) => svg.querySelector(`g.pt[data-loc="${loc}"]`);
  const signed = (g) => g.querySelectorAll("circle.ck.c0").length - g.querySelectorAll("circle.ck.c1").length;
  const bar = at(25);
  return {step: svg.dataset.step,
          points: Array.from({length: 24}, (_, i) => signed(at(i + 1))),
          bar: [bar.querySelectorAll("circle.ck.c0").length, bar.querySelectorAll("circle.ck.c1").length]};
}"""


def drawn(page):
    return page.evaluate(DRAWN)


def expect_step(page, steps, n):
    page.locator(f"#replay-board[data-step='{n}']").wait_for()
    got = drawn(page)
    board = steps[n]["board"]
    assert got["points"] == board["points"], n
    assert got["bar"] == board["bar"], n


def test_a_pasted_match_replays_on_the_board_with_the_arrow_keys(browser, server_url):
    text = MAT.read_text()
    steps = api(server_url, "POST", "/api/replay", body={"record": text})["steps"]
    first_move = next(i for i, s in enumerate(steps) if s["kind"] == "move")
    with person(browser, server_url, **DESKTOP) as page:
        open_app(page)
        page.click("#btn-import")
        page.fill("#in-import", text)
        page.click("#btn-import-replay")
        page.wait_for_url("**/#/replay/pasted")
        expect_step(page, steps, 0)
        assert page.locator("#replay-count").text_content() == f"Pasul 0 din {len(steps) - 1}"
        before = drawn(page)["points"]
        for n in range(1, first_move + 3):
            page.keyboard.press("ArrowRight")
            expect_step(page, steps, n)
        assert drawn(page)["points"] != before  # the plays moved checkers
        # The play's text, numbered from white's side (the viewer did not play), and its arrows.
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        expect_step(page, steps, first_move)
        assert page.locator("#replay-now").text_content().endswith(steps[first_move]["text"][0])
        assert page.locator("#replay-board path.arrow").count() == len(steps[first_move]["steps"])
        page.keyboard.press("ArrowLeft")
        expect_step(page, steps, first_move - 1)
        page.click("#replay-next")
        expect_step(page, steps, first_move)


def test_a_bad_pasted_record_is_explained(browser, server_url):
    with person(browser, server_url, **DESKTOP) as page:
        open_app(page)
        page.click("#btn-import")
        page.fill("#in-import", "not a match")
        page.click("#btn-import-replay")
        page.locator("#replay p.muted", has_text="Nu pot citi partida lipită").wait_for()


def test_a_finished_online_match_opens_on_the_starting_board(browser, server_url):
    _, w_tok = guest(server_url, "Bw")
    _, l_tok = guest(server_url, "Bl")
    game = forfeit(server_url, w_tok, l_tok)
    steps = api(server_url, "GET", f"/api/games/{game}/replay")["steps"]
    with person(browser, server_url, **DESKTOP) as page:
        open_app(page)
        page.goto(f"/#/replay/{game}")
        expect_step(page, steps, 0)
        assert drawn(page)["points"][5] == 5 and drawn(page)["points"][18] == -5
        for n in range(1, len(steps)):
            page.keyboard.press("ArrowRight")
            expect_step(page, steps, n)
