"""``table bench movegen``: its own figures always, GNU Backgammon's when it is there."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from table.cli import main

HAVE_GNUBG = shutil.which("gnubg") is not None or Path("/usr/games/gnubg").exists()


def test_movegen_without_gnu_backgammon_prints_its_own_figures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("table.cli.bench._gnubg_movegen", lambda ids, repeat: None)
    assert main(["bench", "movegen", "--positions", "30", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "30 positions (seed 2026) x 21 rolls = 630 pairs" in out
    assert re.search(r"compiled generator: [\d,]+ \(position, roll\) pairs per second", out)
    assert re.search(r"Position.legal_plays \(Python objects\): [\d,]+ pairs per second", out)
    assert "GNU Backgammon: not found" in out


def test_movegen_can_skip_gnu_backgammon(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "movegen", "--positions", "5", "--repeat", "1", "--gnubg-positions", "0"]) == 0
    assert "GNU Backgammon" not in capsys.readouterr().out


@pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon is not installed")
def test_movegen_times_gnu_backgammon_on_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "movegen", "--positions", "10", "--repeat", "1",
                 "--gnubg-positions", "2"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"first 2 positions, 42 pairs, (\d+) plays listed, ours (\d+)\): ([\d,.]+) pairs", out)
    assert found, out
    assert found.group(1) == found.group(2)  # both list every legal play
    assert float(found.group(3).replace(",", "")) > 0
    assert re.search(r"Position.legal_plays on the same pairs: [\d,]+ pairs per second, [\d,]+ times", out)
