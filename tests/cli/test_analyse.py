"""``table analyse``: the review in the terminal, as JSON, and its refusals."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from table.bot import Bot
from table.cli import main
from table.cli.analyse import Report
from table.match import Match, Move, OpeningRoll, Phase, Roll

DATA = Path(__file__).parent.parent / "notation" / "data"
MAT = str(DATA / "gnubg_3pt.mat")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analyse", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _blundered_record(tmp_path: Path) -> tuple[Path, str]:
    """A money game of the 1-ply bot's best plays, but the worst play on the third turn."""
    bot = Bot("medium", depth=1)
    m = Match(length=0, cube=False, jacoby=False, seed=2, players=("Ana", "Dan"))
    m.apply(OpeningRoll())
    turn, planted = 0, ""
    while turn < 4:
        if m.phase == Phase.ROLL:
            m.apply(Roll())
            continue
        assert m.dice is not None
        ranked = bot.ranked_plays(m.position, m.dice)
        turn += 1
        # Turn 3 is the planted blunder: the worst play, when it loses a lot.
        if turn == 3 and ranked[0][1] - ranked[-1][1] > 0.5:
            planted = str(ranked[-1][0])
        m.apply(Move(planted if turn == 3 and planted else str(ranked[0][0])))
    assert planted, "the third turn of this seed has no clear blunder; pick another seed"
    path = tmp_path / "blunder.mat"
    path.write_text(m.to_mat(), encoding="utf-8")
    return path, planted


def test_the_text_review_names_the_planted_blunder(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, planted = _blundered_record(tmp_path)
    code, out, _ = _run(capsys, str(path), "--lang", "en")
    assert code == 0
    lines = [line for line in out.splitlines() if line.lstrip().startswith("??")]
    assert len(lines) == 1 and "move  3" in lines[0] and planted in lines[0]
    assert re.search(r"blunders: 1\b", out)


def test_the_romanian_review_uses_romanian_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, MAT, "--depth", "0", "--lang", "ro")
    assert code == 0
    assert out.startswith("Analiza partidei gnubg contra root, partidă la 3 puncte")
    assert "Totaluri" in out and "rata erorilor" in out and "noroc: " in out
    # Romanian decimals take a comma.
    assert re.search(r"rata erorilor \d+,\d ", out)
    assert "Total" not in out.replace("Totaluri", "")


def test_the_english_review_lists_both_players_totals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, MAT, "--depth", "0", "--lang", "en")
    assert code == 0
    rates = re.findall(r"^(\w+): error rate (\d+\.\d) \(([a-z ]+)\)", out, re.M)
    assert [name for name, _, _ in rates] == ["gnubg", "root"]
    words = {"supernatural", "world class", "expert", "advanced", "intermediate", "beginner"}
    assert all(word in words for _, _, word in rates)
    assert "Game 1" in out and "Game 2" in out


def test_json_output_is_the_review_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, MAT, "--depth", "0", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["players"] == ["gnubg", "root"] and data["depth"] == 0
    assert len(data["totals"]) == 2
    for t in data["totals"]:
        losses = [d["loss"] for d in data["decisions"] if d["player"] == data["players"].index(t["name"])]
        assert t["decisions"] == len(losses)
        assert t["error_rate"] == pytest.approx(1000 * sum(losses) / len(losses), abs=1e-3)


def test_sgf_gives_the_same_review_as_mat(capsys: pytest.CaptureFixture[str]) -> None:
    _, from_mat, _ = _run(capsys, MAT, "--depth", "0", "--json")
    _, from_sgf, _ = _run(capsys, str(DATA / "gnubg_3pt.sgf"), "--depth", "0", "--json")
    a, b = json.loads(from_mat), json.loads(from_sgf)
    assert [d["played"] for d in a["decisions"]] == [d["played"] for d in b["decisions"]]
    assert a["totals"][0]["error_rate"] == b["totals"][0]["error_rate"]


@pytest.mark.parametrize("content, argv, message", [
    (None, [], "cannot read"),
    ("garbage\n", [], "line 1"),
    ("(;FF[4]GM[1]\n", [], ""),
    (" 3 point match\n Game 1\n a : 0   b : 0\n  1)  31: 8/5 6/5\n", ["--depth", "7"], "--depth"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          content: str | None, argv: list[str],
                                          message: str) -> None:
    path = tmp_path / "match.mat"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = _run(capsys, str(path), *argv)
    assert code == 2 and out == ""
    assert err.startswith("table: error: ") and err.count("\n") == 1 and message in err


def test_romanian_match_lengths_agree_with_their_number() -> None:
    report = Report("ro", io.StringIO())
    assert [report.points(n) for n in (1, 3, 19, 21)] == ["1 punct", "3 puncte", "19 puncte", "21 de puncte"]
