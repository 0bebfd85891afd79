"""The command line's promises: ``--version``, and every bad argument is one line with status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

import table
from table.cli import main


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("table: error: ")
    return err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"table {table.__version__}\n"


@pytest.mark.parametrize(("argv", "message"), [
    ([], "the following arguments are required: COMMAND"),
    (["fly"], "invalid choice: 'fly'"),
    (["play", "--length", "x"], "play: argument --length: invalid int value: 'x'"),
    (["play", "--computer", "genius"], "play: argument --computer: invalid choice: 'genius'"),
    (["moves", "4HPwATDgc/ABMA"], "moves: the following arguments are required: dice"),
    (["bench", "movegen", "--positions"], "expected one argument"),
    (["play", "--length", "65"], "a match is 1 to 64 points, or 0 for money play; got 65"),
])
def test_bad_arguments_are_one_line(argv: list[str], message: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in _one_line_error(capsys)


def _no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server must not start")

    monkeypatch.setattr(uvicorn, "run", refuse)


@pytest.mark.parametrize(("port", "message"), [
    ("99999", "port 99999 does not exist: use 1 to 65535"),
    ("0", "port 0 does not exist: use 1 to 65535"),
    ("-1", "port -1 does not exist"),
    ("http", "port 'http' is not a number"),
])
def test_serve_refuses_a_port_that_does_not_exist(port: str, message: str,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _no_server(monkeypatch)
    assert main(["serve", "--port", port]) == 2
    assert f"serve: argument --port: {message}" in _one_line_error(capsys)


@pytest.mark.parametrize("form", ["{}", "sqlite:///{}"])
def test_serve_refuses_a_database_in_a_missing_folder(form: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    _no_server(monkeypatch)
    missing = tmp_path / "no" / "such"
    assert main(["serve", "--db", form.format(missing / "games.sqlite3")]) == 2
    assert f"the folder {missing} does not exist" in _one_line_error(capsys)
    assert not (tmp_path / "no").exists()


def test_serve_refuses_a_folder_as_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _no_server(monkeypatch)
    assert main(["serve", "--db", str(tmp_path)]) == 2
    assert f"{tmp_path} is a folder; name a file in it" in _one_line_error(capsys)


@pytest.mark.parametrize(("argv", "message"), [
    (["--workers", "2"], "--workers above 1 needs --redis URL and a PostgreSQL --db"),
    (["--workers", "0"], "--workers 0: use 1 to 64"),
    (["--workers", "many"], "--workers 'many' is not a number"),
    (["--redis", "redis://127.0.0.1:1/0"], "--redis needs --db postgresql://"),
    (["--redis", "127.0.0.1:6379", "--db", "postgresql://u@h/db"], "is not a Redis URL such as redis://"),
    (["--redis-prefix", "site one"], "--redis-prefix 'site one': use 1 to 32 letters, digits, _ or -"),
    (["--redis-prefix", "x" * 33], "use 1 to 32 letters"),
])
def test_serve_refuses_workers_without_a_shared_database_and_redis(argv: list[str], message: str,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _no_server(monkeypatch)
    assert main(["serve", *argv]) == 2
    assert message in _one_line_error(capsys)
