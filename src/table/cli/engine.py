"""``table show`` and ``table moves``: look at a position and its legal plays."""

from __future__ import annotations

import argparse

from table.rules.diagram import render
from table.rules.dice import parse_dice
from table.rules.position import Position
from table.rules.variant import ENGINE_ONLY, MATCH_ONLY, VARIANTS

NOT_OFFERED = (*ENGINE_ONLY, *MATCH_ONLY)
"""Games the engine and the terminal play that the web app does not offer yet (Plakoto, Fevga, Portes)."""


def add_variant_option(parser: argparse.ArgumentParser, what: str, extra: tuple[str, ...] = ()) -> None:
    """The ``--variant`` option: a name from ``table.rules.variant.VARIANTS``, or one of ``extra``."""
    parser.add_argument("--variant", choices=[*sorted(VARIANTS), *extra], default="standard",
                        help=f"{what} (default standard)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``show`` and ``moves`` subcommands."""
    show = sub.add_parser("show", help="draw a position given by its GNU Backgammon Position ID, "
                                       "or a variant's start")
    show.add_argument("position_id", nargs="?", default=None,
                      help="Position ID, e.g. 4HPwATDgc/ABMA (default: the variant's start)")
    add_variant_option(show, "the game the position belongs to", NOT_OFFERED)
    show.set_defaults(func=_show)

    moves = sub.add_parser("moves", help="list every legal play of a roll")
    moves.add_argument("position_id", help="Position ID of the player on roll")
    moves.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    add_variant_option(moves, "the game the position belongs to", NOT_OFFERED)
    moves.set_defaults(func=_moves)


def _show(args: argparse.Namespace) -> int:
    if args.position_id is None:
        position = Position.initial(args.variant)
    else:
        position = Position.from_id(args.position_id, args.variant)
    print(render(position))
    return 0


def _moves(args: argparse.Namespace) -> int:
    position = Position.from_id(args.position_id, args.variant)
    dice = parse_dice(args.dice)
    plays = position.legal_plays(dice)
    if not plays:
        print(f"No legal play with {dice[0]}-{dice[1]}: the turn passes.")
        return 0
    width = max(len(str(p)) for p in plays)
    print(f"{len(plays)} legal plays with {dice[0]}-{dice[1]}:")
    for play in plays:
        print(f"  {str(play):<{width}}  {play.position.id}")
    return 0
