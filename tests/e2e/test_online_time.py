"""Time at an online table, against a real server whose clock the test moves on (no sleeping):
a clock under ten seconds warns and, run out, loses the match for 100 points; an opponent away for
90 seconds may be claimed against."""

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
    yield from serve(tmp_path_factory.mktemp("db-time"), now=lambda: time.time() + SHIFT[0])


def test_a_clock_under_ten_seconds_warns_and_running_out_loses_100_points(browser, shifted_url, artifacts):
    with person(browser, shifted_url, **PHONE) as ana, person(browser, shifted_url, **PHONE) as ion:
        start_match(ana, ion, ("Ana", "Ion"), clock="rapid")  # 8 s a decision + 20 s for one point
        ana.wait_for_selector(".player .clock.running")
        on_clock = "Ana" if ana.locator("#p-bottom .clock.running").count() else "Ion"
        loser, winner = (ana, ion) if on_clock == "Ana" else (ion, ana)
        assert "warn" not in (ana.locator(".player .clock.running").get_attribute("class") or "")
        # 22 s later the one deciding has about 6 s left: a reloaded page learns the server's time.
        SHIFT[0] += 22
        winner.reload()
        winner.wait_for_selector("#p-top .clock.running.warn")
        winner.screenshot(path=str(artifacts / "online-clock-warning-phone-ro.png"))
        # Then it runs out: the server ends the match; the one who ran out loses 100 points.
        SHIFT[0] += 10
        loser_text = RO["ledger_loss"].replace("{pts}", "100 de puncte")
        loser.wait_for_function(f"document.querySelector('#ledger').textContent === {loser_text!r}", timeout=30000)
        assert RO["timeout_by_you"] in loser.locator("#presence").inner_text()
        winner.wait_for_function(f"document.querySelector('#ledger').textContent === {RO['ledger_zero']!r}")
        assert RO["timeout_by"].replace("{name}", on_clock) in winner.locator("#presence").inner_text()


def test_an_opponent_away_for_90_seconds_may_be_claimed_against(browser, shifted_url, artifacts):
    with person(browser, shifted_url, **PHONE) as maria, person(browser, shifted_url, **PHONE) as dan:
        # Dan's game socket goes through the test, so that the test can cut it the way a phone
        # that drops the page does. Closing the page alone was not enough: Chromium now and then
        # kept a closed page's socket open (answering the server's pings) for over a minute.
        links: list = []
        cut = [False]

        def relay(ws) -> None:
            if cut[0]:
                ws.close()  # the page is gone: nothing reaches the server again
                return
            links.append(ws.connect_to_server())

        dan.route_web_socket(re.compile(r"/ws/games/"), relay)
        start_match(maria, dan, ("Maria", "Dan"), clock="untimed")
        # An untimed table shows no clocks.
        assert maria.locator(".player .clock:not([hidden])").count() == 0
        dan.wait_for_selector("#controls [data-act=leave]:not([hidden])")
        # Dan's page goes (a closed tab, a phone that dropped the page).
        cut[0] = True
        for link in links:
            link.close()
        dan.close()
        maria.wait_for_function("document.querySelector('#presence').textContent.includes('Dan s-a deconectat')",
                                timeout=60000)
        claim = maria.locator("#controls [data-act=claim]")
        assert claim.is_hidden()
        SHIFT[0] += 91
        maria.reload()
        maria.wait_for_function("document.querySelector('#presence').textContent.includes('Dan s-a deconectat acum 1 min 3')")
        # "or keep waiting" on his turn, "or play on" on hers (docs/protocol.md, "Away on your turn").
        said = maria.locator("#presence").inner_text()
        assert RO["away_claim_now"] in said or RO["away_claim_now_your_turn"] in said, said
        maria.screenshot(path=str(artifacts / "online-claim-phone-ro.png"))
        claim.click()
        away = RO["away_by"].replace("{name}", "Dan")
        maria.wait_for_function(f"document.querySelector('#presence').textContent.includes({away!r})")
        maria.wait_for_function(f"document.querySelector('#ledger').textContent === {RO['ledger_zero']!r}")
        if maria.locator("#dlg-result[open]").count():
            maria.locator("#dlg-result button").click()
        maria.goto("/#/player/Dan")
        maria.wait_for_function("document.querySelector('#player-points').textContent === '−100'")
        assert RO["reason_left"] in maria.locator("#player-games").inner_text()
