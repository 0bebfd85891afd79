"""Matches built for the record tests."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from table.match import AcceptResignation, Match, Move, Phase, Resign

GNUBG = shutil.which("gnubg") or (Path("/usr/games/gnubg") if Path("/usr/games/gnubg").exists() else None)
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")


def through_gnubg(text: str, kind: str, folder: Path) -> str:
    """``text`` (a ``"mat"`` or ``"sgf"`` record) read by GNU Backgammon and exported by it as .mat."""
    ours = folder / f"ours.{kind}"
    back = folder / "back.mat"
    ours.write_text(text)
    read = f"import mat {ours}" if kind == "mat" else f"load match {ours}"
    subprocess.run([str(GNUBG), "-t", "-q"], input=f"{read}\nexport match mat {back}\nquit\n",
                   text=True, capture_output=True, timeout=300, check=False)
    return back.read_text()


def resigning_after_rolling(forced: bool, seed: int = 0) -> tuple[Match, int]:
    """A 3-point match in which every roll with one legal play (``forced``), or with several,
    is resigned instead of played; also how many such resignations there were.

    Opening rolls are played: GNU Backgammon 1.07 writes an opening roll its roller
    resigned in the left column, whoever rolled it (its own records of that are wrong too).
    """
    m = Match(length=3, seed=seed, players=("Anca", "Bogdan"))
    rng = random.Random(seed)
    count = 0
    while not m.is_over:
        actions = m.legal_actions()
        moves = [a for a in actions if isinstance(a, Move)]
        if (m.phase == Phase.MOVE and m.state.moves_played and moves != [Move("")]
                and (len(moves) == 1) == forced):
            m.apply(Resign(rng.choice([1, 2, 3])))
            m.apply(AcceptResignation())
            count += 1
            continue
        m.apply(rng.choice([a for a in actions if a.kind not in ("resign", "double")]))
    return m, count
