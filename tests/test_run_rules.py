"""The suite's own rules: under CI a skipped test fails the run, and elsewhere the run says what skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text(encoding="utf-8")
TESTS = """
import pytest

def test_runs():
    assert True

def test_needs_a_service():
    pytest.skip("the service did not start")
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_example=TESTS)
    return pytester


def test_a_skip_fails_the_run_under_ci(suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist", "-rs")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*1 test(s) SKIPPED*this fails the run under CI*"])


def test_a_skip_is_reported_outside_ci(suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist", "-rs")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*1 test(s) SKIPPED*outside CI this is allowed*"])


def test_no_skip_no_note(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_example="def test_runs():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    assert result.ret == pytest.ExitCode.OK
    assert "SKIPPED" not in result.stdout.str()
