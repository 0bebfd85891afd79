"""``table bench movegen``: its own figures always, GNU Backgammon's when its Python module is there."""

from __future__ import annotations

import importlib.util
import re
import sys
import types

import pytest

from table import Position
from table.cli import main

HAVE_GNUBG = importlib.util.find_spec("gnubg") is not None


def _figures(out: str) -> dict[str, str]:
    corpus = re.search(r"= (\d+) pairs, (\d+) legal plays", out)
    assert corpus, out
    return {"pairs": corpus.group(1), "plays": corpus.group(2)}


def test_movegen_without_gnu_backgammon_prints_its_own_figures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "gnubg", None)  # import gnubg fails
    assert main(["bench", "movegen", "--positions", "30", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "30 positions (seed 2026) x 21 rolls = 630 pairs" in out
    assert re.search(r"compiled generator: [\d,]+ \(position, roll\) pairs per second", out)
    assert re.search(r"Position.legal_plays \(Python objects\): [\d,]+ pairs per second", out)
    assert "GNU Backgammon" not in out


def test_movegen_compares_with_gnu_backgammons_module_when_importable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A stand-in with the bindings' calls, listing plays with our generator.
    fake = types.ModuleType("gnubg")
    fake.cube_info = lambda: {}  # type: ignore[attr-defined]
    fake.eval_context = lambda *args: {}  # type: ignore[attr-defined]
    fake.position_from_id = Position.from_id  # type: ignore[attr-defined]
    fake.find_best_moves = lambda board, cube, context, dice: board.legal_plays(dice)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gnubg", fake)
    assert main(["bench", "movegen", "--positions", "20", "--repeat", "3"]) == 0
    out = capsys.readouterr().out
    listed = re.search(r"gnubg.find_best_moves \(0-ply, (\d+) plays listed\): [\d,]+ pairs per second", out)
    assert listed and listed.group(1) == _figures(out)["plays"]
    ratio = re.search(r"Position.legal_plays is ([\d.]+) times as fast as GNU Backgammon's "
                      r"\(median of the runs' ratios: ([\d., ]+)\)", out)
    assert ratio and len(ratio.group(2).split(", ")) == 3


@pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon's Python module (pip install gnubg) is absent")
def test_gnu_backgammon_lists_the_same_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "movegen", "--positions", "40", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    listed = re.search(r"\((?:0-ply, )?(\d+) plays listed\)", out)
    assert listed and listed.group(1) == _figures(out)["plays"], out


def test_bad_bench_sizes_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "movegen", "--positions", "0"]) == 2
    assert capsys.readouterr().err.startswith("table: error: --positions and --repeat")
