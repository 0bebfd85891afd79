"""The move list, the hint, export and the review, as a player uses them in Chromium."""

from __future__ import annotations

import json

from table.bot import Bot
from table.match import Match
from table.rules.position import Position

from tests.e2e.e2e_helpers import new_game, open_app, play_by_clicks, version, wait_my_move


def _game(page) -> tuple[str, str]:
    """The game id and this device's token for it."""
    game = page.url.rsplit("/", 1)[1]
    games = json.loads(page.evaluate("localStorage.getItem('table.games')"))
    return game, games[game]["token"]


def _confirm(page) -> None:
    before = version(page)
    page.click("#controls [data-act=confirm]")
    page.wait_for_function(f"window.__table.version() > {before}")


def test_the_move_list_numbers_plays_from_the_viewers_side_and_shows_past_positions(desktop, artifacts):
    page = desktop
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/moves?" in r.url else None)
    open_app(page, "en")
    new_game(page, mode="computer", level="easy", seat=1)  # the viewer plays black: seat 1's numbering
    wait_my_move(page)
    play_by_clicks(page)
    _confirm(page)
    wait_my_move(page)
    game, _ = _game(page)
    # After each state the page asks only for the entries after those it has.
    assert asked and asked[0].endswith("?from=0") and any(not u.endswith("?from=0") for u in asked), asked
    listed = page.request.get(f"/api/games/{game}/moves").json()["moves"]
    plays = [e for e in listed if e["kind"] == "move"]
    assert len(plays) >= 2
    page.wait_for_function(f"document.querySelectorAll('#move-list .move-line button').length === {len(plays)}")
    lines = page.locator("#move-list .move-line .p").all_inner_texts()
    dice = page.locator("#move-list .move-line .d").all_inner_texts()
    assert lines == [e["text"][1] or "cannot move" for e in plays]
    assert dice == [f"{e['dice'][0]}-{e['dice'][1]}" for e in plays]
    # The last line is the board's own "last move" text, numbered as the board is.
    assert lines[-1] in page.inner_text("#last")
    # Numbered in pairs as players write them: "1." white's move then black's, "2." ...; a row
    # black opens has a gap where white's move would be.
    rows = page.locator("#move-list .move-line").all()
    assert [r.locator(".n").inner_text() for r in rows] == [f"{k}." for k in range(1, len(rows) + 1)]
    first = plays[0]["seat"]
    assert rows[0].locator("button").count() == (2 if first == 0 and len(plays) > 1 else 1)
    assert (rows[0].locator(".gap").count() == 1) == (first == 1)
    swatches = [b.locator(".swatch").get_attribute("class") for r in rows for b in r.locator("button").all()]
    assert swatches == [f"swatch c{e['seat']}" for e in plays]
    page.screenshot(path=str(artifacts / "learn-moves-desktop-en.png"))
    # A tap shows that position, read-only, until "back to the game".
    page.locator("#move-list .move-line button").first.click()
    assert page.is_visible("#peek") and not page.is_visible("#controls [data-act=confirm]")
    assert page.locator("#board .ck.movable").count() == 0
    page.click("#btn-peek-back")
    assert not page.is_visible("#peek")
    wait_my_move(page)


def test_the_hint_shows_greus_best_plays(desktop):
    page = desktop
    open_app(page, "en")
    new_game(page, mode="computer", level="easy", seat=0)
    wait_my_move(page)
    game, token = _game(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hint-table tr.best")
    shown = page.locator(".hint-table td.p").all_inner_texts()
    ids = page.request.get(f"/api/games/{game}/export", headers={"Authorization": f"Bearer {token}"}).json()
    dice = page.evaluate("window.__table.dice()")
    expected = Bot("hard").ranked_plays(Position.from_id(ids["position"]), dice)
    assert shown[0] == f"1. {expected[0][0]}"
    assert len(shown) == min(5, len(expected))
    assert [s.split(" ", 1)[1] for s in shown] == [str(p) for p, _ in expected[:len(shown)]]
    # Switched off in the settings, the button goes.
    page.click("#btn-settings")
    page.locator("#dlg-settings input[name=hints]").uncheck()
    page.locator("#dlg-settings button[value=ok]").click()
    assert not page.is_visible("#btn-hint")


def test_export_downloads_records_that_parse_back(desktop):
    page = desktop
    open_app(page, "ro")
    new_game(page, mode="computer", level="easy", length=3, seat=0)
    wait_my_move(page)
    page.click("#btn-export")
    page.wait_for_selector(".export-files a[data-kind=mat]")
    with page.expect_download() as info:
        page.click(".export-files a[data-kind=mat]")
    text = open(info.value.path(), encoding="utf-8").read()
    m = Match.from_mat(text)
    assert m.length == 3
    assert page.input_value("input[data-kind=export_position]") == m.position.id
    # The record stops before the roll now on the table; the Match ID also holds those dice.
    shown = Match.from_ids(m.position.id, page.input_value("input[data-kind=export_match]"))
    assert (shown.length, shown.score, shown.dice) == (3, m.score, tuple(page.evaluate("window.__table.dice()")))
    assert page.input_value("input[data-kind=export_xgid]").startswith("XGID=")
    with page.expect_download() as info:
        page.click(".export-files a[data-kind=sgf]")
    assert Match.from_sgf(open(info.value.path(), encoding="utf-8").read()).position == m.position


def test_the_review_shows_progress_then_each_players_figures(phone, artifacts):
    page = phone
    open_app(page, "ro")
    new_game(page, mode="local", length=1, cube=True)
    wait_my_move(page)
    play_by_clicks(page)
    _confirm(page)
    page.wait_for_selector("#controls [data-act=double]:visible")
    page.click("#controls [data-act=double]")
    page.wait_for_selector("#controls [data-act=drop]:visible")
    page.click("#controls [data-act=drop]")
    page.wait_for_selector("#dlg-result[open]")
    page.locator("#dlg-result button[value=ok]").click()
    page.wait_for_selector("#btn-review:visible")
    page.click("#btn-review")
    page.wait_for_selector("#review-progress", state="attached")
    page.wait_for_selector(".review-table", timeout=60000)
    rows = page.locator(".review-table tr").all_inner_texts()
    assert len(rows) == 3  # the heading and one row per player
    page.screenshot(path=str(artifacts / "learn-review-phone-ro.png"), full_page=True)


def test_a_game_starts_from_a_pasted_xgid(desktop):
    page = desktop
    open_app(page, "en")
    new_game(page, mode="computer", seat=0, length=7, cube=True,
             start="XGID=-C-----------------ba-----:1:-1:1:62:3:4:0:7:10")
    wait_my_move(page)
    assert sorted(page.evaluate("window.__table.dice()")) == [2, 6]
    assert "3" in page.inner_text("#score") and "4" in page.inner_text("#score")


def test_a_pasted_match_is_analysed(phone):
    page = phone
    m = Match(length=1, seed=3)
    while not m.is_over:
        m.apply(m.legal_actions()[-1])
    open_app(page, "ro")
    page.click("#btn-import")
    page.fill("#in-import", "not a match")
    page.click("#btn-import-go")
    page.wait_for_selector("#import-result p:has-text('Nu am putut citi')")
    page.fill("#in-import", m.to_mat())
    page.click("#btn-import-go")
    page.wait_for_selector("#import-result .review-table", timeout=60000)
    assert page.locator("#import-result .review-list li").count() >= 1
