"""The .mat match format: GNU Backgammon's own output, our layout, round trips, bad records."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from table.errors import RecordError
from table.match import Match, Phase
from table.notation.mat import MatEntry, MatGame, MatRecord, format_mat, parse_mat

GNUBG_3PT = (Path(__file__).parent / "data" / "gnubg_3pt.mat").read_text()
GNUBG = shutil.which("gnubg") or (Path("/usr/games/gnubg") if Path("/usr/games/gnubg").exists() else None)


def test_reads_a_match_written_by_gnu_backgammon() -> None:
    m = Match.from_mat(GNUBG_3PT)
    assert m.players == ("gnubg", "root") and m.length == 3
    # Game 1: root drops gnubg's double (1 point).  Game 2: doubled to 4, and
    # root resigns a single game before the end (GNU Backgammon's SGF of this
    # match says RE[W+4R]): 4 points, 5-0.
    assert [(r.winner, r.points, r.how) for r in m.results] == [(0, 1, "drop"), (0, 4, "resign")]
    assert m.score == (5, 0) and m.is_over and m.winner == 0
    assert sum(1 for line in GNUBG_3PT.splitlines() for part in line.split() if part[:2].isdigit()
               and part.endswith(":")) == sum(1 for a in m.actions if a.kind == "move")


def test_layout_matches_gnu_backgammon() -> None:
    record = MatRecord(3, ("Anca", "Bogdan"), (
        MatGame(1, (0, 0), (
            MatEntry(1, "roll", (2, 1), "13/11 24/23"),
            MatEntry(0, "roll", (5, 2), "13/8 24/22"),
            MatEntry(1, "roll", (6, 3), ""),
            MatEntry(0, "double", value=2),
            MatEntry(1, "drop"),
            MatEntry(0, "win", value=1),
        )),
        MatGame(2, (1, 0), (MatEntry(0, "double", value=2), MatEntry(1, "take"),
                            MatEntry(1, "win", value=2))),
    ))
    expected = "\n".join([
        " 3 point match",
        "",
        " Game 1",
        " Anca : 0                       Bogdan : 0",
        "  1)                             21: 13/11 24/23",
        "  2) 52: 13/8 24/22              63:",
        "  3)  Doubles => 2                Drops",
        "      Wins 1 point",
        "",
        " Game 2",
        " Anca : 1                       Bogdan : 0",
        "  1)  Doubles => 2                Takes",
        "                                  Wins 2 points",
        "",
    ])
    assert format_mat(record) == expected
    assert parse_mat(expected) == record.__class__(
        3, ("Anca", "Bogdan"),
        tuple(MatGame(g.number, g.score, tuple(
            MatEntry(e.player, e.kind, e.dice, e.move, e.value, line) for e, line in zip(
                g.entries, lines)), line=gl)
            for g, lines, gl in zip(record.games, [(5, 6, 6, 7, 7, 8), (12, 12, 13)], (3, 10))))


def _random_match(seed: int, length: int = 5) -> Match:
    m = Match(length=length, seed=seed, players=("Anca Pop", "Bogdan"))
    rng = random.Random(seed)
    while not m.is_over:
        actions = m.legal_actions()
        plain = [a for a in actions if a.kind not in ("resign", "double", "drop")]
        m.apply(rng.choice(actions) if rng.random() < 0.05 else rng.choice(plain))
    return m


@pytest.mark.parametrize("seed", range(8))
def test_round_trip_reproduces_every_game_move_and_the_score(seed: int) -> None:
    m = _random_match(seed)
    text = m.to_mat()
    again = Match.from_mat(text)
    assert again.results == m.results and again.score == m.score and again.winner == m.winner
    assert [a for a in again.actions] == [a for a in m.actions if a.kind != "reject_resignation"
                                          and not _rejected_offer(m, a)]
    assert again.to_mat() == text


def _rejected_offer(m: Match, action: object) -> bool:
    actions = m.actions
    return any(a is action and i + 1 < len(actions) and actions[i + 1].kind == "reject_resignation"
               for i, a in enumerate(actions))


def test_money_and_cubeless_settings_survive() -> None:
    m = Match(length=0, cube=False, seed=3)
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    again = Match.from_mat(m.to_mat())
    assert (again.length, again.cube_enabled, again.jacoby) == (0, False, True)
    assert again.phase == Phase.ROLL and again.actions == m.actions


def _replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("line, new, message", [
    (8, "  2) 52: 13/8 24/21              63: 8/5 11/5", "line 8: .*not legal"),
    (8, "  2) 52: 13/8 24/22              63: 8/5 11/5 hello", "line 8"),
    (8, "  2) 77: 13/8 24/22              63: 8/5 11/5", "line 8: 77 is not a roll"),
    (8, "  3) 52: 13/8 24/22              63: 8/5 11/5", "line 8: move number 3 follows 1"),
    (25, " 19)  Doubles => 4                Drops", "line 25: the cube is at 1"),
    (26, "      Wins 2 points", "line 26: the game is worth 1"),
    (29, " gnubg : 0                      root : 0", "line 28: .*score 0-0.*1-0"),
    (25, " 19)                             Doubles => 2", "line 25: it is gnubg's turn"),
    (12, "this is not a move", "line 12: cannot read"),
    (3, " ", "line 5: a game starts before"),
    (7, "  1)                             22: 13/11 24/23", "line 7: the opening roll cannot be a double"),
])
def test_bad_records_are_rejected_naming_the_line(line: int, new: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Match.from_mat(_replace_line(GNUBG_3PT, line, new))


def test_game_before_the_last_must_have_ended() -> None:
    text = _replace_line(_replace_line(GNUBG_3PT, 25, " 19)  Doubles => 2                Takes"), 26, "")
    with pytest.raises(RecordError, match="line 28: game 2 starts, but the game before"):
        Match.from_mat(text)


def test_not_a_mat_record() -> None:
    with pytest.raises(RecordError, match="line 1: cannot read 'hello'"):
        Match.from_mat("hello\n")
    with pytest.raises(RecordError, match="no 'N point match' line"):
        Match.from_mat("; [Site \"x\"]\n")
    with pytest.raises(RecordError):
        Match.from_mat(" 5 point match\n")


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnu_backgammon_imports_our_record_with_the_same_games(tmp_path: Path) -> None:
    m = _random_match(21)
    ours = tmp_path / "ours.mat"
    back = tmp_path / "back.mat"
    ours.write_text(m.to_mat())
    commands = f"import mat {ours}\nexport match mat {back}\nquit\n"
    subprocess.run([str(GNUBG), "-t", "-q"], input=commands, text=True, capture_output=True,
                   timeout=300, check=False)
    again = Match.from_mat(back.read_text())
    assert again.score == m.score and again.results == m.results
    assert again.actions == Match.from_mat(m.to_mat()).actions
