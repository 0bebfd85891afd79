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


class Cuttable:
    """``page``'s sockets whose address matches ``pattern``, through the test: ``cut()`` closes them
    and refuses new ones (the server is gone, as far as the page can tell), ``mend()`` lets them
    through again.  (Closing a page alone may leave its socket open for a minute in Chromium.)"""

    def __init__(self, page, pattern=re.compile(r"/ws/games/")) -> None:
        self.links: list = []
        self.down = False
        page.route_web_socket(pattern, self._relay)

    def _relay(self, ws) -> None:
        if self.down:
            ws.close()
            return
        self.links.append(ws.connect_to_server())

    def cut(self) -> None:
        self.down = True
        for link in self.links:
            link.close()
        self.links.clear()

    def mend(self) -> None:
        self.down = False


def test_an_opponent_away_on_your_turn_is_no_reason_to_wait(browser, shifted_url, artifacts):
    with person(browser, shifted_url, **PHONE) as maria, person(browser, shifted_url, **PHONE) as dan:
        sockets = {"Maria": Cuttable(maria), "Dan": Cuttable(dan)}
        start_match(maria, dan, ("Maria", "Dan"), clock="tournament")  # 12 s a decision + 120 s
        maria.wait_for_selector(".player .clock.running")
        # Whoever won the opening roll stays; the other closes the page on their turn.
        stays, leaves = ("Maria", "Dan") if maria.locator("#p-bottom .clock.running").count() else ("Dan", "Maria")
        page = maria if stays == "Maria" else dan
        sockets[leaves].cut()
        (dan if leaves == "Dan" else maria).close()
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
