"""Hypergammon's networks in the browser: the exported files are the shipped weights, and the
browser's evaluator scores its finished games by three checkers a side as Python does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "table" / "web"


def test_exported_hypergammon_weights_are_the_shipped_ones(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "export-web-weights"), "--out", str(tmp_path),
                          "--weights", str(ROOT / "src/table/bot/weights/hypergammon.npz"), "--name", "hypergammon"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "hypergammon.bin").read_bytes() == (WEB / "bot" / "hypergammon.bin").read_bytes(), \
        "src/table/web/bot/hypergammon.* is stale: run scripts/export-web-weights --name hypergammon"
    assert (tmp_path / "hypergammon.json").read_text() == (WEB / "bot" / "hypergammon.json").read_text()


NODE = """
import { finalProbs, tidy } from "%(web)s/js/engine/nn.js";
import { probabilities, build } from "%(web)s/js/engine/bearoff.js";
const b = new Int8Array(26); b[8] = 1; b[7] = 1; b[9] = 1;  // the opponent bore off its three
const out = new Float32Array(5);
const over3 = finalProbs(b, out, 3) && Array.from(out);
const over15 = finalProbs(b, out) && Array.from(out);
const p = new Float32Array([0.5, 0.2, 0.05, 0.2, 0.05]);
const start = new Int8Array(26); start[22] = start[23] = start[24] = 1; start[1] = start[2] = start[3] = -1;
tidy(start, p, 3);
console.log(JSON.stringify({ over3, over15, tidy3: Array.from(p) }));
"""


def test_the_browser_scores_three_checkers_as_python(tmp_path):
    import json

    import numpy as np

    from table.bot.net import final_probs, tidy
    from table.rules.position import Position

    script = tmp_path / "h.mjs"
    script.write_text(NODE % {"web": WEB.as_posix()})
    run = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    over = np.array(Position.from_checkers({8: 1, 7: 1, 9: 1}, {}, variant="hypergammon").board, dtype=np.int8)
    out = np.zeros(5, dtype=np.float32)
    final_probs(over, out, 3)
    assert got["over3"] == out.tolist() == [0, 0, 0, 1, 0]
    final_probs(over, out)
    assert got["over15"] == out.tolist()
    p = np.array([0.5, 0.2, 0.05, 0.2, 0.05], dtype=np.float32)
    tidy(np.array(Position.initial("hypergammon").board, dtype=np.int8), p, 3)
    assert got["tidy3"] == p.tolist()
