"""The Learn page of the other games draws each game's start, on a phone (390x844), in both
languages: the game screen's board, read-only, with every checker where Python's variant puts it
(Plakoto's and Fevga's corners, the checkers of Race, Dutch and Acey-Deucey waiting beside the
board), a caption, and no bar where nothing is hit."""

from __future__ import annotations

from table.rules.variant import find_variant

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.test_nackgammon import _phone

DRAWN = ["nackgammon", "hypergammon", "race", "dutch", "acey-deucey", "plakoto", "fevga", "portes"]


def _expected(name: str) -> tuple[list[int], list[int]]:
    """Seat 0's board at the start, points 1..24 (+ White, - Black), and each side's waiting
    checkers, from the variant's start: Black's checkers mirror White's, numbered from Black's side
    (the same way round in Fevga, where Black's 24-point is White's 12)."""
    variant = find_variant(name)
    points = [0] * 24
    for point, n in variant.start:
        black = (point + 11) % 24 + 1 if variant.direction == "same" else 25 - point
        points[point - 1] += n
        points[black - 1] -= n
    waiting = [variant.checkers, variant.checkers] if not variant.start else [0, 0]
    return points, waiting


def test_each_games_start_is_drawn_on_the_learn_page(browser, server_url, artifacts):
    for lang in ("ro", "en"):
        words = catalogue(lang)
        ctx, page, errors = _phone(browser, server_url)
        try:
            open_app(page, lang)
            page.goto("/#/learn/variants")
            page.wait_for_selector("#page-body figure.start-diagram svg")
            figures = page.locator("#page-body figure.start-diagram")
            assert figures.evaluate_all("fs => fs.map(f => f.dataset.start)") == DRAWN
            for name in DRAWN:
                fig = page.locator(f"#page-body figure[data-start='{name}']")
                drawn = fig.evaluate("""f => ({
                  points: [...Array(24).keys()].map(i => {
                    const g = f.querySelector(`.pt[data-loc='${i + 1}']`);
                    const white = g.querySelectorAll('.ck.c0').length, black = g.querySelectorAll('.ck.c1').length;
                    return white - black; }),
                  waiting: [...f.querySelectorAll('.pile .pilecount')].map(x => Number(x.textContent)),
                  bar: f.querySelectorAll('.barzone').length })""")
                points, waiting = _expected(name)
                assert drawn["points"] == points, (name, drawn["points"])
                assert sorted(drawn["waiting"]) == sorted(w for w in waiting if w), (name, drawn["waiting"])
                assert drawn["bar"] == (0 if name in ("plakoto", "fevga") else 1), name
                caption = fig.locator("figcaption").inner_text()
                assert caption, name
            fevga = page.locator("#page-body figure[data-start='fevga'] figcaption").inner_text()
            assert fevga.startswith(words["start_diagram_same_way"].split("{game}")[0] + "Fevga"), fevga
            page.locator("#page-body figure[data-start='plakoto']").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"learn-start-plakoto-phone-{lang}.png"))
            page.locator("#page-body figure[data-start='race']").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"learn-start-race-phone-{lang}.png"))
            assert not errors, errors
        finally:
            ctx.close()
