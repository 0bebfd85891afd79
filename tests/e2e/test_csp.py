"""The app works under its own Content-Security-Policy, with nothing refused.

The other end-to-end tests bypass the policy, because Playwright's
``wait_for_function`` evaluates strings, which the policy forbids; this one
keeps it and sticks to selectors.
"""

from __future__ import annotations

from tests.e2e.e2e_helpers import open_app, play_by_clicks


def test_a_game_under_the_content_security_policy(browser, server_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server_url)
    ctx.set_default_timeout(30000)  # the first game of a busy test worker may wait on its computer
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    try:
        response = page.goto("/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        open_app(page)
        # The bot's WebAssembly evaluator compiles under the policy (else it falls back, slower).
        assert page.evaluate("""import("/static/js/engine/simd.js")
            .then((m) => m.instantiate(65536) !== null)""")
        page.click("#btn-new")
        form = page.locator("#form-new")
        form.locator("input[name=mode][value=computer]").check()
        form.locator("input[name=level][value=easy]").check()
        form.locator("input[name=cube]").set_checked(False)
        page.click("#btn-start")
        page.wait_for_url("**/#/game/*")
        page.wait_for_selector("#board .ck.movable")
        play_by_clicks(page)
        page.click("#controls [data-act=confirm]")
        page.wait_for_selector("#board .ck.movable")  # the computer has answered: our turn again
    finally:
        ctx.close()
    assert not refused, refused
