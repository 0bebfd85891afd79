"""``table show`` and ``table moves``: look at a position and its legal plays."""

from __future__ import annotations

import argparse

from table.rules.diagram import render
from table.rules.dice import parse_dice
from table.rules.position import Position


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``show`` and ``moves`` subcommands."""
    show = sub.add_parser("show", help="draw a position given by its GNU Backgammon Position ID")
    show.add_argument("position_id", help="Position ID, e.g. 4HPwATDgc/ABMA")
    show.set_defaults(func=_show)

    moves = sub.add_parser("moves", help="list every legal play of a roll")
    moves.add_argument("position_id", help="Position ID of the player on roll")
    moves.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    moves.set_defaults(func=_moves)


def _show(args: argparse.Namespace) -> int:
    print(render(Position.from_id(args.position_id)))
    return 0


def _moves(args: argparse.Namespace) -> int:
    position = Position.from_id(args.position_id)
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
