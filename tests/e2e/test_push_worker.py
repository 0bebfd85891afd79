"""The service worker shows a "your move" push notice as the server sends it (delivered here through
the browser's DevTools protocol, as a push service would)."""

from __future__ import annotations

import json
import time

from tests.e2e.e2e_helpers import open_app

NOTICES = """navigator.serviceWorker.ready.then((r) => r.getNotifications())
  .then((ns) => ns.map((n) => [n.title, n.body, n.tag, n.data && n.data.url]))"""


def test_the_service_worker_shows_a_pushed_turn_notice(browser, server_url):
    ctx = browser.new_context(bypass_csp=True, base_url=server_url)
    try:
        ctx.grant_permissions(["notifications"], origin=server_url)
        page = ctx.new_page()
        open_app(page)
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = ctx.new_cdp_session(page)
        registrations: list[dict] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + 10
        while not registrations and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert registrations, "the service worker did not register"
        notice = {"title": "E rândul tău la Table", "body": "Ana a mutat: mutarea ta te așteaptă.",
                  "tag": "turn-g1", "url": "/#/game/g1"}
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": server_url,
                                                      "registrationId": registrations[0]["registrationId"],
                                                      "data": json.dumps(notice)})
        shown: list = []
        deadline = time.monotonic() + 10
        while not shown and time.monotonic() < deadline:
            page.wait_for_timeout(100)
            shown = page.evaluate(NOTICES)
        assert shown == [[notice["title"], notice["body"], notice["tag"], notice["url"]]]
    finally:
        ctx.close()
