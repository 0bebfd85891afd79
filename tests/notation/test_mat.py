"""The .mat match format: GNU Backgammon's own output, our layout, round trips, bad records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from table.errors import RecordError
from table.match import AcceptResignation, Match, Move, OpeningRoll, Phase, Resign, Roll
from table.notation.mat import MatEntry, MatGame, MatRecord, format_mat, parse_mat

from tests.notation.helpers import needs_gnubg, resigning_after_rolling, through_gnubg

GNUBG_3PT = (Path(__file__).parent / "data" / "gnubg_3pt.mat").read_text()
# Written by GNU Backgammon 1.07 ("export match mat"): two human players, manual dice;
# root rolls 64 and resigns a single game instead of playing it.
GNUBG_RESIGNED_AFTER_ROLLING = (Path(__file__).parent / "data" / "gnubg_resign_after_roll.mat").read_text()


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


def _games_part(text: str) -> list[str]:
    """The lines from the match length on, without trailing blanks (headers differ by writer)."""
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return lines[next(i for i, line in enumerate(lines) if line.endswith("point match")):]


def test_resignation_after_rolling_is_read_and_written_as_gnu_backgammon_does() -> None:
    m = Match.from_mat(GNUBG_RESIGNED_AFTER_ROLLING)
    assert m.actions == (OpeningRoll((3, 1)), Move("8/5 6/5"), Roll((6, 4)), Resign(1),
                         AcceptResignation())
    assert m.score == (1, 0) and m.results[0].how == "resign"
    assert _games_part(m.to_mat()) == _games_part(GNUBG_RESIGNED_AFTER_ROLLING)


def test_resigned_rolls_with_one_legal_play_read_back_however_they_are_written() -> None:
    m, count = resigning_after_rolling(forced=True)
    assert count
    text = m.to_mat()
    assert Match.from_mat(text).actions == m.actions
    # GNU Backgammon reads a roll with no move but a single legal play as that play, and
    # writes it back so: the roll's player, not the one to act after it, still resigned.
    record = parse_mat(text)
    games = []
    for game in record.games:
        entries = list(game.entries)
        for i, e in enumerate(entries[:-1]):
            if e.kind == "roll" and not e.move and entries[i + 1].kind == "win":
                state = next(s for s, a in m.history if isinstance(a, Resign)
                             and s.dice == e.dice and s.game_number == game.number)
                (play,) = state.position.legal_plays(state.dice)
                entries[i] = MatEntry(e.player, "roll", e.dice, " ".join(
                    f"{a}/{b}{'*' if hit else ''}" for (a, b), hit in zip(play.steps, play.hits)))
        games.append(MatGame(game.number, game.score, tuple(entries)))
    filled = format_mat(MatRecord(record.length, record.players, tuple(games), record.headers))
    assert filled != text
    assert Match.from_mat(filled).actions == m.actions


def test_a_roll_left_unplayed_needs_the_opponents_win_after_it() -> None:
    lines = GNUBG_RESIGNED_AFTER_ROLLING.splitlines()
    with pytest.raises(RecordError, match="line 7: the roll 6-4 must be played"):
        Match.from_mat("\n".join(lines[:7]) + "\n")  # no result after it
    with pytest.raises(RecordError, match="line 7: the roll 6-4 must be played"):
        Match.from_mat("\n".join(lines[:7] + ["                                  Wins 1 point"]) + "\n")


@needs_gnubg
@pytest.mark.parametrize("forced", [False, True])
def test_gnu_backgammon_imports_our_resignations_after_rolling(tmp_path: Path, forced: bool) -> None:
    m, count = resigning_after_rolling(forced)
    assert count
    again = Match.from_mat(through_gnubg(m.to_mat(), "mat", tmp_path))
    assert again.score == m.score and again.results == m.results
    assert again.actions == m.actions


@needs_gnubg
def test_gnu_backgammon_imports_our_record_with_the_same_games(tmp_path: Path) -> None:
    m = _random_match(21)
    again = Match.from_mat(through_gnubg(m.to_mat(), "mat", tmp_path))
    assert again.score == m.score and again.results == m.results
    assert again.actions == Match.from_mat(m.to_mat()).actions
