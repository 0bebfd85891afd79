"""An opponent who goes away on your turn: the page tells you to play on, never to wait past your own
time (issue 48, 2.3; docs/protocol.md, "Away on your turn").  The server's clock is moved on by the test."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.conftest import serve
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, person, start_match

RO = catalogue("ro")
SHIFT = [0.0]  # seconds the server's clock is ahead of the real one


@pytest.fixture(scope="module")
def shifted_url(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("db-away"), now=lambda: time.time() + SHIFT[0])


def _cuttable(page):
    """Route ``page``'s game sockets through the test; the returned function cuts them for good
    (closing a page alone may leave its socket open for a minute in Chromium)."""
    links: list = []
    cut = [False]

    def relay(ws) -> None:
        if cut[0]:
            ws.close()
            return
        links.append(ws.connect_to_server())

    page.route_web_socket(re.compile(r"/ws/games/"), relay)

    def gone() -> None:
        cut[0] = True
        for link in links:
            link.close()
        page.close()

    return gone


def test_an_opponent_away_on_your_turn_is_no_reason_to_wait(browser, shifted_url, artifacts):
    with person(browser, shifted_url, **PHONE) as maria, person(browser, shifted_url, **PHONE) as dan:
        cut = {"Maria": _cuttable(maria), "Dan": _cuttable(dan)}
        start_match(maria, dan, ("Maria", "Dan"), clock="tournament")  # 12 s a decision + 120 s
        maria.wait_for_selector(".player .clock.running")
        # Whoever won the opening roll stays; the other closes the page on their turn.
        stays, leaves = ("Maria", "Dan") if maria.locator("#p-bottom .clock.running").count() else ("Dan", "Maria")
        page = maria if stays == "Maria" else dan
        cut[leaves]()
        page.wait_for_function(f"document.querySelector('#presence').textContent.includes('{leaves} s-a deconectat')",
                               timeout=60000)
        text = page.locator("#presence").inner_text()
        # Before: "Poți cere victoria peste 1 min 28 s" while the reader's own clock ran down.
        assert RO["away_claim_in"].split("{t}")[0] not in text, text
        assert RO["away_play_on"] in text, text
        assert page.locator("#controls [data-act=claim]").is_hidden()
        page.screenshot(path=str(artifacts / "online-away-your-turn-phone-ro.png"))
        # 91 s on, still on the reader's turn (132 s in all): claim now, or play on; never "keep waiting".
        SHIFT[0] += 91
        page.reload()
        page.wait_for_function(f"document.querySelector('#presence').textContent.includes({RO['away_claim_now_your_turn']!r})")
        assert RO["away_claim_now"] not in page.locator("#presence").inner_text()
        assert page.locator("#controls [data-act=claim]").is_visible()
