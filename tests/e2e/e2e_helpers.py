"""Steps a person takes in the app, for the end-to-end tests."""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page


def open_app(page: Page, lang: str = "ro") -> None:
    page.add_init_script(f"localStorage.setItem('table.lang', JSON.stringify('{lang}'))")
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")


def new_game(page: Page, mode: str = "computer", level: str = "easy", length: int = 1,
             cube: bool = False, seat: int = 0, start: str | None = None, variant: str | None = None) -> None:
    """Start a game from the new-game form; ``start`` (an XGID, say) sets up its position,
    ``variant`` ("nackgammon") chooses the game (else the form's choice stays)."""
    page.click("#btn-new")
    form = page.locator("#form-new")
    form.locator(f"input[name=mode][value={mode}]").check()
    if variant is not None:
        form.locator(f"input[name=variant][value={variant}]").check()
    if mode == "computer":
        form.locator(f"input[name=level][value={level}]").check()
        form.locator(f"input[name=seat][value='{seat}']").check()
    form.locator("select[name=length]").select_option(str(length))
    form.locator("input[name=cube]").set_checked(cube)
    if start is not None:
        form.locator("details.start-from summary").click()
        page.fill("#in-start", start)
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_function("document.querySelector('#board').childElementCount > 0")


def version(page: Page) -> int:
    return int(page.evaluate("window.__table ? window.__table.version() : -1"))


def answered(page: Page, act: str) -> None:
    """Click one of the server's actions and wait for the state it answers with.

    Until it comes the button stays, and a second look at the controls would click it again; and
    the board shows a confirmed move before the server has it, so the API would answer the state
    before it."""
    at = version(page)
    page.click(f"#controls [data-act={act}]")
    page.wait_for_function(f"window.__table.version() !== {at}")


def wait_dice_settled(page: Page) -> None:
    """Wait until the dice are drawn and their roll animation has finished (they are drawn
    smaller and turned while it runs)."""
    page.wait_for_function(
        "(() => { const d = [...document.querySelectorAll('#board .die')];"
        " return d.length > 0 && d.every(e => e.getAnimations().every(a => a.playState !== 'running')); })()")


# What the player may pick up: a lit checker, or the pile of checkers waiting to enter (Race, Dutch,
# Acey-Deucey) when one of them may enter.
MOVABLE = "#board .ck.movable, #board .pilerect.source"


def wait_my_move(page: Page, timeout: float = 15000) -> None:
    page.wait_for_selector(MOVABLE, timeout=timeout)


def loc_of(page: Page, selector: str) -> int:
    return int(page.locator(selector).first.evaluate("e => e.closest('[data-loc]').getAttribute('data-loc')"))


def click_loc(page: Page, loc: int) -> None:
    """Tap a point, the bar or the tray by its location number."""
    target = page.locator(f"#board [data-loc='{loc}'] .hit, #board [data-loc='{loc}'] .trayrect").first
    try:
        target.click(force=True, timeout=5000)
    except PlaywrightError:
        # The board was drawn anew under the pointer (a message arrived, online): tap the new one.
        page.wait_for_timeout(200)
        target.click(force=True)


# In the scripts below that read the screen in one call: whether a control is lit, visible as
# Playwright counts it (a box of some size, not hidden by style) and enabled.
LIT = """const lit = (b) => {
    const box = b.getBoundingClientRect();
    return !b.disabled && box.width > 0 && box.height > 0 && getComputedStyle(b).visibility !== "hidden";
  };"""

# In those scripts: whether the app rolls by itself when ``acts`` (the controls lit) show a roll, as
# it does where its player chose so (the default) and there is no cube to turn first. A tap on
# the roll button then finds it gone, and waits out its whole timeout.
ROLLS_ITSELF = """const rollsItself = (acts) => acts.includes("roll") && !acts.includes("double")
    && JSON.parse(localStorage.getItem("table.settings") || "{}").autoRoll !== false;"""

# The controls lit now, by their actions (``acts``), with ``lit`` and ``rollsItself`` beside them.
ACTS = LIT + ROLLS_ITSELF + """
  const acts = [...document.querySelectorAll("#controls [data-act]")].filter(lit).map((b) => b.dataset.act);"""


def await_roll(page: Page, by_itself: bool, timeout: float = 5000) -> bool:
    """Roll: tap the button, or, where the app rolls ``by_itself``, wait for it to (and tap if it
    has not within a few seconds); whether the roll was made (the state may move on meanwhile)."""
    roll = page.locator("#controls [data-act=roll]")
    if by_itself:
        try:
            roll.wait_for(state="hidden", timeout=3000)
            return True
        except PlaywrightError:
            pass
    try:
        roll.click(timeout=timeout)
    except PlaywrightError:
        return False
    return True


# Where a move by taps stands, read in one call (each Playwright query is a round trip, and a
# whole game taps hundreds of times): done (the confirm button lit), a checker or pile picked up,
# the first lit one and the first lit destination (null when none): its location, and where on
# the screen ``click_loc`` would tap it (null when that is out of the window).
_TAPS = """() => {
  """ + LIT + """
  const confirm = document.querySelector("#controls [data-act=confirm]");
  const spot = (sel) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const loc = Number(e.closest("[data-loc]").getAttribute("data-loc"));
    const r = document.querySelector(`#board [data-loc='${loc}'] .hit, #board [data-loc='${loc}'] .trayrect`)
      .getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const seen = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
    return { loc, at: seen ? [x, y] : null };
  };
  return { done: !!confirm && lit(confirm),
    picked: !!document.querySelector("#board .ck.selected, #board .pilerect.picked"),
    source: spot("#board .ck.movable, #board .pilerect.source"),
    target: spot("#board .target, #board .trayrect.lit") };
}"""


def _tap(page: Page, spot: dict) -> None:
    """Tap a spot ``_TAPS`` found: at its place on the screen, the way ``click_loc`` taps it,
    without asking for the element again (a round trip less on each of a game's many taps)."""
    if spot["at"] is None:
        click_loc(page, spot["loc"])
    else:
        page.mouse.click(*spot["at"])


def play_by_clicks(page: Page, wait_ms: float = 20000) -> None:
    """Make a whole legal move by tapping a lit checker, then a lit destination, until done;
    a checker or destination not lit within ``wait_ms`` is a Playwright timeout (online, a new
    state may have come meanwhile: the caller looks again)."""
    for _ in range(8):
        at = page.evaluate(_TAPS)
        if at["done"]:
            return
        if not at["picked"]:
            if at["source"] is None:
                page.wait_for_selector(MOVABLE, timeout=wait_ms)
                at = page.evaluate(_TAPS)
            _tap(page, at["source"])
            at = page.evaluate(_TAPS)
        if at["target"] is None:
            page.wait_for_selector("#board .target, #board .trayrect.lit", timeout=wait_ms)
            at = page.evaluate(_TAPS)
        _tap(page, at["target"])
    raise AssertionError("the move did not complete")


def download_record(page: Page, kind: str) -> str:
    """The finished game's record of ``kind`` (``mat``, ``json``) from its export panel, the
    result shown over the board closed first."""
    if page.locator("#dlg-result[open]").count():
        page.locator("#dlg-result button").click()
    page.click("#btn-export")
    with page.expect_download() as caught:
        page.locator(f"#learn-panel a[data-kind={kind}]").click()
    return caught.value.path().read_text(encoding="utf-8")


def start_easy_game(page: Page) -> None:
    """Open the app and start a single game against the easy computer, up to our first move."""
    open_app(page)
    new_game(page, mode="computer", level="easy", cube=False)
    wait_my_move(page)
