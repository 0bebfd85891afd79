"""``table analyse``: the bot's review of a recorded match (.mat, SGF or Table's JSON).

Prints each decision where equity was lost, marked ``?!`` (doubtful),
``?`` (error) or ``??`` (blunder), then each player's totals: error rate and
rating, luck, cube errors.  ``--json`` prints the review object instead.
Everything a person reads comes from ``MESSAGES`` in Romanian and English,
kept the way ``table play`` keeps its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from table.bot.review import DEFAULT_DEPTH, Decision, PlayerTotals, Review, review_record
from table.cli.play import _default_lang, plural_form
from table.match.match import read_record

SHOWN_LOSS = 0.0005
"""Decisions losing less than this are equal to the best at the precision printed."""

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "title": "Review of {a} against {b}, {what}, by the computer at {depth} ({level})",
        "match": "{length}-point match",
        "money": "money session",
        "ply": "{n} ply",
        "level_0": "Medium's judgement",
        "level_1": "Hard's judgement",
        "level_2": "a deeper search",
        "game": "Game {n}",
        "clean": "  no decision lost equity",
        "line": "  {mark:<2} move {move:>2}  {name}: {what}; better: {best} ({loss})",
        "play": "{dice}: {play}",
        "no_double": "no double",
        "double": "double",
        "take": "take",
        "pass": "pass",
        "totals": "Totals",
        "rate": "{name}: error rate {rate} ({rating}); decisions: {n}, equity lost: {loss}",
        "no_rate": "{name}: no decision to weigh",
        "marks": "  doubtful: {doubtful}, errors: {errors}, blunders: {blunders}",
        "cube": "  cube decisions: {n}, of them wrong: {errors}; equity lost: {loss}",
        "luck": "  luck: {luck} (rolls: {rolls})",
        "supernatural": "supernatural",
        "world_class": "world class",
        "expert": "expert",
        "advanced": "advanced",
        "intermediate": "intermediate",
        "beginner": "beginner",
        "progress": "analysing: {done}/{total}",
    },
    "ro": {
        "title": "Analiza partidei {a} contra {b}, {what}, făcută de calculator la {depth} ({level})",
        "match": "partidă la {points}",
        "money": "joc fără limită de puncte",
        "ply": "adâncimea {n}",
        "level_0": "judecata nivelului Mediu",
        "level_1": "judecata nivelului Greu",
        "level_2": "o căutare mai adâncă",
        "game": "Jocul {n}",
        "clean": "  nicio decizie n-a pierdut echitate",
        "line": "  {mark:<2} mutarea {move:>2}  {name}: {what}; mai bine: {best} ({loss})",
        "play": "{dice}: {play}",
        "no_double": "fără dublare",
        "double": "dublare",
        "take": "accept",
        "pass": "refuz",
        "totals": "Totaluri",
        "rate": "{name}: rata erorilor {rate} ({rating}); decizii: {n}, echitate pierdută: {loss}",
        "no_rate": "{name}: nicio decizie de cântărit",
        "marks": "  îndoielnice: {doubtful}, greșeli: {errors}, gafe: {blunders}",
        "cube": "  decizii la cub: {n}, dintre care greșite: {errors}; echitate pierdută: {loss}",
        "luck": "  noroc: {luck} (aruncări: {rolls})",
        "supernatural": "supranatural",
        "world_class": "clasă mondială",
        "expert": "expert",
        "advanced": "avansat",
        "intermediate": "intermediar",
        "beginner": "începător",
        "progress": "analizez: {done}/{total}",
    },
}

_CUBE_WORDS = {"no double": "no_double", "double": "double", "take": "take", "pass": "pass"}


class Report:
    """The review written out in one language."""

    def __init__(self, lang: str, out: TextIO) -> None:
        self.lang = lang
        self.text = MESSAGES[lang]
        self.out = out

    def line(self, key: str, **values: object) -> str:
        return self.text[key].format(**values)

    def say(self, key: str, **values: object) -> None:
        print(self.line(key, **values), file=self.out)

    def number(self, x: float, fmt: str) -> str:
        text = format(x, fmt)
        return text.replace(".", ",") if self.lang == "ro" else text

    def points(self, n: int) -> str:
        """``n`` points in Romanian words (1 punct, 5 puncte, 21 de puncte); English needs none."""
        return f"{n} " + {"one": "punct", "few": "puncte"}.get(plural_form(n, "ro"), "de puncte")

    def action(self, d: Decision, what: str) -> str:
        if d.kind != "play":
            return self.text[_CUBE_WORDS[what]]
        dice = f"{max(d.dice)}{min(d.dice)}" if d.dice else ""
        return self.line("play", dice=dice, play=what or "-")

    def write(self, review: Review) -> None:
        what = (self.line("match", length=review.length, points=self.points(review.length))
                if review.length else self.text["money"])
        a, b = review.players
        self.say("title", a=a, b=b, what=what, depth=self.line("ply", n=review.depth),
                 level=self.text[f"level_{review.depth}"])
        games = sorted({d.game for d in review.decisions})
        for game in games:
            print(file=self.out)
            self.say("game", n=game)
            shown = [d for d in review.decisions if d.game == game and d.loss >= SHOWN_LOSS]
            if not shown:
                self.say("clean")
            for d in shown:
                self.say("line", mark=d.mark, move=d.move, name=review.players[d.player],
                         what=self.action(d, d.played), best=self.action(d, d.best),
                         loss=self.number(-d.loss, "+.3f"))
        print(file=self.out)
        self.say("totals")
        for t in review.totals:
            self.totals(t)

    def totals(self, t: PlayerTotals) -> None:
        if t.error_rate is None or t.rating is None:
            self.say("no_rate", name=t.name)
        else:
            self.say("rate", name=t.name, rate=self.number(t.error_rate, ".1f"),
                     rating=self.text[t.rating], n=t.decisions, loss=self.number(t.loss, ".3f"))
            self.say("marks", doubtful=t.doubtful, errors=t.errors, blunders=t.blunders)
            self.say("cube", n=t.cube_decisions, errors=t.cube_errors,
                     loss=self.number(t.cube_loss, ".3f"))
        self.say("luck", luck=self.number(t.luck, "+.3f"), rolls=t.rolls)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``analyse`` subcommand."""
    p = sub.add_parser(
        "analyse", help="the computer's review of a recorded match: errors, error rates, luck",
        description="Weigh every checker play and cube decision of a match recorded as .mat "
                    "(GNU Backgammon, eXtreme Gammon, Jellyfish), SGF or Table's JSON.")
    p.add_argument("file", type=Path, metavar="FILE", help="the match record (.mat, .sgf, .json)")
    p.add_argument("--depth", type=int, choices=(0, 1, 2), default=DEFAULT_DEPTH,
                   help=f"search depth in plies: 0 = Medium's judgement, 1 = Hard's "
                        f"(default {DEFAULT_DEPTH}), 2 = slower still")
    p.add_argument("--json", action="store_true", help="print the review as a JSON object")
    p.add_argument("--lang", choices=sorted(MESSAGES), default=None,
                   help="language of the text (default: from LANG, else English)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Review the file the arguments name and print the result."""
    out = stdout or sys.stdout
    report = Report(args.lang or _default_lang(), out)
    text = read_record(args.file)
    progress = None
    if stdout is None and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            end = "\n" if done == total else ""
            print("\r" + report.line("progress", done=done, total=total), end=end,
                  file=sys.stderr, flush=True)
    review = review_record(text, args.depth, progress)
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False, indent=1), file=out)
    else:
        report.write(review)
    return 0
