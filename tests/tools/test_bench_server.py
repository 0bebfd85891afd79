"""The measuring command runs, and the app's own files stay within the size budget."""

from __future__ import annotations

from table.cli import main
from table.tools.bench.server import app_size, measure


def test_app_size_budget():
    size = app_size()
    # The client now holds online play, learning and standings; what matters on a phone is
    # the compressed download.
    assert 10_000 < size["html_js_css"] <= 256 * 1024
    # 65,203 bytes before the Greek games' board, form and Tavli match (6 December 2026), 68,548 after.
    assert size["html_js_css_gzip"] <= 72 * 1024


def test_measure_plays_real_moves(tmp_path):
    times = measure(4, tmp_path)
    assert len(times["move"]) == 4 and len(times["roll"]) >= 2
    assert all(t > 0 for t in times["move"])


def test_main_prints_figures(capsys):
    assert main(["bench", "server", "--moves", "3", "--runs", "1", "--bot-moves", "2"]) == 0
    out = capsys.readouterr().out
    assert "HTML+JS+CSS" in out and "median of run medians" in out
    assert out.count("computer reply") == 3
