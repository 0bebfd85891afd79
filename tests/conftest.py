"""The whole test run lives in a throwaway home: nothing is written to the user's.

GNU Backgammon (``~/.gnubg``), Chromium (``~/.config/chromium``), the bot's
bear-off cache (``~/.cache/table``) and the web app's default database
(``~/.local/share/table``) all follow ``HOME`` and the XDG variables, which
point into a temporary folder for the run; so do ``TMPDIR`` (Chromium's and
Playwright's profiles) and pytest's own ``tmp_path`` folders, and the folder is
removed when the run ends.  The bear-off
database is kept between runs inside the repository (``.pytest_cache``, which
git ignores), as it takes seconds to build.
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_REPO = Path(__file__).resolve().parents[1]
_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
              "TABLE_CACHE_DIR", "TMPDIR")
_saved: dict[str, str | None] = {}
_home: list[Path] = []


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="table-test-home."))
    _home.append(home)
    _saved.update({name: os.environ.get(name) for name in _VARIABLES})
    os.environ["HOME"] = str(home)
    for name, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                      ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state")):
        os.environ[name] = str(home / sub)
    (home / "tmp").mkdir()
    os.environ["TMPDIR"] = tempfile.tempdir = str(home / "tmp")
    if not _saved["TABLE_CACHE_DIR"]:
        os.environ["TABLE_CACHE_DIR"] = str(_REPO / ".pytest_cache" / "table")
    if config.option.basetemp is None:
        config.option.basetemp = str(home / "pytest")


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in _saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    tempfile.tempdir = None  # found again from the restored environment
    for home in _home:
        shutil.rmtree(home, ignore_errors=True)
    _home.clear()


@pytest.fixture(autouse=True)
def _collector_as_it_was():
    """A test that runs ``table serve``'s function in this process settles the collector
    (``table.server.edge.memory.settle_memory``: objects frozen, the oldest generation left to a
    keeper); put it back, so that no later test runs on a collector it did not ask for."""
    threshold = gc.get_threshold()
    yield
    if gc.get_threshold() != threshold:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def _skipped(config: pytest.Config) -> list[pytest.TestReport]:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return list(getattr(reporter, "stats", {}).get("skipped", []))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under CI a skipped test fails the run: a green run must mean that everything ran."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller decides
        return
    if os.environ.get("CI") and _skipped(session.config) and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int,
                            config: pytest.Config) -> None:
    skipped = _skipped(config)
    if skipped:
        verdict = "this fails the run under CI" if os.environ.get("CI") else "outside CI this is allowed"
        terminalreporter.write_line(
            f"{len(skipped)} test(s) SKIPPED, so not everything ran ({verdict}); the reasons are listed "
            "below under 'short test summary info'", red=True, bold=True)
