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
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

from table.errors import TableError, VariantError
from table.match import (
    AcceptResignation,
    Action,
    Double,
    Drop,
    Match,
    Move,
    NameDouble,
    NextGame,
    OpeningRoll,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from table.cli.engine import NOT_OFFERED, add_variant_option
from table.cli.terminal import MESSAGES, QuitMatch, Terminal, explain
from table.cli.terminal import plural_form as plural_form  # where analyse and online find it
from table.match.series import SERIES, Series, find_game, greek_flow, match_games
from table.rules.diagram import grid, pins
from table.rules.movetext import as_seen_by_opponent
from table.rules.variant import PIN, PORTES, VARIANTS, Variant

if TYPE_CHECKING:
    from table.bot import Bot
    from table.bot.cube import CubeDecision

Agent = Callable[[Match], Action]
"""Chooses the next action for the player whose turn it is (``match.turn``)."""

HINT_PLAYS = 5
"""How many of the best plays ``hint`` shows."""

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
            greek = greek_flow(m.variant)
            if m.phase == Phase.ROLL:
                text = self.term.ask("to_roll_greek" if greek else "to_roll", name)
            elif m.phase == Phase.MOVE:
                assert m.dice is not None
                moves = [a for a in m.legal_actions() if isinstance(a, Move)]
                if moves == [Move("")]:
                    # Nothing can be played: the turn passes by itself.
                    self.term.about(who, "no_move", names, d1=max(m.dice), d2=min(m.dice))
                    return moves[0]
                text = self.term.ask("to_move_greek" if greek else "to_move", name,
                                     d1=max(m.dice), d2=min(m.dice))
            elif m.phase == Phase.NAME_DOUBLE:
                text = self.term.ask("to_name_double", name)
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
        if word in _HINT and not _computer_plays(m.variant):
            self.term.say("no_advice", game=m.variant.title)
            return None
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
        if phase == Phase.NAME_DOUBLE:
            # "6", "6-6" or "names 6-6": the double to play after an Acey-Deucey 1-2.
            parts = (words[-1] if words else "").split("-")
            if len(set(parts)) == 1 and parts[0] in ("1", "2", "3", "4", "5", "6"):
                return NameDouble(int(parts[0]))
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
                play = as_seen_by_opponent(play, m.variant)
            key = "act_move" if play else "act_pass"
            text = t[key].format(play=play, d1=max(m.dice), d2=min(m.dice))
        elif isinstance(action, Roll):
            return action  # the dice are announced with the move
        elif isinstance(action, Double) and self.term.seat is not None:
            return action  # the person's question says it: "... doubles to 2. Take or drop?"
        elif isinstance(action, NameDouble):
            text = t["act_name_double"].format(n=action.number)
        else:
            text = t["act_" + action.kind]
        self.term.say("bot_action", name=m.players[who], action=text)
        return action


def _status(m: Match, term: Terminal) -> None:
    t = term.text
    what = t["match"].format(length=term.points(m.length)) if m.length else t["money"]
    if m.series is not None:
        what = f"{m.series.title} ({m.variant.title}), {what}"
    elif m.variant.name != "standard":
        what = f"{m.variant.title}, {what}"
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
    pinned = pins(position)
    # The Greek games without hitting have no bar: Plakoto counts pinned checkers instead.
    key = ("side" if position.variant.hitting
           else "side_pinned" if position.variant.rules.capture == PIN else "side_greek")
    for k, (mark, player) in enumerate((("X", viewer), ("O", 1 - viewer))):
        state = ""
        if player == m.turn:
            state = term.text["to_answer" if m.phase in (Phase.TAKE, Phase.RESIGN) else "on_roll"]
            if m.dice is not None and m.phase == Phase.MOVE:
                state = term.text["rolled"].format(d1=max(m.dice), d2=min(m.dice))
        count = sum(1 for v in pinned.values() if v == (1 if k == 0 else -1))
        term.show(term.line(key, mark=mark, name=m.players[player], pips=term.count(pips[k], "pips"),
                            off=off[k], bar=bars[k], pinned=count) + state)
    if pinned:
        term.say("pins_legend")
    if position.variant.direction == "same":
        term.say("same_way")
    if _bot_plays(position.variant):
        term.say("ids", id=m.gnubg_id)
    else:  # GNU Backgammon cannot read these games' positions: Table's Position ID alone
        term.say("position_id", id=position.id)


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
            _game_title(m, term)
            logged = m.apply(OpeningRoll())
            assert isinstance(logged, OpeningRoll) and logged.dice is not None
            dice = {} if m.dice is None else {"d1": max(m.dice), "d2": min(m.dice)}
            term.about(m.on_roll, "opening" if dice else "opening_greek", names, a=names[0],
                       da=logged.dice[0], b=names[1], db=logged.dice[1], starter=names[m.on_roll],
                       **dice)
            continue
        if phase == Phase.GAME_OVER:
            m.apply(NextGame())
            if m.phase != Phase.OPENING:  # Tavli: the last game's winner starts, no opening roll
                _game_title(m, term)
                term.about(m.on_roll, "starts", names)
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
        if result is not None and result.is_draw:
            term.say("draw_game")
        elif result is not None:
            level = {1: "single", 2: "gammon", 3: "backgammon"}[result.level]
            how = term.text[level] if result.how == "checkers" else term.text["how_" + result.how]
            term.about(result.winner, "won_game", names, how=how, points=term.points(result.points))
    winner = m.winner
    if winner is not None:
        term.about(winner, "won_match", names, sa=m.score[0], sb=m.score[1])


def _game_title(m: Match, term: Terminal) -> None:
    """The game's number, with its variant when the match changes variant (Tavli)."""
    if m.series is None:
        term.say("game", n=m.game_number)
    else:
        term.say("game_of", n=m.game_number, game=m.variant.title)


def _bot_plays(variant: Variant) -> bool:
    """Whether ``variant`` is one of the games the web app offers (GNU Backgammon reads their IDs)."""
    return VARIANTS.get(variant.name) == variant


def _computer_plays(variant: Variant) -> bool:
    """Whether the computer plays ``variant`` and advises on it: the web app's games, Plakoto and
    Fevga with the networks that ship for them, and Portes with the standard ones (the board and
    moves are backgammon's; a backgammon it counts as 3 scores 2 there)."""
    if _bot_plays(variant) or variant.name == PORTES.name:
        return True
    from table.bot.net import bundled_path
    from table.rules.greek import game_for

    return game_for(variant.rules) is not None and bundled_path(variant.weights).exists()


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
    p.add_argument("--record", type=Path, default=None, metavar="FILE",
                   help="save the match when it ends or is stopped: as .mat (GNU Backgammon's text), or as "
                        "Table's JSON record for a FILE ending in .json (the only one for Race, Dutch, Acey-Deucey)")
    p.add_argument("--players", nargs=2, default=None, metavar=("NAME1", "NAME2"),
                   help="the players' names")
    p.add_argument("--computer", choices=["easy", "medium", "hard"], default=None, metavar="LEVEL",
                   help="play against the computer at this level (easy, medium or hard); "
                        "you are the first player")
    add_variant_option(p, "the game played: every game starts from its start; tavli plays "
                          "Portes, Plakoto and Fevga in turn (a match to 3, 5 or 7)",
                       (*NOT_OFFERED, *SERIES))
    p.add_argument("--lang", choices=sorted(MESSAGES), default=None,
                   help="language of the messages (default: from LANG, else English)")
    p.set_defaults(func=run)


class RecordPathError(TableError):
    """``--record`` names a file that cannot be written."""


def check_record_path(path: Path, variant: str = "standard") -> None:
    """Refuse, before any play, a record file whose folder is missing or not writable, or a .mat
    file for a game GNU Backgammon cannot hold."""
    folder = path.parent if str(path.parent) else Path(".")
    game = find_game(variant)
    if path.suffix.lower() != ".json" and (isinstance(game, Series)
                                           or any(v.mat_name is None for v in match_games(game))):
        raise RecordPathError(f"--record {path}: a .mat file cannot hold {game.title} (GNU Backgammon has no such "
                              "game); name a .json file for Table's JSON record")
    if path.is_dir():
        raise RecordPathError(f"--record {path}: that is a folder; name a file such as {path / 'match.mat'}")
    if not folder.is_dir():
        raise RecordPathError(f"--record {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise RecordPathError(f"--record {path}: no permission to write there")


def save_record(m: Match, path: Path, term: Terminal) -> None:
    """Write the match to ``path`` (Table's JSON record for a .json file, else .mat); if that fails,
    print the record so it is not lost."""
    text = json.dumps(m.to_json(), indent=1) + "\n" if path.suffix.lower() == ".json" else m.to_mat()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        term.say("save_failed", path=path, error=exc.strerror or exc)
        term.show(text)
        return
    term.say("saved", path=path)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play the match the arguments describe."""
    game = find_game(args.variant)
    if args.computer and not all(_computer_plays(v) for v in match_games(game)):
        raise VariantError(f"the computer does not play {game.title} yet: play it two at one "
                           "keyboard (leave out --computer)")
    if args.record is not None:
        check_record_path(args.record, args.variant)
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
    # A game played without the cube (Race, Acey-Deucey) is played without it whatever the option says.
    cube = not args.no_cube and all(v.cube for v in match_games(game))
    m = Match(args.length, cube, args.seed, players=players, variant=game)
    try:
        play_match(m, agents, term)
    except QuitMatch:
        term.say("bye")
    finally:
        if args.record is not None:
            save_record(m, args.record, term)
    return 0
