"""Two people play the variants online, on phones (390x844), against the real server, one in
Romanian and one in English: each table made with its game chosen in the create form and listed in
the lobby with it, both boards naming the game, played by taps.  Hypergammon and Fevga (from both
corners, the same way round) are played to the end.  Race, Dutch backgammon and Acey-Deucey start
with every checker in its side's pile, entered by taps (an Acey-Deucey 1-2 names its double);
Acey-Deucey goes on until one side has borne off all fifteen and the loser pays its checkers left,
Race and Dutch until one side resigns (a whole game of either takes minutes in a browser, beyond
CI's time: tests/server/test_reserve_online.py plays them to the end over the same protocol).  A
Tavli match to 3 plays Portes, Plakoto and Fevga in turn, a point a game, each game ended by a
resignation (test_online_greek.py plays Plakoto to the end).  Each player then has a rating in that
game and none in standard backgammon."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person, play_to_the_end, play_until
from tests.e2e.test_online_match import shown, tap

RO = catalogue("ro")
EN = catalogue("en")


def _names(variant: str) -> tuple[str, str]:
    # Names no other test of the session uses: the e2e tests share one server per worker.
    stem = variant.title().replace("-", "")
    return f"{stem}Ana", f"{stem}Bo"


def _seated(ana: Page, bo: Page, variant: str, length: int = 1) -> str:
    """Ana (Romanian) makes a public table of ``variant`` (a single game unless ``length`` says);
    Bo (English) finds it in the lobby and sits down; both open the game.  The game's id."""
    first, second = _names(variant)
    for page, name, lang in ((ana, first, "ro"), (bo, second, "en")):
        open_app(page, lang)
        page.click("#btn-online")
        nickname(page, name)
    ana.click("#btn-create")
    form = ana.locator("#form-table")
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=length]").select_option(str(length))
    cube = form.locator("input[name=cube]")
    if cube.is_enabled():
        cube.set_checked(False)
    form.locator("input[name=clock][value=relaxed]").check()
    ana.click("#btn-create-table")
    ana.wait_for_url("**/#/table/*")
    ana.wait_for_function("document.querySelector('#table-settings').textContent !== ''")
    single = (RO["length_single"], EN["length_single"]) if length == 1 else ("", "")
    settings = ana.locator("#table-settings").inner_text()
    assert settings.startswith(f"{RO['variant_' + variant]} · {single[0]}"), settings
    item = bo.locator("#lobby-open .table-item", has_text=first)
    item.wait_for()
    assert item.locator(".what").inner_text().startswith(f"{EN['variant_' + variant]} · {single[1]}")
    item.locator("button").click()
    bo.wait_for_url("**/#/game/*")
    game = bo.url.split("/#/game/")[1]
    ana.goto(f"/#/game/{game}")
    for page in (ana, bo):
        page.wait_for_function("window.__table && window.__table.version() > 0")
    return game


def _resign(ana: Page, bo: Page) -> None:
    """The one who may resign offers a single game, the other accepts; both see the result."""
    for _ in range(300):
        for first, second in ((ana, bo), (bo, ana)):
            if shown(first, "resign"):
                first.click("#controls [data-act=resign]")
                first.locator("#dlg-resign button[value='1']").click()
                second.wait_for_selector("#controls [data-act=accept_resignation]:visible")
                second.click("#controls [data-act=accept_resignation]")
                for page in (ana, bo):
                    page.wait_for_selector("#dlg-result[open]")
                return
        ana.wait_for_timeout(100)
    raise AssertionError("nobody could resign")


def _view(page: Page, game: str) -> dict:
    return page.request.get(f"/api/games/{game}").json()["view"]


def _rated_in(page: Page, variant: str, names: tuple[str, str]) -> None:
    """Each player has one finished game of ``variant``, rated, and their standard rating is 1500."""
    moved = []
    for name in names:
        player = page.request.get(f"/api/players/{name}").json()
        assert (player["rating"], player["experience"]) == (1500, 0), player
        [record] = player["variants"]
        assert record["variant"] == variant and record["games"] == 1 and record["experience"] == 1, record
        moved.append(record["rating"] - 1500)
    assert moved[0] != 0 and abs(moved[0] + moved[1]) < 0.02, moved  # equal newcomers: equal steps


def test_two_people_play_hypergammon_online_to_the_end(browser, server_url, artifacts):
    with person(browser, server_url, auto_roll=True, **PHONE) as ana, \
            person(browser, server_url, "en", auto_roll=True, **PHONE) as bo:
        game = _seated(ana, bo, "hypergammon")
        for page, cat in ((ana, RO), (bo, EN)):
            assert page.locator("#variant-badge").inner_text() == cat["variant_hypergammon"]
        # Three checkers each, on the 24-, 23- and 22-points.
        assert ana.locator("#board .ck").count() == 6
        ana.screenshot(path=str(artifacts / "online-hypergammon-start-phone-ro.png"))
        play_until(ana, bo, lambda: ana.locator("#controls [data-act=rematch]").is_visible())
        bo.screenshot(path=str(artifacts / "online-hypergammon-over-phone-en.png"))
        view = ana.request.get(f"/api/games/{game}").json()["view"]
        assert view["over"] and view["variant"] == "hypergammon"
        assert max(view["off"]) == 3  # won by bearing off all three (nobody resigned)
        _rated_in(ana, "hypergammon", _names("hypergammon"))


@pytest.mark.parametrize("variant", ["race", "dutch", "acey-deucey"])
def test_two_people_enter_from_their_piles_online_then_play_to_the_end(browser, server_url, artifacts, variant):
    with person(browser, server_url, auto_roll=True, **PHONE) as ana, \
            person(browser, server_url, "en", auto_roll=True, **PHONE) as bo:
        game = _seated(ana, bo, variant)
        for page, cat in ((ana, RO), (bo, EN)):
            assert page.locator("#variant-badge").inner_text() == cat[f"variant_{variant}"]
        # Every checker starts in its side's pile: some may have entered by now (the dice roll by
        # themselves, and the server plays an entry that is the only play), none is borne off.
        view = ana.request.get(f"/api/games/{game}").json()["view"]
        on_points = sum(abs(v) for v in view["points"])
        assert sum(view["waiting"]) + on_points == 30 and view["off"] == [0, 0], view
        ana.screenshot(path=str(artifacts / f"online-{variant}-start-phone-ro.png"))

        def entered() -> bool:
            v = ana.request.get(f"/api/games/{game}").json()["view"]
            return max(v["waiting"]) <= 12  # both entered some

        play_until(ana, bo, entered)
        bo.screenshot(path=str(artifacts / f"online-{variant}-entered-phone-en.png"))
        # To the end: one side bears off all fifteen (nobody resigns).
        play_to_the_end(ana, bo)
        bo.screenshot(path=str(artifacts / f"online-{variant}-over-phone-en.png"))
        view = _view(ana, game)
        assert view["over"] and max(view["off"]) == 15, view
        if variant == "acey-deucey":  # the loser pays its checkers left
            assert view["result"]["points"] == 15 - min(view["off"]), view
        else:  # a single game, a gammon or a backgammon, as standard backgammon scores it
            assert view["result"]["points"] in (1, 2, 3), view
        assert view["over"] and view["variant"] == variant
        _rated_in(ana, variant, _names(variant))


def test_two_people_play_fevga_online_from_their_corners_to_the_end(browser, server_url, artifacts):
    with person(browser, server_url, auto_roll=True, **PHONE) as ana, \
            person(browser, server_url, "en", auto_roll=True, **PHONE) as bo:
        game = _seated(ana, bo, "fevga")
        for page in (ana, bo):
            assert page.locator("#variant-badge").inner_text() == "Fevga"
            assert page.locator("#board .barzone").count() == 0  # nothing is hit: no bar
        ana.screenshot(path=str(artifacts / "online-fevga-start-phone-ro.png"))
        moves = lambda: len([m for m in ana.request.get(f"/api/games/{game}/moves").json()["moves"]
                             if m["kind"] == "move"])
        play_until(ana, bo, lambda: moves() >= 6)
        # Both go the same way round: each side's checkers all on the points, none hit, none off.
        view = _view(ana, game)
        assert [sum(v for v in view["points"] if v > 0), -sum(v for v in view["points"] if v < 0)] == [15, 15]
        bo.screenshot(path=str(artifacts / "online-fevga-played-phone-en.png"))
        play_to_the_end(ana, bo)
        bo.screenshot(path=str(artifacts / "online-fevga-over-phone-en.png"))
        view = _view(ana, game)
        # Won by bearing off all fifteen (nobody resigned): a single game, or two for a mars.
        assert view["over"] and max(view["off"]) == 15 and view["result"]["points"] in (1, 2), view
        _rated_in(ana, "fevga", _names("fevga"))


def test_two_people_play_a_tavli_match_online_its_games_in_turn(browser, server_url, artifacts):
    with person(browser, server_url, **PHONE) as ana, person(browser, server_url, "en", **PHONE) as bo:
        game = _seated(ana, bo, "tavli", length=3)
        played = []
        while not (view := _view(ana, game))["over"]:
            number, variant = view["game_number"], view["variant"]
            played.append(variant)
            for page, cat in ((ana, RO), (bo, EN)):  # "Tavli · Plakoto (game 2)"
                badge = "n => document.querySelector('#variant-badge').textContent.includes(n)"
                page.wait_for_function(badge, arg=cat[f"variant_{variant}"])
                assert cat["variant_tavli"] in page.locator("#variant-badge").inner_text()
            ana.screenshot(path=str(artifacts / f"online-tavli-game{number}-phone-ro.png"))
            _resign(ana, bo)  # each game is one point
            for _ in range(300):
                view = _view(ana, game)
                if view["over"] or view["game_number"] > number:
                    break
                for page in (ana, bo):
                    if page.locator("#dlg-result[open]").count():
                        page.locator("#dlg-result button").first.click()
                    elif shown(page, "next_game"):
                        tap(page, "next_game")
                ana.wait_for_timeout(100)
        # Portes, Plakoto and Fevga in turn, until one had three points.
        in_turn = ["portes", "plakoto", "fevga", "portes", "plakoto"]
        assert 3 <= len(played) <= 5 and played == in_turn[:len(played)], played
        assert max(view["score"]) == 3, view["score"]
        bo.screenshot(path=str(artifacts / "online-tavli-over-phone-en.png"))
