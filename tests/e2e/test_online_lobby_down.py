"""The lobby when the server cannot be reached: it says so (no empty lists, no name asked for in
vain) and comes back by itself (issue 48, 2.7).  The test stands between page and server."""

from __future__ import annotations

import re

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person
from tests.e2e.test_online_away import Cuttable

RO = catalogue("ro")
LOBBY_SOCKET = re.compile(r"/ws/lobby")


def test_a_new_device_is_told_the_server_is_down_not_asked_for_a_name(browser, server_url):
    with person(browser, server_url, **PHONE) as page:
        open_app(page)
        down = [True]
        page.route(re.compile(r"/api/"), lambda route: route.abort() if down[0] else route.continue_())
        page.route_web_socket(LOBBY_SOCKET, lambda ws: ws.close() if down[0] else ws.connect_to_server())
        page.click("#btn-online")
        page.wait_for_selector("#offline:not([hidden])")
        assert RO["lobby_unreachable"] in page.locator("#lobby-open").inner_text()
        page.wait_for_timeout(500)
        assert page.locator("#dlg-nick").is_hidden()  # (before: "Alege-ți un nume", which could not be taken)
        down[0] = False
        nickname(page, "Radu")  # the server answers again: now the name is asked for
        page.wait_for_selector("#offline", state="hidden")
        page.wait_for_function(f"!document.querySelector('#lobby-open').textContent.includes({RO['lobby_unreachable']!r})"
                               f" && !document.querySelector('#lobby-open').textContent.includes({RO['lobby_loading']!r})")


def test_the_lobby_notices_the_server_going_and_coming_back(browser, server_url, artifacts):
    with person(browser, server_url, **PHONE) as page:
        server = Cuttable(page, LOBBY_SOCKET)
        open_app(page)
        page.click("#btn-online")
        nickname(page, "Sorina")
        page.wait_for_function(f"!document.querySelector('#lobby-live').textContent.includes({RO['lobby_loading']!r})")
        assert page.locator("#offline").is_hidden()
        server.cut()  # the server goes away
        page.wait_for_selector("#offline:not([hidden])")
        assert RO["lobby_unreachable"] in page.locator("#lobby-live").inner_text()
        page.screenshot(path=str(artifacts / "lobby-server-down-phone-ro.png"))
        server.mend()  # and comes back: the feed reconnects by itself (within 8 s)
        page.wait_for_selector("#offline", state="hidden", timeout=20000)
        assert RO["lobby_unreachable"] not in page.locator("#lobby-live").inner_text()
