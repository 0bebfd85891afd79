"""``table play``, ``show`` and ``moves`` for Plakoto, Fevga, Portes and the Tavli match: two people
at one keyboard or against the computer, with the board showing pins, the Greek opening and the
Tavli rotation said, and the record kept as Table's JSON."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from table.cli import main
from table.cli.play import HumanAgent, RecordPathError, check_record_path, play_match, run, save_record
from table.cli.terminal import QuitMatch, Terminal
from table.errors import MatchSettingsError, VariantError
from table.match import Match, Move, Phase
from table.match.actions import Action
from table.notation.matchid import GameState, MatchInfo, encode_match_id
from table.rules.position import Position

from tests.cli.test_play import _args, _play


def short_player(seed: int):  # type: ignore[no-untyped-def]
    """A seat that rolls and plays the move leaving it the fewest pips (a quick game)."""
    rng = random.Random(seed)

    def agent(m: Match) -> Action:
        if m.phase == Phase.MOVE and m.dice is not None:
            plays = m.position.legal_plays(m.dice)
            if not plays:
                return Move("")
            if rng.random() < 0.8:
                return Move.of(min(plays, key=lambda p: p.position.pip_counts()[1]))
            return Move.of(rng.choice(plays))
        return next(a for a in m.legal_actions() if a.kind in ("roll", "accept_resignation"))
    return agent


@pytest.mark.parametrize("variant", ["plakoto", "fevga", "portes", "tavli"])
def test_the_computer_plays_each_greek_game_to_its_end(variant):
    from table.cli.play import ComputerAgent

    out = io.StringIO()
    term = Terminal("en", io.StringIO(), out, seat=0)
    m = Match(3 if variant == "tavli" else 1, cube=False, seed=3, players=("Ana", "Computer"), variant=variant)
    play_match(m, (ComputerAgent("easy", term), ComputerAgent("easy", term)), term)
    assert m.is_over and max(m.score) >= m.length
    if variant == "tavli":
        assert "Game 1: Portes" in out.getvalue() and "Game 2: Plakoto" in out.getvalue()


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_against_the_computer_a_greek_game_starts_and_hint_advises(variant):
    # The person asks for advice at their first decision, then quits; the computer (seat 1) may
    # have moved first.
    out = io.StringIO()
    lines = "roll\nhint\nquit\n"
    assert run(_args(variant=variant, computer="easy", length=1, seed=11), stdin=io.StringIO(lines), stdout=out) == 0
    text = out.getvalue()
    assert "No computer advice" not in text
    assert "lose a gammon" in text, text[-2000:]  # the advice's figures


def test_a_tavli_match_of_a_wrong_length_is_refused_before_play():
    out = io.StringIO()
    with pytest.raises(MatchSettingsError, match="3, 5 or 7 points"):
        run(_args(variant="tavli", length=4), stdin=io.StringIO(""), stdout=out)
    assert out.getvalue() == ""


def test_a_tavli_match_to_three_in_the_terminal_rotates_the_games(tmp_path: Path):
    out = io.StringIO()
    term = Terminal("en", io.StringIO(""), out)
    m = Match(3, cube=False, seed=4, variant="tavli", players=("Ana", "Bob"))
    play_match(m, (short_player(1), short_player(2)), term)
    text = out.getvalue()
    assert m.is_over and text.count("Opening roll") == 1 + sum(r.is_draw for r in m.results[:-1])
    assert "Game 1: Portes" in text and "starts and rolls" in text and "Tavli (Portes)" in text
    assert "Game 2: Plakoto" in text and "won the last game and starts" in text
    assert text.index("Game 1: Portes") < text.index("Game 2: Plakoto")
    if m.game_number >= 3:
        assert "Game 3: Fevga" in text and "Both sides move the same way" in text
    plakoto = text.split("Game 2: Plakoto")[1].split("Game 4")[0]
    assert "on the bar" not in plakoto and "borne off" in plakoto  # no bar in the Greek games
    assert "wins the match" in text
    path = tmp_path / "tavli.json"
    save_record(m, path, term)
    again = Match.from_json(path.read_text())
    assert again.kind == "tavli" and again.state == m.state and again.actions == m.actions


def _draw_game() -> Match:
    """Plakoto: player 0's mother is pinned; its 3/1* can pin the opponent's mother (a draw)."""
    base = Position.from_checkers({3: 1, 6: 13}, {24: 1, 1: 1, 10: 13}, "plakoto")
    info = MatchInfo(player_on_roll=0, game_state=GameState.PLAYING, turn=0, dice=(2, 1), match_length=3)
    return Match.from_ids(base.id + ":24:", encode_match_id(info), cube=False, variant="plakoto",
                          players=("Ana", "Bob"), seed=1)


def test_the_board_shows_pins_a_pinned_checker_is_refused_and_a_draw_is_said_in_romanian():
    out = io.StringIO()
    term = Terminal("ro", io.StringIO("sfat\n24/21\n6/5 3/1*\n"), out)
    human = HumanAgent(term)
    m = _draw_game()
    with pytest.raises(QuitMatch):  # the input ends in the next game
        play_match(m, (human, human), term)
    text = out.getvalue()
    board = text.split("X Ana")[0]
    assert "  x" in board.splitlines()[2] and "  O" in board.splitlines()[3]  # under its captor, point 24
    assert "prinse: 1" in text and "Literele mici x și o: o piesă prinsă" in text
    assert "Sfatul calculatorului (Greu): primele" in text  # advice on Plakoto, from its own networks
    assert "Nu se poate: piesa ta de pe punctul 24 este prinsă" in text
    assert "jocul se termină la egalitate" in text
    assert m.results[0].is_draw and m.score == (0, 0) and m.game_number == 2
    assert "ID-ul poziției:" in text and "GNU Backgammon" not in text


def test_records_need_json_for_every_greek_game(tmp_path: Path):
    for variant in ("plakoto", "fevga", "portes", "tavli"):
        with pytest.raises(RecordPathError, match="cannot hold"):
            check_record_path(tmp_path / "m.mat", variant)
        check_record_path(tmp_path / "m.json", variant)
    path = tmp_path / "stopped.json"
    out = io.StringIO()
    assert run(_args(variant="tavli", length=5, record=path), stdin=io.StringIO("\nquit\n"), stdout=out) == 0
    saved = json.loads(path.read_text())
    assert saved["variant"] == "tavli" and saved["length"] == 5 and saved["cube"] is False
    assert Match.from_json(saved).variant.name == "portes"


def test_show_and_moves_take_the_greek_games(capsys):
    assert main(["show", "EAAA/z8AAID/Hw:20:", "--variant", "plakoto"]) == 0
    shown = capsys.readouterr().out
    assert "pinned 1" in shown and "(Plakoto)" in shown
    # The mover's checker on 20 is pinned: a 2-1 moves only from 24 (24/21 or 24/23 24/22).
    assert main(["moves", "EAAA/z8AAID/Hw:20:", "21", "--variant", "plakoto"]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith("2 legal plays with 2-1") and "24/21" in listed and "24/23 24/22" in listed
    # Fevga's start: the first checker must pass the opponent's start, so 6-5 is 24/13 alone.
    assert main(["moves", "AACA/z8AAID/Pw", "65", "--variant", "fevga"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 legal plays with 6-5:", "  24/13  ABAA/z8AAID/Pw"]
    assert main(["show", "--variant", "portes"]) == 0
    assert "(Portes)" in capsys.readouterr().out
    assert main(["show", "--variant", "tavli"]) == 2  # a match, not a position's game


def test_resigning_a_backgammon_at_the_keyboard_is_explained_and_a_gammon_is_accepted():
    out = _play(["resign backgammon", "resign gammon", "accept"], lang="ro", variant="portes", length=3)
    assert "Nu se poate: jocul nu are marț triplu" in out
    assert "câștigă jocul: abandon acceptat, 2 puncte" in out


def test_a_pinned_mother_is_announced_as_the_way_the_game_was_won():
    base = Position.from_checkers({3: 1, 6: 14}, {24: 1, 10: 14}, "plakoto")
    info = MatchInfo(player_on_roll=0, game_state=GameState.PLAYING, turn=0, dice=(2, 1), match_length=1)
    m = Match.from_ids(base.id, encode_match_id(info), cube=False, variant="plakoto", players=("Ana", "Bob"))
    out = io.StringIO()
    term = Terminal("en", io.StringIO("6/5 3/1*\n"), out)
    play_match(m, (HumanAgent(term), HumanAgent(term)), term)
    assert "Ana wins the game: the mother checker pinned, 2 points." in out.getvalue()
    assert "Ana wins the match 2-0." in out.getvalue()
