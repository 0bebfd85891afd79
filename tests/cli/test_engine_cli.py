"""``table show``, ``table moves`` and the command line's error handling."""

from __future__ import annotations

import subprocess
import sys

import pytest

from table.cli import main


def test_show_draws_the_board_with_pips(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "4HPwATDgc/ABMA"]) == 0
    out = capsys.readouterr().out
    assert "pips 167" in out and "BAR" in out and "4HPwATDgc/ABMA" in out


def test_moves_lists_every_play_with_its_position_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "4HPwATDgc/ABMA", "3-1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "16 legal plays with 3-1:"
    assert len(lines) == 17
    assert any(line.split() == ["8/5", "6/5", "sGfwATDgc/ABMA"] for line in lines)


def test_moves_when_nothing_can_be_played(capsys: pytest.CaptureFixture[str]) -> None:
    # Mover on the bar against a closed board.
    from table import Position

    closed = {25 - p: 2 for p in range(19, 25)}
    closed[13] = 3
    pid = Position.from_checkers({25: 1, 13: 14}, closed).id
    assert main(["moves", pid, "66"]) == 0
    assert "turn passes" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "nonsense"], "not a Position ID"),
        (["moves", "4HPwATDgc/ABMA", "72"], "each die is 1 to 6"),
        (["moves", "4HPwATDgc/ABMA", "x"], "cannot read dice"),
    ],
)
def test_bad_arguments_give_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("table: error:") and message in err
    assert len(err.splitlines()) == 1


def test_console_script_help_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "table", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "show" in result.stdout and "moves" in result.stdout and "bench" in result.stdout


def test_show_a_variants_start_with_its_position_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--variant", "nackgammon"]) == 0
    out = capsys.readouterr().out
    # GNU Backgammon's start for `set variation nackgammon`.
    assert "Position ID: 4Dl4ADbgOXgANg (Nackgammon)" in out and "pips 194" in out
    assert main(["show"]) == 0
    assert "Position ID: 4HPwATDgc/ABMA\n" in capsys.readouterr().out


def test_moves_of_a_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "4Dl4ADbgOXgANg", "66", "--variant", "nackgammon"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # GNU Backgammon lists three plays of 6-6 from Nackgammon's start.
    assert lines[0] == "3 legal plays with 6-6:"
    assert {line.split()[-1] for line in lines[1:]} >= {"4L0DADbgOXgANg"}


def test_an_unknown_variant_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--variant", "grasshopper"]) == 2  # Plakoto is shown (test_play_greek)
    assert "invalid choice: 'grasshopper'" in capsys.readouterr().err
