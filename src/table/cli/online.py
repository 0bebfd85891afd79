"""``table online``: a bot that plays people (or other bots) on a Table server, through the online protocol.

It registers a guest marked as a bot, creates a public table (``--create
LENGTH``) or joins one (``--join TABLE``), plays the match to its end and
prints the final score.  The client itself is ``table.client``.
"""

from __future__ import annotations

import argparse
import os
from typing import Callable

from table.cli.engine import add_variant_option
from table.cli.play import plural_form
from table.rules.variant import STANDARD, find_variant
from table.server.play.clock import PRESETS
from table.client import OnlineClient, Outcome
from table.bot.bot import LEVELS
from table.server.play.game import MATCH_LENGTHS

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "registered": "Playing as {name} (a bot, {level}).",
        "created": "Table {table} is open ({length}, clock {clock}); waiting for an opponent...",
        "single": "a single game",
        "match": "a {n}-point match",
        "playing": "The match has started: game {game}.",
        "score": "Final score: {a} {sa}, {b} {sb}.",
        "won": "{who} won the match.",
        "forfeit": "{who} lost the match by forfeit: {why}.",
        "left": "left the table",
        "timeout": "ran out of time",
        "away": "was away too long",
        "points": "Points now: {a} {pa}, {b} {pb}.",
    },
    "ro": {
        "registered": "Joci ca {name} (un bot, {level}).",
        "created": "Masa {table} e deschisă ({length}, ceas {clock}); aștepți un adversar...",
        "single": "un singur joc",
        "match": "partidă de {n} {points}",
        "playing": "Partida a început: jocul {game}.",
        "score": "Scor final: {a} {sa}, {b} {sb}.",
        "won": "{who} a câștigat partida.",
        "forfeit": "{who} a pierdut partida din oficiu: {why}.",
        "left": "a plecat de la masă",
        "timeout": "i-a expirat timpul",
        "away": "a lipsit prea mult",
        "points": "Puncte acum: {a} {pa}, {b} {pb}.",
    },
}


def _lang() -> str:
    env = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return "ro" if env.lower().startswith("ro") else "en"


def _length(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value not in MATCH_LENGTHS:
        raise argparse.ArgumentTypeError(f"a match is 1, 3, 5, ..., 21 points, not {text!r}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``online`` subcommand."""
    p = sub.add_parser("online", help="a bot that plays a match on a Table server, through the online protocol")
    p.add_argument("--server", required=True, help="the server, e.g. http://127.0.0.1:8000")
    p.add_argument("--name", required=True, help="the bot's nickname (2-20 letters, digits, _ or -)")
    p.add_argument("--level", choices=LEVELS, default="medium", help="how well it plays (default medium)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--create", type=_length, metavar="LENGTH", help="open a public table for a LENGTH-point match")
    what.add_argument("--join", metavar="TABLE", help="join this table (its id, or a private table's invite code)")
    p.add_argument("--clock", choices=sorted(PRESETS), default="normal", help="the clock of a new table")
    p.add_argument("--no-cube", action="store_true", help="a new table without the doubling cube")
    add_variant_option(p, "the game played at a new table")
    p.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                   help="mean seconds to wait before each decision, like a person (default 0)")
    p.add_argument("--lang", choices=sorted(MESSAGES), default=None, help="language of the messages")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = MESSAGES[args.lang or _lang()]

    def say(key: str, **fields: object) -> None:
        print(text[key].format(**fields), flush=True)

    client = OnlineClient(args.server, args.level, think_time=max(0.0, args.think))
    client.register(args.name)
    say("registered", name=client.name, level=args.level)
    if args.create is not None:
        standard = args.variant == STANDARD.name
        table = client.create(args.create, args.clock, not args.no_cube, None if standard else args.variant)
        length = _length_text(text, args.create)
        say("created", table=table["id"], clock=args.clock,
            length=length if standard else f"{find_variant(args.variant).title}, {length}")
        game = client.wait_for_game(table["id"])
    else:
        game = client.join(args.join)
    say("playing", game=game)
    report(client.play(game), say, text)
    return 0


def _length_text(text: dict[str, str], n: int) -> str:
    """'a single game' or 'a 5-point match' (Romanian: 'partidă de 5 puncte', 'partidă de 21 de puncte')."""
    if n == 1:
        return text["single"]
    return text["match"].format(n=n, points="de puncte" if plural_form(n, "ro") == "other" else "puncte")


def report(outcome: Outcome, say: Callable[..., None], text: dict[str, str]) -> None:
    """Print the final score, the winner (or who forfeited) and both players' points."""
    (a, b), (sa, sb), (pa, pb) = outcome.names, outcome.score, outcome.points
    say("score", a=a, sa=sa, b=b, sb=sb)
    if outcome.forfeit:
        say("forfeit", who=outcome.names[outcome.forfeit["seat"]], why=text[outcome.forfeit["why"]])
    elif outcome.winner is not None:
        say("won", who=outcome.names[outcome.winner])
    say("points", a=a, pa=pa, b=b, pb=pb)

