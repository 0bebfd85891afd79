"""``table play`` driven by scripted keyboard input."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from table.cli import main
from table.cli.play import run
from table.match import Match, Move, OpeningRoll


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(length=1, no_cube=False, seed=5, record=None,
                                   players=["Anca", "Bogdan"], lang="en", computer=None)
    base.update(kw)
    return argparse.Namespace(**base)


def _opening(seed: int) -> tuple[int, list[str]]:
    """Who starts with this seed, and the legal plays of the opening roll."""
    m = Match(1, seed=seed)
    m.apply(OpeningRoll())
    return m.on_roll, [a.play for a in m.legal_actions() if isinstance(a, Move)]


def _play(lines: list[str], **kw: object) -> str:
    out = io.StringIO()
    assert run(_args(**kw), stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out) == 0
    return out.getvalue()


def test_a_resigned_one_point_match_is_won_by_the_other_player() -> None:
    starter, plays = _opening(5)
    names = ["Anca", "Bogdan"]
    out = _play([plays[0], "resign", "accept"])
    assert "Opening roll" in out and "X (on roll)" in out and "Score: Anca 0, Bogdan 0" in out
    assert f"{names[starter]} wins the match" in out


def test_question_mark_lists_every_legal_play_and_bad_input_is_explained() -> None:
    _, plays = _opening(5)
    out = _play(["?", "13/1", plays[0], "fly", "double", "quit"], length=5)
    listing = out.split("Legal plays:")[1]
    assert all(f"  {p}\n" in listing for p in plays)
    assert "Not allowed:" in out and "Not understood: 'fly'" in out
    assert "Match stopped." in out


def test_double_and_take_show_the_cube() -> None:
    starter, plays = _opening(5)
    out = _play([plays[0], "double", "take", "quit"], length=5)
    other = ["Anca", "Bogdan"][1 - starter]
    assert f"Cube: 2, owned by {['Anca', 'Bogdan'][starter]}" in out
    assert f"{other} doubles to 2" in out


def test_record_saves_a_mat_file_that_reads_back(tmp_path: Path) -> None:
    _, plays = _opening(5)
    path = tmp_path / "out.mat"
    out = _play([plays[0], "resign gammon", "accept"], record=path)
    assert f"Match saved to {path}" in out
    m = Match.from_mat(path.read_text())
    assert m.is_over and max(m.score) == 2 and m.players == ("Anca", "Bogdan")


def test_end_of_input_stops_the_match_and_still_saves(tmp_path: Path) -> None:
    path = tmp_path / "partial.mat"
    out = _play([], record=path, length=5)
    assert "Match stopped." in out and path.exists()
    assert Match.from_mat(path.read_text()).length == 5


def test_romanian_messages() -> None:
    _, plays = _opening(5)
    out = _play([plays[0], "quit"], lang="ro", players=None, length=3)
    assert "Scor: Jucătorul 1 0, Jucătorul 2 0 (meci la 3 puncte)" in out
    assert "Zarul de dublare: 1, la mijloc" in out and "Meci oprit." in out


def test_command_line_entry(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--length", "3", "--seed", "2", "--no-cube", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "3-point match" in out and "Cube:" not in out


def test_against_the_computer_it_announces_its_actions() -> None:
    # Find a seed where the computer (second seat) wins the opening roll.
    seed = next(s for s in range(50) if _opening(s)[0] == 1)
    out = _play(["quit"], computer="easy", players=None, seed=seed)
    assert "Computer (easy): plays " in out
    assert "Score: You 0, Computer (easy) 0" in out


def test_the_computer_plays_a_whole_match_against_itself() -> None:
    from table.cli.play import ComputerAgent, Terminal, play_match

    out = io.StringIO()
    term = Terminal("ro", io.StringIO(""), out)
    m = Match(3, seed=11, players=("Ana", "Bot"))
    play_match(m, (ComputerAgent("medium", term), ComputerAgent("easy", term)), term)
    assert m.is_over and max(m.score) >= 3
    text = out.getvalue()
    assert "mută " in text and "câștigă meciul" in text


def test_a_roll_that_cannot_be_played_passes_by_itself() -> None:
    from table.cli.play import HumanAgent, Terminal
    from table.match import Move

    # Set up a state where the player on roll is on the bar against a closed board.
    closed = {25 - p: 2 for p in range(19, 25)}
    closed[13] = 3
    from table import Position

    position = Position.from_checkers({25: 1, 13: 14}, closed)
    m = Match.from_ids(position.id, "cAkAAAAAAAAA")
    m.apply(m.legal_actions()[0])  # roll: whatever the dice, nothing enters
    out = io.StringIO()
    action = HumanAgent(Terminal("en", io.StringIO(""), out))(m)
    assert action == Move("")
    assert "cannot move" in out.getvalue()
