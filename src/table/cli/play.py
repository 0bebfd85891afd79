"""``table play``: a match in the terminal, two people at one keyboard or one against the bot.

Each seat is an ``Agent``: a callable that receives the match and returns the
action it chooses.  ``HumanAgent`` reads commands from the keyboard;
``ComputerAgent`` asks the bot (``--computer LEVEL``).

Against the computer the board is always drawn from the person's side, and
the computer's moves are written in the person's point numbers; two people at
one keyboard each see the board from their own side on their turn.

Everything the players read comes from ``MESSAGES`` in Romanian and English.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

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
from table.rules.diagram import grid
from table.rules.movetext import as_seen_by_opponent

if TYPE_CHECKING:
    from table.bot import Bot
    from table.bot.cube import CubeDecision

Agent = Callable[[Match], Action]
"""Chooses the next action for the player whose turn it is (``match.turn``)."""

HINT_PLAYS = 5
"""How many of the best plays ``hint`` shows."""

# Keys ending in "_you" are the same message addressed to the person at the
# keyboard (second person), used against the computer; "{who}" is "" there
# and "Name, " when two people share the keyboard.
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "match": "match to {length}",
        "money": "money session",
        "game": "Game {n}",
        "score": "Score: {a}: {sa}, {b}: {sb} ({what})",
        "cube": "Cube: {value}, {owner}",
        "centred": "in the middle",
        "owned": "owned by {name}",
        "owned_you": "yours",
        "crawford": "Crawford game: no doubling",
        "side": "{mark} {name}: {pips}, {off} borne off, {bar} on the bar",
        "on_roll": " (to play)",
        "to_answer": " (to answer)",
        "rolled": " (rolled {d1}-{d2})",
        "ids": "GNU Backgammon ID: {id}",
        "opening": "Opening roll: {a} {da}, {b} {db}. {starter} starts with {d1}-{d2}.",
        "opening_you": "Opening roll: {a} {da}, {b} {db}. You start with {d1}-{d2}.",
        "to_roll": ("{who}your turn. Enter = roll, or: double, resign [single|gammon|backgammon], "
                    "hint, ? (help), quit"),
        "to_move": ("{who}you rolled {d1}-{d2}. Your move (e.g. 24/18 13/10); "
                    "hint = advice, list = legal plays, ? = help:"),
        "no_move": "{name} rolled {d1}-{d2} and cannot move.",
        "no_move_you": "You rolled {d1}-{d2} and cannot move.",
        "to_take": "{doubler} doubles to {value}. {who}take or drop?",
        "to_resign": "{resigner} resigns, offering you {level} ({points}). {who}accept or reject?",
        "plays": "Legal plays:",
        "no_plays": "No legal play.",
        "unknown": "Not understood: {text!r}. Type ? for help.",
        "illegal": "Not allowed: {error}",
        "won_game": "{name} wins the game: {how}, {points}.",
        "won_game_you": "You win the game: {how}, {points}.",
        "won_match": "{name} wins the match {sa}-{sb}.",
        "won_match_you": "You win the match {sa}-{sb}!",
        "saved": "Match saved to {path}.",
        "save_failed": "Could not save the match to {path} ({error}). Here is the record; copy it:",
        "bye": "Match stopped.",
        "single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon",
        "how_checkers": "all checkers borne off", "how_drop": "the double was dropped",
        "how_resign": "resignation accepted",
        "rejected": "Resignation rejected: play on.",
        "points_one": "{n} point", "points_other": "{n} points",
        "pips_one": "{n} pip", "pips_other": "{n} pips",
        "plays_one": "{n} play", "plays_other": "{n} plays",
        "you": "You", "computer": "Computer ({level})",
        "easy": "easy", "medium": "medium", "hard": "hard",
        "bot_action": "{name} {action}.",
        "act_double": "doubles", "act_take": "takes", "act_drop": "drops",
        "act_resign": "resigns",
        "act_accept_resignation": "accepts the resignation",
        "act_reject_resignation": "rejects the resignation",
        "act_move": "rolled {d1}-{d2} and plays {play}",
        "act_pass": "rolled {d1}-{d2} and cannot move",
        "hint_title": "Advice ({level}), best {n} of {total}, cubeless equity for you:",
        "hint_play": "{rank:>3}. {play:<22} equity {equity}   win {win}, gammon {gammon}, lose a gammon {lgammon}",
        "hint_double": "Advice ({level}): double. {detail}",
        "hint_no_double": "Advice ({level}): do not double, roll. {detail}",
        "hint_roll": "No cube decision now: roll the dice.",
        "hint_take": "Advice ({level}): take. {detail}",
        "hint_drop": "Advice ({level}): drop. {detail}",
        "hint_cube_money": ("Your equity in points, with the cube: no double {nd}, "
                            "double and take {dt}, double and drop {dp}."),
        "hint_cube_match": ("Your chances to win the match: no double {nd}, double and take {dt}, "
                            "double and drop {dp}."),
        "hint_answer_money": "Your equity in points, with the cube: take {t}, drop {d}.",
        "hint_answer_match": "Your chances to win the match: take {t}, drop {d}.",
        "hint_accept": "Advice ({level}): accept the resignation.",
        "hint_reject": "Advice ({level}): reject the resignation.",
        "help": ("Commands: Enter or roll = roll the dice; double; take; drop; "
                 "resign [single|gammon|backgammon]; accept, reject (a resignation); "
                 "hint [N] = the computer's advice (its N best plays); list = every legal play; "
                 "? = this help; quit. "
                 "Moves in standard notation, from your side of the board: "
                 "24/18 13/10, bar/22*, 6/off(2)."),
    },
    "ro": {
        "match": "partidă la {length}",
        "money": "joc fără limită de puncte",
        "game": "Jocul {n}",
        "score": "Scor: {a}: {sa}, {b}: {sb} ({what})",
        "cube": "Cubul: {value}, {owner}",
        "centred": "la mijloc",
        "owned": "la {name}",
        "owned_you": "la tine",
        "crawford": "Jocul Crawford: nu se poate dubla.",
        "side": "{mark} {name}: {pips}, scoase: {off}, pe bară: {bar}",
        "on_roll": " (la mutare)",
        "to_answer": " (de răspuns)",
        "rolled": " (zaruri: {d1}-{d2})",
        "ids": "ID GNU Backgammon: {id}",
        "opening": ("Zarurile de început: {a} – {da}, {b} – {db}. "
                    "Începe {starter}, cu {d1}-{d2}."),
        "opening_you": "Zarurile de început: {a} – {da}, {b} – {db}. Începi tu, cu {d1}-{d2}.",
        "to_roll": ("{who}e rândul tău. Enter = arunci zarurile; sau: dublez, "
                    "abandon [simplu|marț|triplu], sfat, ? (ajutor), ieși "
                    "(merg și comenzile în engleză)"),
        "to_move": ("{who}ai dat {d1}-{d2}. Mută (de ex. 24/18 13/10); "
                    "sfat, listă = mutările posibile, ? = ajutor:"),
        "no_move": "{name} a dat {d1}-{d2} și nu poate muta.",
        "no_move_you": "Ai dat {d1}-{d2} și nu poți muta.",
        "to_take": "{doubler} dublează miza la {value}. {who}accepți sau refuzi? (accept / refuz)",
        "to_resign": ("{resigner} abandonează și îți oferă {level} ({points}). "
                      "{who}accepți sau refuzi? (accept / refuz)"),
        "plays": "Mutările posibile:",
        "no_plays": "Nicio mutare posibilă.",
        "unknown": "Nu am înțeles „{text}”. Scrie ? pentru ajutor.",
        "illegal": "Nu se poate: {error}",
        "won_game": "{name} câștigă jocul: {how}, {points}.",
        "won_game_you": "Ai câștigat jocul: {how}, {points}.",
        "won_match": "{name} câștigă partida cu {sa}-{sb}.",
        "won_match_you": "Ai câștigat partida cu {sa}-{sb}!",
        "saved": "Partida a fost salvată în {path}.",
        "save_failed": ("Partida nu a putut fi salvată în {path} ({error}). "
                        "Iat-o mai jos; copiaz-o:"),
        "bye": "Partida a fost întreruptă.",
        "single": "un joc simplu", "gammon": "un marț", "backgammon": "un marț triplu",
        "how_checkers": "toate piesele scoase", "how_drop": "dublarea a fost refuzată",
        "how_resign": "abandon acceptat",
        "rejected": "Abandon refuzat: jocul continuă.",
        "points_one": "{n} punct", "points_few": "{n} puncte", "points_other": "{n} de puncte",
        "pips_one": "{n} pip", "pips_few": "{n} pipuri", "pips_other": "{n} de pipuri",
        "plays_one": "{n} mutare", "plays_few": "{n} mutări", "plays_other": "{n} de mutări",
        "you": "Tu", "computer": "Calculatorul ({level})",
        "easy": "Ușor", "medium": "Mediu", "hard": "Greu",
        "bot_action": "{name} {action}.",
        "act_double": "dublează miza", "act_take": "acceptă dublarea", "act_drop": "refuză dublarea",
        "act_resign": "abandonează",
        "act_accept_resignation": "acceptă abandonul",
        "act_reject_resignation": "refuză abandonul",
        "act_move": "a dat {d1}-{d2} și a mutat {play}",
        "act_pass": "a dat {d1}-{d2} și nu poate muta",
        "hint_title": ("Sfatul calculatorului ({level}): primele {n} din {total}, "
                       "cu echitatea ta fără cub:"),
        "hint_play": ("{rank:>3}. {play:<22} echitate {equity}   câștig {win}, marț dat {gammon}, "
                      "marț luat {lgammon}"),
        "hint_double": "Sfatul ({level}): dublează. {detail}",
        "hint_no_double": "Sfatul ({level}): nu dubla, aruncă zarurile. {detail}",
        "hint_roll": "Acum nu ai nicio decizie de luat cu cubul: aruncă zarurile.",
        "hint_take": "Sfatul ({level}): acceptă dublarea. {detail}",
        "hint_drop": "Sfatul ({level}): refuză dublarea. {detail}",
        "hint_cube_money": ("Echitatea ta în puncte, cu cubul: fără dublare {nd}, "
                            "dublare acceptată {dt}, dublare refuzată {dp}."),
        "hint_cube_match": ("Șansele tale de a câștiga partida: fără dublare {nd}, "
                            "dublare acceptată {dt}, dublare refuzată {dp}."),
        "hint_answer_money": ("Echitatea ta în puncte, cu cubul: dacă accepți {t}, "
                              "dacă refuzi {d}."),
        "hint_answer_match": "Șansele tale de a câștiga partida: dacă accepți {t}, dacă refuzi {d}.",
        "hint_accept": "Sfatul ({level}): acceptă abandonul.",
        "hint_reject": "Sfatul ({level}): refuză abandonul.",
        "help": ("Comenzi: Enter = arunci zarurile; dublez = dublezi miza; "
                 "accept / refuz = accepți sau refuzi dublarea ori abandonul; "
                 "abandon [simplu|marț|triplu] = abandonezi (joc simplu, marț, marț triplu); "
                 "sfat [N] = sfatul calculatorului (cele mai bune N mutări); "
                 "listă = toate mutările posibile; ? = acest ajutor; ieși = închizi partida. "
                 "Merg și comenzile în engleză (roll, double, take, drop, resign, hint, list, quit). "
                 "Mutările se scriu în notația obișnuită, cu numerele de pe partea ta a tablei: "
                 "24/18 13/10, bar/22*, 6/off(2)."),
    },
}

_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3, "s": 1, "g": 2, "b": 3,
           "1": 1, "2": 2, "3": 3, "simplu": 1, "marț": 2, "mart": 2, "triplu": 3}

# Words a person may type, English and Romanian, by what they ask for.
_QUIT = ("quit", "exit", "q", "ieși", "ieşi", "ies", "iesi", "ieșire", "iesire")
_HINT = ("hint", "h", "sfat")
_LIST = ("list", "l", "moves", "listă", "lista", "mutări", "mutari")
_HELP = ("?", "help", "ajutor")
_ROLL = ("", "roll", "r", "arunc", "dau")
_RESIGN = ("resign", "abandon", "abandonez")
_YES = ("accept", "accepți", "accepti", "da", "yes", "y")
_NO = ("reject", "refuz", "refuzi", "nu", "no", "n")


def plural_form(n: int, lang: str) -> str:
    """CLDR's plural category of a whole number: Romanian "one" (1), "few" (0, 2-19 and the
    numbers ending in 01-19) or "other" (the rest, which take "de": "20 de puncte"); English
    "one" or "other".

    >>> [plural_form(n, "ro") for n in (1, 2, 19, 20, 100, 101, 120)]
    ['one', 'few', 'few', 'other', 'other', 'few', 'other']
    """
    if abs(n) == 1:
        return "one"
    if lang != "ro":
        return "other"
    return "other" if n and abs(n) % 100 in (0, *range(20, 100)) else "few"


class QuitMatch(Exception):
    """A player typed ``quit`` (or the input ended)."""


class Terminal:
    """Where the players read and type: the messages in one language.

    ``seat`` is the seat of the one person at the keyboard (against the
    computer), or ``None`` when two people share it.
    """

    def __init__(self, lang: str, stdin: TextIO, stdout: TextIO, seat: int | None = None) -> None:
        self.lang = lang
        self.text = MESSAGES[lang]
        self.stdin = stdin
        self.stdout = stdout
        self.seat = seat

    def line(self, key: str, **values: object) -> str:
        """The message ``key`` filled in, starting with a capital letter."""
        text = self.text[key].format(**values)
        return text[:1].upper() + text[1:] if text[:1] != "\0" else text

    def say(self, key: str, **values: object) -> None:
        print(self.line(key, **values), file=self.stdout)

    def about(self, player: int, key: str, names: tuple[str, str], **values: object) -> None:
        """Say ``key`` about ``player``: to them directly when they are the person at the keyboard."""
        if player == self.seat:
            self.say(key + "_you", **values)
        else:
            self.say(key, name=names[player], **values)

    def show(self, text: str) -> None:
        print(text, file=self.stdout)

    def ask(self, prompt_key: str, name: str, **values: object) -> str:
        text = self.line(prompt_key, who="\0", **values)
        if self.seat is None:
            text = text.replace("\0", f"{name}, ")
        else:
            # Spoken to the only person there: no name, and the sentence starts after it.
            head, _, rest = text.partition("\0")
            text = head + rest[:1].upper() + rest[1:]
        print(text, file=self.stdout)
        print("> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            raise QuitMatch
        return line.strip()

    def count(self, n: int, word: str) -> str:
        """``n`` of ``word`` ("points", "pips", "plays"), grammatical in this language: the
        catalogue's ``word_one``, ``word_few`` or ``word_other`` by ``plural_form``.

        >>> Terminal("ro", sys.stdin, sys.stdout).count(21, "points")
        '21 de puncte'
        """
        form = plural_form(n, self.lang)
        return self.line(f"{word}_{form}" if f"{word}_{form}" in self.text else f"{word}_other", n=n)

    def points(self, n: int) -> str:
        """``n`` points (Romanian: 1 punct, 2 puncte, 20 de puncte, 101 puncte)."""
        return self.count(n, "points")

    def percent(self, p: float) -> str:
        text = f"{100.0 * p:.1f}%"
        return text.replace(".", ",") if self.lang == "ro" else text

    def signed(self, x: float) -> str:
        """``x`` with its sign and three decimals, a true minus sign and the language's decimal mark.

        >>> Terminal("ro", sys.stdin, sys.stdout).signed(-0.4672)
        '−0,467'
        """
        text = f"{x:+.3f}".replace("-", "\u2212")
        return text.replace(".", ",") if self.lang == "ro" else text


class Advisor:
    """The bot's advice for ``hint``, at one level; the network loads on the first question."""

    def __init__(self, level: str, term: Terminal) -> None:
        self.level = level
        self.term = term
        self._bot: Bot | None = None

    @property
    def bot(self) -> Bot:
        if self._bot is None:
            from table.bot import Bot

            self._bot = Bot(level=self.level, seed=None)
        return self._bot

    def advise(self, m: Match, plays: int = HINT_PLAYS) -> None:
        """Print what the bot would do now, with its figures, for the player who must act.

        On a roll, the best ``plays`` plays are listed.
        """
        term, phase = self.term, m.phase
        level = term.text[self.level]
        if phase == Phase.MOVE:
            assert m.dice is not None
            ranked = self.bot.analyse_plays(m.position, m.dice)
            if not ranked:
                term.say("no_plays")
                return
            shown = ranked[:plays]
            term.say("hint_title", level=level, n=len(shown), total=term.count(len(ranked), "plays"))
            for rank, (play, e) in enumerate(shown, 1):
                term.say("hint_play", rank=rank, play=str(play), equity=term.signed(e.equity),
                         win=term.percent(e.win), gammon=term.percent(e.win_gammon),
                         lgammon=term.percent(e.lose_gammon))
        elif phase == Phase.ROLL:
            if not m.may_double():
                term.say("hint_roll")
                return
            d = self._cube(m)
            term.say("hint_double" if d.double else "hint_no_double", level=level,
                     detail=self._cube_detail(m, d))
        elif phase == Phase.TAKE:
            d = self._cube(m)
            term.say("hint_take" if d.take else "hint_drop", level=level,
                     detail=self._cube_detail(m, d))
        elif phase == Phase.RESIGN:
            from table.bot.player import next_action

            accept = isinstance(next_action(self.bot, m), AcceptResignation)
            term.say("hint_accept" if accept else "hint_reject", level=level)

    def _cube(self, m: Match) -> CubeDecision:
        """The cube decision seen from the player on roll (the doubler when a double awaits)."""
        from table.bot.player import _view

        owner, score = _view(m, m.on_roll)
        return self.bot.cube_decision(m.position, m.cube_value, owner, m.length, score,
                                      m.crawford, m.jacoby)

    def _cube_detail(self, m: Match, d: CubeDecision) -> str:
        """The figures behind the advice, for the player who must decide."""
        fmt = self.term.percent if m.length else self.term.signed
        kind = "match" if m.length else "money"
        if m.phase == Phase.TAKE:
            # The decision's figures are the doubler's; the taker gets the rest.
            full = 1.0 if m.length else 0.0  # match chances add up to 1, money equities to 0
            return self.term.line("hint_answer_" + kind, t=fmt(full - d.double_take),
                                  d=fmt(full - d.double_pass))
        return self.term.line("hint_cube_" + kind, nd=fmt(d.no_double), dt=fmt(d.double_take),
                              dp=fmt(d.double_pass))


class HumanAgent:
    """A person at the keyboard; commands as listed in the ``help`` message."""

    def __init__(self, term: Terminal, advisor: Advisor | None = None) -> None:
        self.term = term
        self.advisor = advisor or Advisor("hard", term)

    def __call__(self, m: Match) -> Action:
        names = m.players
        while True:
            who = m.turn
            assert who is not None
            name = names[who]
            if m.phase == Phase.ROLL:
                text = self.term.ask("to_roll", name)
            elif m.phase == Phase.MOVE:
                assert m.dice is not None
                moves = [a for a in m.legal_actions() if isinstance(a, Move)]
                if moves == [Move("")]:
                    # Nothing can be played: the turn passes by itself.
                    self.term.about(who, "no_move", names, d1=max(m.dice), d2=min(m.dice))
                    return moves[0]
                text = self.term.ask("to_move", name, d1=max(m.dice), d2=min(m.dice))
            elif m.phase == Phase.TAKE:
                text = self.term.ask("to_take", name, doubler=names[m.on_roll],
                                     value=m.cube_value * 2)
            else:
                resigner = names[1 - who]
                level = self.term.text[("single", "gammon", "backgammon")[m.resignation - 1]]
                text = self.term.ask("to_resign", name, resigner=resigner, level=level,
                                     points=self.term.points(m.resignation * m.cube_value))
            action = self.read(m, text)
            if action is not None:
                return action

    def read(self, m: Match, text: str) -> Action | None:
        """The action ``text`` asks for, or ``None`` after printing help, a list or advice."""
        words = text.lower().split()
        word = words[0] if words else ""
        phase = m.phase
        if word in _QUIT:
            raise QuitMatch
        if word in _HINT:
            count = int(words[1]) if len(words) > 1 and words[1].isdigit() else HINT_PLAYS
            self.advisor.advise(m, max(1, count))
            return None
        if word in _LIST or word in _HELP:
            if phase == Phase.MOVE:
                self.term.say("plays")
                for a in m.legal_actions():
                    if isinstance(a, Move):
                        self.term.show(f"  {a.play}")
            if word in _HELP:
                self.term.say("help")
            return None
        if word in _ROLL and phase == Phase.ROLL:
            return Roll()
        if not words:
            return None  # an empty line asks again
        if word in ("double", "d", "dublez"):
            return Double()
        if phase == Phase.TAKE and word in ("take", "t", *_YES):
            return Take()
        if phase == Phase.TAKE and word in ("drop", "pass", *_NO):
            return Drop()
        if phase == Phase.RESIGN and word in _YES:
            return AcceptResignation()
        if phase == Phase.RESIGN and word in _NO:
            return RejectResignation()
        if word in _RESIGN:
            level = _LEVELS.get(words[1], 0) if len(words) > 1 else 1
            if not level:
                self.term.say("unknown", text=text)
                return None
            return Resign(level)
        if word in _ANSWERS:
            return _ANSWERS[word]  # not the moment for it: the match says why
        if phase == Phase.MOVE and text:
            return Move(text)
        self.term.say("unknown", text=text)
        return None


_ANSWERS: dict[str, Action] = {
    "take": Take(), "t": Take(), "drop": Drop(), "pass": Drop(),
    "accept": AcceptResignation(), "reject": RejectResignation(),
}


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
        who = m.turn
        assert who is not None
        t = self.term.text
        if isinstance(action, Move):
            assert m.dice is not None
            play = action.play
            if self.term.seat is not None and self.term.seat != who:
                # The person reads the move in the numbers of their own side of the board.
                play = as_seen_by_opponent(play)
            key = "act_move" if play else "act_pass"
            text = t[key].format(play=play, d1=max(m.dice), d2=min(m.dice))
        elif isinstance(action, Roll):
            return action  # the dice are announced with the move
        elif isinstance(action, Double) and self.term.seat is not None:
            return action  # the person's question says it: "... doubles to 2. Take or drop?"
        else:
            text = t["act_" + action.kind]
        self.term.say("bot_action", name=m.players[who], action=text)
        return action


# The engine's reasons are in English; these say the usual ones in Romanian.
# Each pattern is searched in the English text; the template takes its groups.
_REASONS_RO: tuple[tuple[str, str], ...] = (
    (r"point (\d+) is closed", "punctul {0} este închis: îl ține adversarul"),
    (r"on the bar and must enter first", "ai piese pe bară: trebuie să le readuci în joc mai întâi"),
    (r"bear off only when", "poți scoate piese doar când toate piesele tale sunt în casă"),
    (r"you have no checker on the bar to move", "nu ai nicio piesă pe bară"),
    (r"you have no checker on point (\d+) to move", "nu ai nicio piesă pe punctul {0}"),
    (r"uses 1 die, for example (.+)$",
     "mutarea nu se potrivește cu zarurile: se poate juca un singur zar, de exemplu {0}"),
    (r"uses \d dice, for example (.+)$", "mutarea nu se potrivește cu zarurile; de exemplu: {0}"),
    (r"must be played; for example (.+)$", "zarurile trebuie jucate, de exemplu {0}"),
    (r"is ambiguous with [1-6]-[1-6]: did you mean (.+)\?$", "nu e clar ce mutare vrei: {0}?"),
    (r"marks a hit on (\d+), but", "marchează o piesă lovită pe {0}, dar mutarea nu lovește acolo"),
    (r"checkers move toward 'off'", "piesele se mută spre casă, spre numere mai mici"),
    (r"^cannot read|empty move text|a move is 'from/to'",
     "nu am înțeles mutarea: scrie-o ca 13/7 8/7, bar/22* sau 6/off(2)"),
    (r"only by the player on roll, before rolling", "poți dubla doar la rândul tău, înainte să arunci"),
    (r"without the doubling cube", "partida se joacă fără cub"),
    (r"before the first move", "nu se poate dubla înainte de prima mutare a jocului"),
    (r"in the Crawford game", "în jocul Crawford nu se poate dubla"),
    (r"your opponent owns the cube", "cubul e la adversar: doar el poate redubla"),
    (r"its highest value", "cubul este deja la valoarea maximă"),
    (r"need only one point to win the match", "îți mai trebuie un singur punct, deci nu poți dubla"),
    (r"already wins you the match", "miza de acum îți aduce deja partida, deci nu poți dubla"),
    (r"was just refused", "abandonul tocmai a fost refuzat: joacă întâi, apoi îl poți oferi din nou"),
    (r"^(?:taking|dropping) is not possible now", "nu ai nicio dublare la care să răspunzi"),
    (r"^(?:accepting|rejecting) .* is not possible now", "nu ai niciun abandon la care să răspunzi"),
    (r"is not possible now", "nu este momentul pentru asta"),
)


def explain(error: Exception, lang: str) -> str:
    """The engine's reason for refusing an action, in the terminal's language.

    >>> explain(ValueError("'24/1' is not legal with 3-2: point 1 is closed: ..."), "ro")
    'punctul 1 este închis: îl ține adversarul'
    """
    text = str(error)
    if lang != "ro":
        return text
    for pattern, template in _REASONS_RO:
        found = re.search(pattern, text)
        if found:
            return template.format(*(g.replace(" or ", " sau ") for g in found.groups()))
    return "mutare nepermisă; scrie listă pentru mutările posibile ori ? pentru ajutor"


def _status(m: Match, term: Terminal) -> None:
    t = term.text
    what = t["match"].format(length=term.points(m.length)) if m.length else t["money"]
    a, b = m.players
    term.say("score", a=a, sa=m.score[0], b=b, sb=m.score[1], what=what)
    _cube_line(m, term)
    if m.crawford:
        term.say("crawford")


def _cube_line(m: Match, term: Terminal) -> None:
    if not m.cube_enabled:
        return
    t = term.text
    if m.cube_owner is None:
        owner = t["centred"]
    elif m.cube_owner == term.seat:
        owner = t["owned_you"]
    else:
        owner = t["owned"].format(name=m.players[m.cube_owner])
    term.say("cube", value=m.cube_value, owner=owner)


def draw(m: Match, term: Terminal, viewer: int) -> None:
    """The board from ``viewer``'s side (``X``, moving round to point 1), with both sides' counts."""
    position = m.position_for(viewer)
    term.show("\n".join(grid(position)))
    pips, off = position.pip_counts(), position.borne_off()
    bars = (position.board[25], -position.board[0])
    for k, (mark, player) in enumerate((("X", viewer), ("O", 1 - viewer))):
        state = ""
        if player == m.turn:
            state = term.text["to_answer" if m.phase in (Phase.TAKE, Phase.RESIGN) else "on_roll"]
            if m.dice is not None and m.phase == Phase.MOVE:
                state = term.text["rolled"].format(d1=max(m.dice), d2=min(m.dice))
        term.show(term.line("side", mark=mark, name=m.players[player], pips=term.count(pips[k], "pips"),
                            off=off[k], bar=bars[k]) + state)
    term.say("ids", id=m.gnubg_id)


def play_match(m: Match, agents: tuple[Agent, Agent], term: Terminal) -> None:
    """Run ``m`` to its end (or until a player quits), asking each seat's agent in turn.

    The board is drawn once a turn: from ``term.seat``'s side, or from the side
    of the player to act when two people share the keyboard.
    """
    names = m.players
    shown: tuple[object, ...] | None = None
    while not m.is_over:
        phase = m.phase
        if phase == Phase.OPENING:
            term.say("game", n=m.game_number)
            logged = m.apply(OpeningRoll())
            assert isinstance(logged, OpeningRoll) and logged.dice is not None and m.dice
            term.about(m.on_roll, "opening", names, a=names[0], da=logged.dice[0], b=names[1],
                       db=logged.dice[1], starter=names[m.on_roll], d1=max(m.dice), d2=min(m.dice))
            continue
        if phase == Phase.GAME_OVER:
            m.apply(NextGame())
            continue
        who = m.turn
        assert who is not None
        viewer = term.seat if term.seat is not None else who
        key = (m.game_number, m.state.position, m.on_roll, viewer)
        if key != shown:
            draw(m, term, viewer)
            _status(m, term)
            shown = key
        action = agents[who](m)
        try:
            m.apply(action)
        except TableError as exc:
            term.say("illegal", error=explain(exc, term.lang))
            continue
        if isinstance(action, RejectResignation):
            term.say("rejected")
        if isinstance(action, Take):
            _cube_line(m, term)
        result = m.game_result
        if result is not None:
            level = {1: "single", 2: "gammon", 3: "backgammon"}[result.level]
            how = term.text[level] if result.how == "checkers" else term.text["how_" + result.how]
            term.about(result.winner, "won_game", names, how=how, points=term.points(result.points))
    winner = m.winner
    if winner is not None:
        term.about(winner, "won_match", names, sa=m.score[0], sb=m.score[1])


def _default_lang() -> str:
    env = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return "ro" if env.lower().startswith("ro") else "en"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser(
        "play", help="play a match in the terminal: two players, or one against the computer",
        description="Play a match in the terminal. During play type ? for the commands, "
                    "hint for the computer's advice (its best plays with their equities, or "
                    "what to do with the cube) and list for every legal play.")
    p.add_argument("--length", type=int, default=5,
                   help="points to win the match, 1 to 64 (0 = money play); default 5")
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


class RecordPathError(TableError):
    """``--record`` names a file that cannot be written."""


def check_record_path(path: Path) -> None:
    """Refuse, before any play, a record file whose folder is missing or not writable."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise RecordPathError(f"--record {path}: that is a folder; name a file such as {path / 'match.mat'}")
    if not folder.is_dir():
        raise RecordPathError(f"--record {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise RecordPathError(f"--record {path}: no permission to write there")


def save_record(m: Match, path: Path, term: Terminal) -> None:
    """Write the match to ``path``; if that fails, print the record so it is not lost."""
    text = m.to_mat()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        term.say("save_failed", path=path, error=exc.strerror or exc)
        term.show(text)
        return
    term.say("saved", path=path)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play the match the arguments describe."""
    if args.record is not None:
        check_record_path(args.record)
    lang = args.lang or _default_lang()
    seat = 0 if args.computer else None
    term = Terminal(lang, stdin or sys.stdin, stdout or sys.stdout, seat=seat)
    human = HumanAgent(term, Advisor("hard", term))  # advice from the strongest level, whoever plays
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
            save_record(m, args.record, term)
    return 0
