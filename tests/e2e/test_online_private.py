"""A private table's players act on it from the game page, which names it by its id (issue 48,
2.2: leaving answered "Nu am găsit ce cauți" and the game went on)."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.e2e_helpers import open_app
from tests.e2e.online_fakes import catalogue
from tests.e2e.online_helpers import PHONE, nickname, person

RO = catalogue("ro")


def test_leaving_a_private_table_forfeits_it_and_a_rematch_starts_another(browser, server_url):
    with person(browser, server_url, **PHONE) as ana, person(browser, server_url, **PHONE) as ion:
        open_app(ana)
        ana.click("#btn-online")
        nickname(ana, "Anca")
        ana.click("#btn-create")
        form = ana.locator("#form-table")
        form.locator("select[name=length]").select_option("1")
        form.locator("input[name=clock][value=relaxed]").check()
        form.locator("input[name=visibility][value=private]").check()
        ana.click("#btn-create-table")
        ana.wait_for_url("**/#/join/*")
        ana.wait_for_selector("#invite-box:not([hidden])")
        link = ana.locator("#invite-link").input_value()
        open_app(ion)
        ion.goto(link)
        ion.click("#btn-join")
        nickname(ion, "Ionel")
        ion.wait_for_url("**/#/game/*")
        ana.wait_for_url(ion.url)
        for page in (ana, ion):
            page.wait_for_function("window.__table && window.__table.version() > 0")
        # Ion leaves: it costs him 100 points, and Ana wins (before: a 404 and the game went on).
        ion.locator("#controls [data-act=leave]").click()
        ion.click("#btn-leave-ok")
        loss = RO["ledger_loss"].replace("{pts}", "100 de puncte")
        ion.wait_for_function(f"document.querySelector('#ledger').textContent === {loss!r}")
        ana.wait_for_function(f"document.querySelector('#presence').textContent.includes({RO['left_by'].replace('{name}', 'Ionel')!r})")
        # Both ask for a rematch at the private table: a new game starts for both.
        for page in (ana, ion):
            try:
                page.locator("#dlg-result[open]").wait_for(timeout=5000)
                page.locator("#dlg-result button").click()
            except PlaywrightTimeout:
                pass  # no result dialog for this ending
        old = ana.url
        for page in (ana, ion):
            page.locator("#controls [data-act=rematch]").click()
        for page in (ana, ion):
            page.wait_for_function(f"location.href !== {old!r} && window.__table && window.__table.version() > 0")
        assert ana.url == ion.url
