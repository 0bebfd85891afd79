"""Race, Dutch backgammon and Acey-Deucey in the browser on a phone (390x844): offered by the
new-game form (the cube taken away where the game has none), the checkers waiting to enter drawn in
each side's pile and entered by tapping the pile and a lit point, on the server and on the device
without a network, and games against the computer played to the end.  Games that start from a set-up
position (near the end, or on a 1-2 to play) are made through the API, as a program would, and
opened by their link."""

from __future__ import annotations

import json
import urllib.request

from table.notation.matchid import MatchInfo, encode_match_id
from table.rules.position import Position

from tests.e2e.e2e_helpers import MOVABLE, answered, new_game, open_app, play_by_clicks
from tests.e2e.test_match import visible
from tests.e2e.test_nackgammon import _phone
from tests.e2e.test_offline_play import _offline_context, _play_on

# Each side's pile: its count, the viewer's first (read from the drawn slabs).
PILES = "[...document.querySelectorAll('#board .pile')].map(g => g.querySelectorAll('.slab').length)"


def _api(server_url: str, path: str, body: dict[str, object] | None = None) -> dict[str, object]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server_url + path, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        answer: dict[str, object] = json.loads(r.read())
        return answer


def _match_id(dice: tuple[int, int]) -> str:
    """A one-game match with the player (seat 0) on roll: ``(0, 0)`` to roll, else the dice to play."""
    return encode_match_id(MatchInfo(cube_value=1, cube_owner=None, player_on_roll=0, crawford=False, turn=0,
                                     double_offered=False, dice=dice, match_length=1, score=(0, 0)))


def _open_game(page, server_url: str, variant: str, lang: str, position: Position | None = None,
               dice: tuple[int, int] = (0, 0)) -> str:
    """Make a one-game match of ``variant`` against the easy computer (from ``position``, the player
    on roll, when given) and open it as its player."""
    settings: dict[str, object] = {"mode": "computer", "level": "easy", "length": 1, "cube": False,
                                   "variant": variant}
    if position is not None:
        settings["start"] = {"position": position.id, "match": _match_id(dice)}
    made = _api(server_url, "/api/games", settings)
    game, token = made["game"], made["token"]
    page.add_init_script(f"localStorage.setItem('table.games', JSON.stringify({{{json.dumps(game)}: "
                         f"{{token: {json.dumps(token)}, created: 1}}}}))")
    open_app(page, lang)
    page.goto(f"/#/game/{game}")
    page.wait_for_selector("#board .pile")
    return str(game)


def _finished(server_url: str, game: str) -> dict[str, object]:
    view: dict[str, object] = _api(server_url, f"/api/games/{game}")["view"]  # type: ignore[assignment]
    assert view["over"], view
    return view


def test_a_race_from_the_form_enters_from_the_pile(browser, server_url, artifacts):
    ctx, page, errors = _phone(browser, server_url)
    try:
        open_app(page, "ro")
        page.click("#btn-new")
        form = page.locator("#form-new")
        form.locator("input[name=variant][value=race]").check()
        assert form.locator("input[name=cube]").is_disabled() and not form.locator("input[name=cube]").is_checked()
        assert "toate piesele așteaptă în afara tablei" in page.locator("#variant-start").inner_text()
        page.screenshot(path=str(artifacts / "race-form-phone-ro.png"))
        page.locator("#form-new button[value=cancel]").click()
        new_game(page, mode="computer", level="easy", length=1, variant="race")
        game = page.url.rsplit("/", 1)[1]
        assert page.locator("#variant-badge").inner_text() == "Cursa de table"
        page.wait_for_selector("#board .pilerect.source, #controls [data-act=roll]:visible")
        if visible(page, "roll"):
            page.click("#controls [data-act=roll]")
        page.wait_for_selector("#board .pilerect.source")
        # Nothing on the points yet but what the computer may have entered first: the pile is the
        # only thing to pick up.
        piles = page.evaluate(PILES)
        assert piles[0] == 15 and 13 <= piles[1] <= 15, piles
        assert page.locator("#board .ck.movable").count() == 0
        page.screenshot(path=str(artifacts / "race-start-phone-ro.png"))
        play_by_clicks(page)
        answered(page, "confirm")
        page.wait_for_function(f"{PILES}[0] < 15")
        view = _api(server_url, f"/api/games/{game}")["view"]
        assert view["waiting"][0] == page.evaluate(PILES)[0] < 15  # type: ignore[index]
        assert not errors, errors
    finally:
        ctx.close()


def test_a_race_against_the_computer_played_to_the_end_on_a_phone(browser, server_url, artifacts):
    # Near the end: our last checker still waits to enter; the computer has two waiting and one in.
    ctx, page, errors = _phone(browser, server_url)
    try:
        game = _open_game(page, server_url, "race", "en", Position.from_checkers({26: 1}, {26: 2, 3: 1}, "race"))
        assert page.evaluate(PILES) == [1, 2]
        seen: set[str] = set()
        _play_on(page, lambda: visible(page, "rematch"), seen, seconds=180)
        page.screenshot(path=str(artifacts / "race-over-phone-en.png"))
        view = _finished(server_url, game)
        # Both sides have borne checkers off already: whoever wins, a single game.
        assert view["result"]["points"] == 1  # type: ignore[index]
        assert view["waiting"][view["result"]["winner"]] == 0  # type: ignore[index]
        assert "move" in seen and not errors, errors
    finally:
        ctx.close()


def test_dutch_to_the_end_entering_before_anything_moves(browser, server_url, artifacts):
    # Our last waiting checker must enter before the two at home may bear off.
    ctx, page, errors = _phone(browser, server_url)
    try:
        game = _open_game(page, server_url, "dutch", "ro", Position.from_checkers({26: 1, 2: 2}, {26: 1, 1: 2}, "dutch"))
        assert page.locator("#variant-badge").inner_text() == "Table olandeze"
        page.click("#controls [data-act=roll]")
        page.wait_for_selector("#board .pilerect.source")
        assert page.locator("#board .ck.movable").count() == 0  # only the waiting checker may move
        seen: set[str] = set()
        _play_on(page, lambda: visible(page, "rematch"), seen, seconds=180)
        assert _finished(server_url, game)["result"] is not None and not errors, errors
    finally:
        ctx.close()


def test_acey_deucey_a_1_2_then_a_named_double_then_another_roll(browser, server_url, artifacts):
    # A 1-2 to play with five checkers waiting and two on our 20-point.
    ctx, page, errors = _phone(browser, server_url)
    try:
        game = _open_game(page, server_url, "acey-deucey", "en",
                          Position.from_checkers({26: 5, 20: 2}, {26: 10}, "acey-deucey"), dice=(2, 1))
        play_by_clicks(page)
        page.click("#controls [data-act=confirm]")
        # The 1 and the 2 played: six buttons name the double, and nothing else may be done but resign.
        page.wait_for_selector("#controls [data-act=name_double]:visible")
        names = page.locator("#controls [data-act=name_double]:visible")
        assert names.all_inner_texts() == [f"{n}-{n}" for n in range(1, 7)]
        assert "choose a double" in page.locator("#status").inner_text()
        page.screenshot(path=str(artifacts / "acey-deucey-name-double-phone-en.png"))
        names.nth(5).click()  # 6-6
        page.wait_for_selector(MOVABLE)
        assert "You chose 6-6" in page.locator("#status").inner_text()
        play_by_clicks(page)
        answered(page, "confirm")
        # Played in full: the same player rolls again.
        view = _api(server_url, f"/api/games/{game}")["view"]
        if view["stage"] == "extra_roll":
            page.wait_for_selector("#controls [data-act=roll]:visible")
            assert "roll once more" in page.locator("#status").inner_text()
        else:  # the double could not be played four times: the extra roll is lost
            assert view["turn"] == 1 or view["over"], view
        assert not errors, errors
    finally:
        ctx.close()


def test_acey_deucey_on_the_device_without_a_network(browser, server_url, artifacts):
    # The browser's engine and computer play it: the first entries from the pile, the computer's reply.
    ctx, page, errors = _offline_context(browser, server_url)
    try:
        new_game(page, mode="computer", level="easy", length=1, variant="acey-deucey")
        assert "local-" in page.url
        assert page.locator("#variant-badge").inner_text() == "Acey-Deucey"
        seen: set[str] = set()
        # Until both sides have entered from their piles: our move (an opening 1-2 names a double on the
        # way) and the computer's.
        _play_on(page, lambda: page.evaluate(PILES)[0] < 15 and page.evaluate(PILES)[1] < 15, seen, seconds=120)
        page.screenshot(path=str(artifacts / "acey-deucey-offline-desktop.png"))
        assert "move" in seen and not errors, errors
    finally:
        ctx.close()
