"""``table play``: a match in the terminal, two people at one keyboard or one against the bot.

Each seat is an ``Agent``: a callable that receives the match and returns the
action it chooses.  ``HumanAgent`` reads commands from the keyboard;
``ComputerAgent`` asks the bot (``--computer LEVEL``).

Everything the players read comes from ``MESSAGES`` in Romanian and English.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable, TextIO

from table.errors import TableError
from table.match import (
    AcceptResignation,
    Action,
    Double,
    Drop,
    Match,
    Move,
    NextGame,
    OpeningRoll,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from table.notation.diagram import render

Agent = Callable[[Match], Action]
"""Chooses the next action for the player whose turn it is (``match.turn``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "match": "{length}-point match",
        "money": "money session",
        "game": "Game {n}",
        "score": "Score: {a} {sa}, {b} {sb} ({what})",
        "cube": "Cube: {value}, {owner}",
        "centred": "in the middle",
        "owned": "owned by {name}",
        "crawford": "Crawford game: no doubling",
        "opening": "Opening roll: {a} {da}, {b} {db}. {starter} starts with {d1}-{d2}.",
        "to_roll": "{name} (X) to roll. Enter = roll, or: double, resign [single|gammon|backgammon], quit",
        "to_move": "{name} (X) rolled {d1}-{d2}. Your move (e.g. 24/18 13/10), ? to list plays, or resign:",
        "no_move": "{name} rolled {d1}-{d2} and cannot move.",
        "to_take": "{doubler} doubles to {value}. {name}: take or drop?",
        "to_resign": "{resigner} offers to resign a {level} ({points} points). {name}: accept or reject?",
        "plays": "Legal plays:",
        "no_plays": "No legal play: press Enter.",
        "unknown": "Not understood: {text!r}. Type ? for help.",
        "illegal": "Not allowed: {error}",
        "won_game": "{name} wins the game: {how}, {points} point(s).",
        "won_match": "{name} wins the match {sa}-{sb}.",
        "saved": "Match saved to {path}.",
        "bye": "Match stopped.",
        "single": "single game", "gammon": "gammon", "backgammon": "backgammon",
        "how_checkers": "all checkers borne off", "how_drop": "the double was dropped",
        "how_resign": "resignation accepted",
        "rejected": "Resignation rejected: play on.",
        "you": "You", "computer": "Computer ({level})",
        "easy": "easy", "medium": "medium", "hard": "hard",
        "bot_action": "{name}: {action}",
        "act_roll": "rolls", "act_double": "doubles", "act_take": "takes", "act_drop": "drops",
        "act_accept_resignation": "accepts the resignation",
        "act_reject_resignation": "rejects the resignation",
        "act_move": "plays {play}", "act_pass": "cannot move",
        "help": ("Commands: roll (Enter), double, take, drop, resign [single|gammon|backgammon], "
                 "accept, reject, ? / hint / list (legal plays), quit. "
                 "Moves in standard notation: 24/18 13/10, bar/22*, 6/off(2)."),
    },
    "ro": {
        "match": "meci la {length} puncte",
        "money": "partidă pe bani",
        "game": "Jocul {n}",
        "score": "Scor: {a} {sa}, {b} {sb} ({what})",
        "cube": "Zarul de dublare: {value}, {owner}",
        "centred": "la mijloc",
        "owned": "al lui {name}",
        "crawford": "Jocul Crawford: nu se dublează",
        "opening": "Zarul de început: {a} {da}, {b} {db}. Începe {starter} cu {d1}-{d2}.",
        "to_roll": "{name} (X) dă cu zarul. Enter = aruncă, sau: double (dublez), resign [single|gammon|backgammon] (abandon), quit (ieșire)",
        "to_move": "{name} (X) a dat {d1}-{d2}. Mutarea ta (de ex. 24/18 13/10), ? pentru mutările posibile, sau resign (abandon):",
        "no_move": "{name} a dat {d1}-{d2} și nu poate muta.",
        "to_take": "{doubler} dublează la {value}. {name}: take (accepți) sau drop (refuzi)?",
        "to_resign": "{resigner} oferă abandonul: {level} ({points} puncte). {name}: accept sau reject?",
        "plays": "Mutări posibile:",
        "no_plays": "Nicio mutare posibilă: apasă Enter.",
        "unknown": "Nu am înțeles: {text!r}. Scrie ? pentru ajutor.",
        "illegal": "Nu este permis: {error}",
        "won_game": "{name} câștigă jocul: {how}, {points} punct(e).",
        "won_match": "{name} câștigă meciul {sa}-{sb}.",
        "saved": "Meciul a fost salvat în {path}.",
        "bye": "Meci oprit.",
        "single": "joc simplu", "gammon": "marț", "backgammon": "marț dublu",
        "how_checkers": "toate piesele scoase", "how_drop": "dublarea a fost refuzată",
        "how_resign": "abandon acceptat",
        "rejected": "Abandon refuzat: jocul continuă.",
        "you": "Tu", "computer": "Calculatorul ({level})",
        "easy": "Ușor", "medium": "Mediu", "hard": "Greu",
        "bot_action": "{name}: {action}",
        "act_roll": "aruncă zarurile", "act_double": "dublează", "act_take": "acceptă dublarea",
        "act_drop": "refuză dublarea",
        "act_accept_resignation": "acceptă abandonul",
        "act_reject_resignation": "refuză abandonul",
        "act_move": "mută {play}", "act_pass": "nu poate muta",
        "help": ("Comenzi: roll (Enter) = aruncă zarurile, double = dublez, take = accept dublarea, "
                 "drop = refuz dublarea, resign [single|gammon|backgammon] = abandon, "
                 "accept, reject, ? / hint / list = mutările posibile, quit = ieșire. "
                 "Mutări în notația obișnuită: 24/18 13/10, bar/22*, 6/off(2)."),
    },
}

_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3, "s": 1, "g": 2, "b": 3,
           "1": 1, "2": 2, "3": 3, "simplu": 1, "marț": 2, "mart": 2}


class QuitMatch(Exception):
    """A player typed ``quit`` (or the input ended)."""


class Terminal:
    """Where the players read and type: the messages in one language."""

    def __init__(self, lang: str, stdin: TextIO, stdout: TextIO) -> None:
        self.text = MESSAGES[lang]
        self.stdin = stdin
        self.stdout = stdout

    def say(self, key: str, **values: object) -> None:
        print(self.text[key].format(**values), file=self.stdout)

    def show(self, text: str) -> None:
        print(text, file=self.stdout)

    def ask(self, prompt_key: str, **values: object) -> str:
        self.say(prompt_key, **values)
        print("> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            raise QuitMatch
        return line.strip()


class HumanAgent:
    """A person at the keyboard; commands as listed in the ``help`` message."""

    def __init__(self, term: Terminal) -> None:
        self.term = term

    def __call__(self, m: Match) -> Action:
        names = m.players
        while True:
            who = m.turn
            assert who is not None
            name = names[who]
            if m.phase == Phase.ROLL:
                text = self.term.ask("to_roll", name=name)
            elif m.phase == Phase.MOVE:
                assert m.dice is not None
                moves = [a for a in m.legal_actions() if isinstance(a, Move)]
                if moves == [Move("")]:
                    # Nothing can be played: the turn passes by itself.
                    self.term.say("no_move", name=name, d1=m.dice[0], d2=m.dice[1])
                    return moves[0]
                text = self.term.ask("to_move", name=name, d1=m.dice[0], d2=m.dice[1])
            elif m.phase == Phase.TAKE:
                text = self.term.ask("to_take", doubler=names[m.on_roll], name=name,
                                     value=m.cube_value * 2)
            else:
                resigner = names[1 - who]
                level = self.term.text[("single", "gammon", "backgammon")[m.resignation - 1]]
                text = self.term.ask("to_resign", resigner=resigner, level=level, name=name,
                                     points=m.resignation * m.cube_value)
            action = self.read(m, text)
            if action is not None:
                return action

    def read(self, m: Match, text: str) -> Action | None:
        """The action ``text`` asks for, or ``None`` after printing help or a list."""
        words = text.lower().split()
        word = words[0] if words else ""
        if word in ("quit", "exit", "q", "ieșire", "iesire"):
            raise QuitMatch
        if word in ("?", "hint", "list", "help", "h"):
            if m.phase == Phase.MOVE:
                self.term.say("plays")
                for a in m.legal_actions():
                    if isinstance(a, Move):
                        self.term.show(f"  {a.play}")
            self.term.say("help")
            return None
        simple: dict[str, Action] = {
            "double": Double(), "d": Double(), "take": Take(), "t": Take(), "drop": Drop(),
            "pass": Drop(), "accept": AcceptResignation(), "reject": RejectResignation(),
        }
        if word in ("", "roll", "r") and m.phase == Phase.ROLL:
            return Roll()
        if word in simple:
            return simple[word]
        if word in ("resign", "abandon"):
            level = _LEVELS.get(words[1], 0) if len(words) > 1 else 1
            if not level:
                self.term.say("unknown", text=text)
                return None
            return Resign(level)
        if m.phase == Phase.MOVE and text:
            return Move(text)
        self.term.say("unknown", text=text)
        return None


class ComputerAgent:
    """The bot in a seat: its decisions, announced to the person at the keyboard."""

    def __init__(self, level: str, term: Terminal) -> None:
        from table.bot import Bot  # the bot loads its weights only when asked to play

        self.bot = Bot(level=level, seed=None)
        self.term = term

    def __call__(self, m: Match) -> Action:
        from table.bot.player import next_action

        action = next_action(self.bot, m)
        assert action is not None, "the computer is asked only when it must act"
        name = m.players[m.turn] if m.turn is not None else ""
        if isinstance(action, Move):
            text = self.term.text["act_move"].format(play=action.play) if action.play else self.term.text["act_pass"]
        else:
            text = self.term.text["act_" + action.kind]
        if not isinstance(action, Roll):
            self.term.say("bot_action", name=name, action=text)
        return action


def _status(m: Match, term: Terminal) -> None:
    t = term.text
    what = t["match"].format(length=m.length) if m.length else t["money"]
    a, b = m.players
    term.say("score", a=a, sa=m.score[0], b=b, sb=m.score[1], what=what)
    if m.cube_enabled:
        owner = t["centred"] if m.cube_owner is None else t["owned"].format(name=m.players[m.cube_owner])
        term.say("cube", value=m.cube_value, owner=owner)
    if m.crawford:
        term.say("crawford")


def play_match(m: Match, agents: tuple[Agent, Agent], term: Terminal) -> None:
    """Run ``m`` to its end (or until a player quits), asking each seat's agent in turn."""
    names = m.players
    shown: tuple[object, ...] | None = None
    while not m.is_over:
        phase = m.phase
        if phase == Phase.OPENING:
            term.say("game", n=m.game_number)
            logged = m.apply(OpeningRoll())
            assert isinstance(logged, OpeningRoll) and logged.dice is not None and m.dice
            term.say("opening", a=names[0], da=logged.dice[0], b=names[1], db=logged.dice[1],
                     starter=names[m.on_roll], d1=m.dice[0], d2=m.dice[1])
            continue
        if phase == Phase.GAME_OVER:
            m.apply(NextGame())
            continue
        key = (m.state.position, m.on_roll, m.dice, m.cube_value, m.cube_owner)
        if key != shown:
            term.show(render(m.position))
            _status(m, term)
            shown = key
        who = m.turn
        assert who is not None
        action = agents[who](m)
        try:
            m.apply(action)
        except TableError as exc:
            term.say("illegal", error=exc)
            continue
        if isinstance(action, RejectResignation):
            term.say("rejected")
        result = m.game_result
        if result is not None:
            level = {1: "single", 2: "gammon", 3: "backgammon"}[result.level]
            how = term.text[level] if result.how == "checkers" else term.text["how_" + result.how]
            term.say("won_game", name=names[result.winner], how=how, points=result.points)
    winner = m.winner
    if winner is not None:
        term.say("won_match", name=names[winner], sa=m.score[0], sb=m.score[1])


def _default_lang() -> str:
    env = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return "ro" if env.lower().startswith("ro") else "en"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser("play", help="play a match in the terminal: two players, or one against the computer")
    p.add_argument("--length", type=int, default=5,
                   help="points to win the match, 1 to 25 (0 = money play); default 5")
    p.add_argument("--no-cube", action="store_true", help="play without the doubling cube")
    p.add_argument("--seed", type=int, default=None, help="dice seed, for a reproducible match")
    p.add_argument("--record", type=Path, default=None, metavar="FILE.mat",
                   help="save the match as .mat when it ends or is stopped")
    p.add_argument("--players", nargs=2, default=None, metavar=("NAME1", "NAME2"),
                   help="the players' names")
    p.add_argument("--computer", choices=["easy", "medium", "hard"], default=None, metavar="LEVEL",
                   help="play against the computer at this level (easy, medium or hard); "
                        "you are the first player")
    p.add_argument("--lang", choices=sorted(MESSAGES), default=None,
                   help="language of the messages (default: from LANG, else English)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play the match the arguments describe."""
    lang = args.lang or _default_lang()
    term = Terminal(lang, stdin or sys.stdin, stdout or sys.stdout)
    human = HumanAgent(term)
    agents: tuple[Agent, Agent] = (human, human)
    if args.computer:
        agents = (human, ComputerAgent(args.computer, term))
        default_names = (term.text["you"], term.text["computer"].format(level=term.text[args.computer]))
    else:
        default_names = ("Jucătorul 1", "Jucătorul 2") if lang == "ro" else ("Player 1", "Player 2")
    players = tuple(args.players) if args.players else default_names
    m = Match(args.length, not args.no_cube, args.seed, players=players)
    try:
        play_match(m, agents, term)
    except QuitMatch:
        term.say("bye")
    finally:
        if args.record is not None:
            args.record.write_text(m.to_mat(), encoding="utf-8")
            term.say("saved", path=args.record)
    return 0
