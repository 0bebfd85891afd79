"""``table play`` driven by scripted keyboard input."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from table.cli import main
from table.cli.play import run
from table.match import Match, Move, OpeningRoll


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = dict(length=1, no_cube=False, seed=5, record=None,
                                   players=["Anca", "Bogdan"], lang="en", computer=None,
                                   variant="standard")
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
    assert "Opening roll" in out and "Score: Anca: 0, Bogdan: 0" in out
    # Two people at one keyboard: the board is drawn from the side of the one to play.
    assert f"X {names[starter]}: 167 pips" in out
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
    # The one who must answer sees the board from their own side, marked as such.
    answering = [line for line in out.splitlines() if line.endswith(" (to answer)")]
    assert answering and answering[0].startswith(f"X {['Anca', 'Bogdan'][starter]}: ")


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
    assert "Scor: Jucătorul 1: 0, Jucătorul 2: 0 (partidă la 3 puncte)" in out
    assert "Cubul: 1, la mijloc" in out and "Partida a fost întreruptă." in out
    assert ", ai dat " in out and ": 167 de pipuri, scoase: 0, pe bară: 0" in out
    # The prompts teach the Romanian commands, which work.
    assert "dublez, abandon [simplu|marț|triplu], sfat, ? (ajutor), ieși" in out
    assert "sfat, listă = mutările posibile" in out


def test_command_line_entry(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--length", "3", "--seed", "2", "--no-cube", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "match to 3 points" in out and "Cube:" not in out


def test_against_the_computer_it_announces_its_actions() -> None:
    # Find a seed where the computer (second seat) wins the opening roll.
    seed = next(s for s in range(50) if _opening(s)[0] == 1)
    out = _play(["quit"], computer="easy", players=None, seed=seed)
    assert "Computer (easy) rolled " in out and " and plays " in out
    assert "Score: You: 0, Computer (easy): 0" in out


def test_the_computer_plays_a_whole_match_against_itself() -> None:
    from table.cli.play import ComputerAgent, play_match
    from table.cli.terminal import Terminal

    out = io.StringIO()
    term = Terminal("ro", io.StringIO(""), out)
    m = Match(3, seed=11, players=("Ana", "Bot"))
    play_match(m, (ComputerAgent("medium", term), ComputerAgent("easy", term)), term)
    assert m.is_over and max(m.score) >= 3
    text = out.getvalue()
    assert " și a mutat " in text and "câștigă partida" in text


def test_a_roll_that_cannot_be_played_passes_by_itself() -> None:
    from table.cli.play import HumanAgent
    from table.cli.terminal import Terminal
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


# --- Against the computer: the person's side of the board -------------------------------

EDGE = "+-------------------+---+-------------------+"


def _computer_starts(level: str = "medium") -> int:
    return next(s for s in range(50) if _opening(s)[0] == 1)


def _person_starts() -> int:
    return next(s for s in range(50) if _opening(s)[0] == 0)


def _human_vs_computer(lines: list[str], seed: int, lang: str = "en") -> tuple[Match, str]:
    """Play through ``play_match`` with the person in seat 0; return the match and the output."""
    from table.cli.play import Advisor, ComputerAgent, HumanAgent, play_match
    from table.cli.terminal import QuitMatch, Terminal

    out = io.StringIO()
    term = Terminal(lang, io.StringIO("\n".join(lines) + "\n"), out, seat=0)
    m = Match(3, seed=seed, players=("You", "Computer (medium)"))
    try:
        play_match(m, (HumanAgent(term, Advisor("medium", term)), ComputerAgent("medium", term)), term)
    except QuitMatch:
        pass
    return m, out.getvalue()


def test_the_board_is_always_drawn_from_the_persons_side() -> None:
    m, out = _human_vs_computer(["", "", "", "quit"], _computer_starts())
    sides = [line for line in out.splitlines() if line.startswith(("X ", "O "))]
    assert sides and all(line.startswith("X You:") for line in sides[::2])
    assert all(line.startswith("O Computer (medium):") for line in sides[1::2])
    # The board the person sees after the computer's move is the person's own view.
    boards = out.split(EDGE + "\n  12 11 10")
    assert len(boards) > 2


def test_the_computers_dice_and_move_are_shown_in_the_persons_numbers() -> None:
    from table.rules.movetext import as_seen_by_opponent

    m, out = _human_vs_computer(["quit"], _computer_starts())
    opening = m.history[0][1]
    assert isinstance(opening, OpeningRoll)
    computer_move = m.actions[1]
    assert isinstance(computer_move, Move) and m.history[1][0].dice is not None
    d1, d2 = m.history[1][0].dice
    shown = as_seen_by_opponent(computer_move.play)
    assert f"Computer (medium) rolled {d1}-{d2} and plays {shown}." in out
    # Each checker the computer moved goes to a higher number on the person's side.
    for word in shown.split():
        points = [int(p.rstrip("*")) for p in word.split("(")[0].split("/") if p.rstrip("*").isdigit()]
        assert points == sorted(points)


def test_one_board_per_turn() -> None:
    # The person opens, the computer replies, the person rolls (and maybe dances) and quits.
    seed = _person_starts()
    _, plays = _opening(seed)
    m, out = _human_vs_computer([plays[0], "", "quit"], seed)
    turns = sum(isinstance(a, Move) for a in m.actions) + 1  # each finished turn ends in a move
    assert turns >= 3
    assert out.count(EDGE) == 2 * turns


def test_hint_gives_the_bots_ranked_plays_with_equities() -> None:
    from table.bot import Bot
    from table.cli.play import HINT_PLAYS

    seed = _person_starts()
    _, out = _human_vs_computer(["hint", "quit"], seed)
    m = Match(3, seed=seed)
    m.apply(OpeningRoll())
    assert m.dice is not None
    best = Bot("medium").analyse_plays(m.position, m.dice)
    advice = out.split("Advice (medium)")[1]
    lines = [line for line in advice.splitlines() if line.strip()[:2] in {f"{k}." for k in range(1, 10)}]
    assert len(lines) == min(HINT_PLAYS, len(best))
    play, e = best[0]
    assert lines[0].split()[1:1 + len(str(play).split())] == str(play).split()
    assert f"equity {e.equity:+.3f}".replace("-", "−") in lines[0] and f"win {100 * e.win:.1f}%" in lines[0]


def test_hint_before_rolling_gives_the_cube_advice() -> None:
    # The person opens; after the computer's reply the person may double.
    seed = _person_starts()
    _, plays = _opening(seed)
    _, out = _human_vs_computer([plays[0], "hint", "quit"], seed)
    advice = [line.removeprefix("> ") for line in out.splitlines() if "Advice (medium)" in line]
    assert advice[0].startswith(("Advice (medium): double.", "Advice (medium): do not double"))
    assert "Your chances to win the match: no double " in advice[0]
    assert "double and take" in advice[0] and "%" in advice[0]


def test_hint_on_a_double_says_take_or_drop() -> None:
    from table.cli.play import Advisor
    from table.cli.terminal import Terminal

    m = Match(5, seed=_person_starts())
    m.apply(OpeningRoll())
    m.apply(next(a for a in m.legal_actions() if isinstance(a, Move)))
    from table.match import Double

    m.apply(Double())
    out = io.StringIO()
    term = Terminal("en", io.StringIO(""), out, seat=0)
    Advisor("medium", term).advise(m)
    text = out.getvalue()
    assert text.startswith(("Advice (medium): take.", "Advice (medium): drop."))
    assert "Your chances to win the match: take " in text and "%, drop " in text


# --- Saving the record -----------------------------------------------------------------


def test_record_into_a_missing_folder_fails_before_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    target = tmp_path / "missing" / "m.mat"
    assert main(["play", "--record", str(target), "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no board, no prompt: nothing was played
    assert captured.err.strip() == (f"table: error: --record {target}: the folder "
                                    f"{target.parent} does not exist")


def test_record_naming_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--record", str(tmp_path)]) == 2
    assert "that is a folder" in capsys.readouterr().err


def test_a_failed_save_prints_the_record_instead_of_losing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, plays = _opening(5)
    path = tmp_path / "out.mat"

    def refuse(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", refuse)
    out = _play([plays[0], "resign", "accept"], record=path)
    assert f"Could not save the match to {path} (No space left on device)" in out
    record = out.split("copy it:\n")[1]
    assert Match.from_mat(record).is_over


# --- Romanian, second person -----------------------------------------------------------


def test_romanian_speaks_to_the_person_in_the_second_person() -> None:
    from table.cli.play import HumanAgent, play_match
    from table.cli.terminal import Terminal

    seed = _person_starts()
    _, plays = _opening(seed)
    out = io.StringIO()
    # Seat 0 is the person; after the person's opening move the other seat (scripted
    # here) resigns and the person accepts.
    lines = [plays[0], "resign", "accept"]
    term = Terminal("ro", io.StringIO("\n".join(lines) + "\n"), out, seat=0)
    m = Match(1, seed=seed, players=("Tu", "Ana"))
    human = HumanAgent(term)
    play_match(m, (human, human), term)
    text = out.getvalue()
    assert "Începi tu, cu " in text and "> Ai dat " not in text  # the person opened
    assert "Ana abandonează și îți oferă un joc simplu (1 punct). Accepți sau refuzi? (accept / refuz)" in text
    assert "Ai câștigat jocul: abandon acceptat, 1 punct." in text
    assert "Ai câștigat partida cu 1-0!" in text


@pytest.mark.parametrize(("lang", "n", "text"), [
    ("ro", 0, "0 puncte"), ("ro", 1, "1 punct"), ("ro", 2, "2 puncte"), ("ro", 19, "19 puncte"),
    ("ro", 20, "20 de puncte"), ("ro", 21, "21 de puncte"), ("ro", 64, "64 de puncte"), ("ro", 100, "100 de puncte"),
    ("ro", 101, "101 puncte"), ("ro", 119, "119 puncte"), ("ro", 120, "120 de puncte"),
    ("en", 1, "1 point"), ("en", 4, "4 points"), ("en", 21, "21 points"),
])
def test_points_are_grammatical(lang: str, n: int, text: str) -> None:
    from table.cli.terminal import Terminal

    assert Terminal(lang, io.StringIO(), io.StringIO()).points(n) == text


def test_every_message_exists_in_both_languages_with_the_same_fields() -> None:
    import string

    from table.cli.terminal import MESSAGES

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    optional = {"points_few", "pips_few", "plays_few"}  # Romanian's third form: "2 puncte" beside "20 de puncte"
    assert set(MESSAGES["en"]) == set(MESSAGES["ro"]) - optional
    for key, en in MESSAGES["en"].items():
        assert fields(en) == fields(MESSAGES["ro"][key]), key


def test_romanian_explains_a_refused_move_in_romanian() -> None:
    _, plays = _opening(5)
    out = _play(["24/1", "foo", "", "double", "take", "quit"], lang="ro", length=3)
    assert "Nu se poate: punctul 1 este închis: îl ține adversarul" in out
    assert "Nu se poate: nu am înțeles mutarea: scrie-o ca 13/7 8/7" in out
    assert "Nu se poate: poți dubla doar la rândul tău, înainte să arunci" in out
    assert "Nu se poate: nu ai nicio dublare la care să răspunzi" in out
    assert "Nu am înțeles „”" not in out  # an empty line just asks again
    assert "is not" not in out and "cannot" not in out


def test_every_romanian_reason_fills_its_template() -> None:
    import re

    from table.cli.terminal import _REASONS_RO

    for pattern, template in _REASONS_RO:
        groups = re.compile(pattern).groups
        used = {int(n) for n in re.findall(r"\{(\d+)\}", template)}
        assert used == set(range(groups)), (pattern, template)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_terminal_game_survives_any_input(seed: int) -> None:
    """Random commands, legal and not, until a match against the computer ends."""
    import random

    from table.cli.play import Advisor, ComputerAgent, HumanAgent, Terminal, play_match

    rng = random.Random(seed)
    m = Match(3, seed=seed, players=("You", "Computer"))
    words = ["hint", "list", "?", "", "double", "take", "drop", "accept", "reject", "resign",
             "resign gammon", "resign x", "fly", "24/1", "bar/20", "dublez", "da", "nu"]

    class Keyboard(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            moves = [a.play for a in m.legal_actions() if isinstance(a, Move)]
            if moves and rng.random() < 0.6:
                return rng.choice(moves) + "\n"
            return rng.choice(words) + "\n"

    out = io.StringIO()
    term = Terminal(rng.choice(["en", "ro"]), Keyboard(), out, seat=0)
    play_match(m, (HumanAgent(term, Advisor("medium", term)), ComputerAgent("medium", term)), term)
    assert m.is_over
    text = out.getvalue()
    assert "Traceback" not in text and ("wins the match" in text or "partida cu" in text
                                        or "win the match" in text)


def test_hint_with_a_number_lists_that_many_plays() -> None:
    seed = _person_starts()
    _, out = _human_vs_computer(["hint 2", "hint 50", "quit"], seed)
    m = Match(3, seed=seed)
    m.apply(OpeningRoll())
    total = sum(isinstance(a, Move) for a in m.legal_actions())
    titles = [line for line in out.splitlines() if "Advice (medium), best" in line]
    assert f"best 2 of {total} plays" in titles[0] and f"best {total} of {total} plays" in titles[1]


def test_hint_against_an_easy_computer_still_comes_from_the_strongest_level(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Ușor plays weakly on purpose; its advice must not.
    seed = _person_starts()
    monkeypatch.setattr("sys.stdin", io.StringIO("\nhint 1\nquit\n"))
    main(["play", "--computer", "easy", "--length", "3", "--seed", str(seed), "--lang", "en"])
    out = capsys.readouterr().out
    assert "Advice (hard)" in out and "Advice (easy)" not in out


def test_rolls_are_written_high_die_first(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    rolls: list[tuple[str, str]] = []
    for seed in range(12):
        monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 6 + "quit\n"))
        main(["play", "--computer", "easy", "--length", "3", "--seed", str(seed), "--lang", "en",
              "--no-cube"])
        rolls += re.findall(r"rolled (\d)-(\d)", capsys.readouterr().out)
    assert len({a != b for a, b in rolls}) == 2, rolls  # doubles and non-doubles were both seen
    assert all(int(a) >= int(b) for a, b in rolls), rolls


def test_the_status_and_the_sides_count_in_words() -> None:
    from table.cli.play import Terminal, _status, draw

    for length, words in ((1, "partidă la 1 punct"), (19, "partidă la 19 puncte"), (21, "partidă la 21 de puncte")):
        out = io.StringIO()
        _status(Match(length, seed=1, players=("Ana", "Ion")), Terminal("ro", io.StringIO(), out))
        assert f"Scor: Ana: 0, Ion: 0 ({words})" in out.getvalue()
    out = io.StringIO()
    draw(Match(3, seed=1, players=("Ana", "Ion")), Terminal("ro", io.StringIO(), out), 0)
    assert "X Ana: 167 de pipuri, scoase: 0, pe bară: 0" in out.getvalue()


def test_the_hint_counts_the_plays_in_words() -> None:
    from table.cli.play import Advisor
    from table.cli.terminal import Terminal

    out = io.StringIO()
    m = Match(1, seed=5)
    m.apply(OpeningRoll())
    Advisor("easy", Terminal("ro", io.StringIO(), out)).advise(m, 3)
    text = out.getvalue()
    total = len([a for a in m.legal_actions() if isinstance(a, Move)])
    form = "de mutări" if total >= 20 else "mutări"
    assert f"Sfatul calculatorului (Ușor): primele 3 din {total} {form}, cu echitatea ta fără cub:" in text
    assert "marț dat " in text and "marț luat " in text


def test_a_move_that_does_not_fit_the_dice_is_said_so_in_romanian() -> None:
    from table.cli.play import explain

    starter, plays = _opening(5)
    m = Match(1, seed=5)
    m.apply(OpeningRoll())
    assert m.dice is not None
    wrong = "24/18 13/10" if sorted(m.dice) != [3, 6] else "24/22 13/8"
    out = _play([wrong, "quit"], lang="ro", length=3)
    assert "Nu se poate: mutarea nu se potrivește cu zarurile; de exemplu: " in out
    assert "zaruri, de exemplu" not in out  # not "trebuie jucate 2 zaruri"
    # The fallback does not repeat the "Nu se poate" before it.
    said = explain(ValueError("something the table does not know"), "ro")
    assert said.startswith("mutare nepermisă; scrie listă")


def test_a_nackgammon_match_against_the_computer_runs_to_its_end() -> None:
    # Every turn: roll, then the first legal play the player is offered (list shows them).
    from table.cli.play import ComputerAgent, play_match
    from table.cli.terminal import Terminal
    from table.rules.position import Position

    out = io.StringIO()
    term = Terminal("en", io.StringIO(), out, seat=0)
    m = Match(1, seed=3, players=("Ana", "Computer"), variant="nackgammon")
    assert m.start.position == Position.initial("nackgammon")
    play_match(m, (ComputerAgent("easy", term), ComputerAgent("easy", term)), term)
    assert m.is_over and m.variant.name == "nackgammon"
    text = out.getvalue()
    assert "Nackgammon, match to 1 point" in text and "4Dl4ADbgOXgANg" in text


def test_play_takes_a_variant(capsys: pytest.CaptureFixture[str]) -> None:
    out = _play(["quit"], variant="nackgammon")
    assert "Nackgammon, match to 1 point" in out and "4Dl4ADbgOXgANg" in out
    assert main(["play", "--variant", "grasshopper"]) == 2  # Plakoto and Fevga are played (test_play_greek)
    assert "invalid choice: 'grasshopper'" in capsys.readouterr().err
