"""Match records: a ``Match`` written as ``.mat`` or SGF, and such a record replayed.

The text formats live in ``table.notation``; this module walks a match's log
to build them, and replays a record through the rules, so a record whose
moves are not legal is rejected with the line that is wrong.  An SGF record
is first turned into the ``.mat`` form (the same entries: rolls and moves,
cube actions, the points won), so both are replayed by one piece of code.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING

from table.errors import RecordError, RecordWarning, TableError
from table.match.actions import (
    AcceptResignation,
    Action,
    Double,
    Drop,
    Move,
    NextGame,
    OpeningRoll,
    RecordedResult,
    Resign,
    Roll,
    Take,
)
from table.match.state import Phase, State, plays_by_text
from table.notation.mat import MatEntry, MatGame, MatRecord, format_mat, parse_mat
from table.notation.sgf import SgfGame, SgfMove, format_sgf, parse_sgf_lines
from table.rules.dice import DiceSource
from table.rules.position import Play
from table.rules.variant import VARIANTS, Variant, find_variant

if TYPE_CHECKING:
    from table.match.match import Match


def _play_of(state: State, text: str) -> Play | None:
    assert state.dice is not None
    return plays_by_text(state.position, state.dice).get(text) if text else None


def _mat_move(play: Play | None) -> str:
    """A play as .mat writes it: one step per die, 25 for the bar, 0 for off."""
    if play is None:
        return ""
    return " ".join(f"{a}/{b}{'*' if hit else ''}" for (a, b), hit in zip(play.steps, play.hits))


def _games(m: Match) -> list[tuple[State, list[tuple[State, Action, State]]]]:
    """The log cut into games: each game's first state and its (before, action, after) triples."""
    history = m.history
    afters = [pair[0] for pair in history[1:]] + [m.state]
    games: list[tuple[State, list[tuple[State, Action, State]]]] = [(m.start, [])]
    for (state, action), after in zip(history, afters):
        if isinstance(action, NextGame):
            games.append((after, []))
            continue
        games[-1][1].append((state, action, after))
    return games


def _resigned_after_rolling(state: State, action: Action) -> bool:
    """Whether ``action`` accepts a resignation its offerer made with the dice rolled."""
    return isinstance(action, AcceptResignation) and state.resume_phase == Phase.MOVE


def match_to_mat(m: Match) -> str:
    """The ``.mat`` text of ``m``.  Rejected resignations are not part of the format.

    A resignation made after rolling is written as GNU Backgammon writes it:
    the roll with no move, then the opponent's ``Wins N points``.
    """
    if m.setup_ids is not None:
        raise RecordError("a match set up from a Position ID cannot be written as .mat, "
                          "which starts every game from the opening position")
    mat_name = m.variant.mat_name
    _refuse_series(m, ".mat")
    _refuse_variant(m.variant, ".mat", mat_name)
    assert mat_name is not None
    games: list[MatGame] = []
    for first, pairs in _games(m):
        entries: list[MatEntry] = []
        for state, action, after in pairs:
            player = state.on_roll
            if isinstance(action, Move):
                entries.append(MatEntry(player, "roll", dice=state.dice,
                                        move=_mat_move(_play_of(state, action.play))))
            elif isinstance(action, Double):
                entries.append(MatEntry(player, "double", value=state.cube_value * 2))
            elif isinstance(action, Take):
                entries.append(MatEntry(1 - player, "take"))
            elif isinstance(action, Drop):
                entries.append(MatEntry(1 - player, "drop"))
            elif _resigned_after_rolling(state, action):
                entries.append(MatEntry(player, "roll", dice=state.dice))
            if after.result is not None and state.result is None:
                entries.append(MatEntry(after.result.winner, "win", value=after.result.points))
        games.append(MatGame(first.game_number, first.score, tuple(entries)))
    headers = [("Site", "Table"), ("Player 1", m.players[0]), ("Player 2", m.players[1]),
               ("Variation", mat_name),
               ("Crawford", "On" if m.length else "Off"),
               ("Jacoby", "On" if m.jacoby else "Off")]
    if not m.cube_enabled:
        headers.append(("CubeLimit", "1"))
    return format_mat(MatRecord(m.length, m.players, tuple(games), tuple(headers)))


def match_from_mat(text: str, *, seed: int | None = None,
                   dice: DiceSource | None = None) -> Match:
    """Replay a ``.mat`` record; ``RecordError`` names the line of the first problem."""
    return _replay_record(parse_mat(text), seed, dice)


def match_from_sgf(text: str, *, seed: int | None = None,
                   dice: DiceSource | None = None) -> Match:
    """Replay an SGF record (``GM[6]``); ``RecordError`` names the line of the first problem."""
    return _replay_record(_sgf_record(text), seed, dice)


def _sgf_record(text: str) -> MatRecord:
    """The SGF games as a ``.mat`` record, with the SGF text's line numbers."""
    parsed = parse_sgf_lines(text)
    first = parsed[0][0]
    games = []
    for game, lines in parsed:
        if (game.length, game.players) != (first.length, first.players):
            raise RecordError(f"line {lines[0]}: game {game.index + 1} is not part of the same "
                              "match (its length or players differ)")
        entries: list[MatEntry] = []
        cube = 1
        for move, line in zip(game.moves, lines[1:]):
            if move.kind in ("roll", "dice"):
                steps = " ".join(f"{a}/{b}" for a, b in move.steps)
                entries.append(MatEntry(move.player, "roll", dice=move.dice, move=steps, line=line))
            elif move.kind == "double":
                entries.append(MatEntry(move.player, "double", value=cube * 2, line=line))
            else:
                if move.kind == "take":
                    cube *= 2
                entries.append(MatEntry(move.player, move.kind, line=line))
        if game.result:
            won = re.fullmatch(r"([WB])\+(\d+)R?", game.result.strip())
            if not won:
                raise RecordError(f"line {lines[0]}: cannot read the result RE[{game.result}]")
            entries.append(MatEntry("WB".index(won.group(1)), "win", value=int(won.group(2)),
                                    line=lines[-1]))
        games.append(MatGame(game.index + 1, game.score, tuple(entries), lines[0]))
    headers: tuple[tuple[str, str], ...] = (
        ("CubeLimit", "1" if "NoCube" in first.rules else "64"),
        ("Jacoby", "On" if "Jacoby" in first.rules else "Off"))
    # GNU Backgammon names the variation among the rules (RU[Crawford:Nackgammon]).
    named = [r for r in first.rules if re.fullmatch(r"\w*gammon\d*", r, re.IGNORECASE)]
    if len(named) > 1:
        raise RecordError(f"line {parsed[0][1][0]}: the rules name two variations: {', '.join(named)}")
    if named:
        headers += (("Variation", named[0]),)
    return MatRecord(first.length, first.players, tuple(games), headers)


def _refuse_variant(variant: Variant, form: str, name: object) -> None:
    """Refuse a variant the format has no name for (``name`` empty): GNU Backgammon has none.

    >>> _refuse_variant(find_variant("acey-deucey"), ".mat", None)
    Traceback (most recent call last):
    ...
    table.errors.RecordError: .mat cannot hold a match of Acey-Deucey: GNU Backgammon has no such variant; save it as Table's JSON record (Match.to_json)
    """
    if not name:
        raise RecordError(f"{form} cannot hold a match of {variant.title}: GNU Backgammon has no "
                          "such variant; save it as Table's JSON record (Match.to_json)")


def _refuse_series(m: Match, form: str) -> None:
    """Refuse a match whose games change variant (Tavli): GNU Backgammon's records hold one game."""
    if m.series is not None:
        raise RecordError(f"{form} cannot hold a {m.series.title} match: its games change variant "
                          f"({', '.join(v.title for v in m.series.games)}), which GNU Backgammon "
                          "has not; save it as Table's JSON record (Match.to_json)")


def _record_variant(record: MatRecord) -> Variant:
    """The variant a record's Variation names (standard backgammon when it names none)."""
    name = record.header("Variation")
    if name is None:
        return VARIANTS["standard"]
    known = ", ".join(v.mat_name for v in VARIANTS.values() if v.mat_name)
    try:
        variant = find_variant(name)
    except TableError:
        raise RecordError(f"the record's variation {name!r} is not one Table plays ({known})") from None
    if variant.mat_name is None:  # a Table name such as "race": no GNU Backgammon record holds it
        raise RecordError(f"the record's variation {name!r} is {variant.title}, which .mat and SGF "
                          f"records cannot hold (GNU Backgammon has no such variant; its variations "
                          f"are {known}); Table keeps such games as JSON records")
    return variant


def _replay_record(record: MatRecord, seed: int | None, dice: DiceSource | None) -> Match:
    from table.match.match import Match

    cube = record.header("CubeLimit") != "1"
    jacoby = (record.header("Jacoby") or "").lower() == "on" if record.length == 0 else False
    variant = _record_variant(record)
    try:
        m = Match(record.length, cube, seed, dice=dice, jacoby=jacoby, players=record.players,
                  variant=variant)
    except TableError as exc:
        raise RecordError(f"the match settings cannot be played: {exc}") from None
    for k, game in enumerate(record.games):
        if k:
            if m.phase != Phase.GAME_OVER:
                raise RecordError(f"line {game.line}: game {game.number} starts, but the game "
                                  "before it has no result ('Wins N points')")
            m.apply(NextGame())
        if game.number != m.game_number:
            raise RecordError(f"line {game.line}: expected game {m.game_number}, found game {game.number}")
        if game.score != m.score:
            raise RecordError(
                f"line {game.line}: the record gives the score {game.score[0]}-{game.score[1]}, "
                f"but the games before make it {m.score[0]}-{m.score[1]}")
        for i, entry in enumerate(game.entries):
            following = game.entries[i + 1] if i + 1 < len(game.entries) else None
            try:
                _replay(m, entry, following, record.players)
            except RecordError:
                raise
            except TableError as exc:
                raise RecordError(f"line {entry.line}: {exc}") from None
    return m


def _replay(m: Match, e: MatEntry, following: MatEntry | None, players: tuple[str, str]) -> None:
    def fail(message: str) -> RecordError:
        return RecordError(f"line {e.line}: {message}")

    if m.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and e.kind != "win":
        raise fail("the game is already over")
    if e.kind == "win":
        result = m.game_result
        if result is None:
            # No move ended the game, so the loser resigned.
            loser = 1 - e.player
            level, rest = divmod(e.value, m.cube_value)
            problem = None
            if m.turn != loser or m.phase not in (Phase.ROLL, Phase.MOVE, Phase.TAKE):
                problem = (f"{players[e.player]} wins, but the game is not over and "
                           f"{players[loser]} was not the one to play")
            elif rest or not 1 <= level <= 3:
                problem = (f"{e.value} points is not a single, gammon or backgammon "
                           f"at cube {m.cube_value}")
            if problem is None:
                m.apply(Resign(level))
                m.apply(AcceptResignation())
            else:
                # Programs write such endings (eXtreme Gammon Mobile does); GNU Backgammon reads
                # them as written, and so does Table, saying so: the file's score stands.
                warnings.warn(RecordWarning(f"line {e.line}: {problem}; read as the record "
                                            f"states: {players[e.player]} wins {e.value}"),
                              stacklevel=2)
                m.apply(RecordedResult(e.player, e.value))
            result = m.game_result
            assert result is not None
        if result.points != e.value:
            raise fail(f"the game is worth {result.points} point(s), the record says {e.value}")
        return
    turn = m.turn
    if m.phase != Phase.OPENING and turn != e.player:
        who = players[turn] if turn is not None else "nobody"
        raise fail(f"it is {who}'s turn, but the entry is in {players[e.player]}'s column")
    if e.kind == "roll":
        assert e.dice is not None
        if m.phase == Phase.OPENING:
            a, b = e.dice
            if a == b:
                raise fail(f"the opening roll cannot be a double ({a}{b})")
            mine, theirs = max(a, b), min(a, b)
            m.apply(OpeningRoll((mine, theirs) if e.player == 0 else (theirs, mine)))
        else:
            m.apply(Roll(e.dice))
        if not _resigned_with_dice(m, e, following):
            m.apply(Move(e.move))
    elif e.kind == "double":
        if e.value != m.cube_value * 2:
            raise fail(f"the cube is at {m.cube_value}, so a double takes it to "
                       f"{m.cube_value * 2}, not {e.value}")
        m.apply(Double())
    elif e.kind == "take":
        m.apply(Take())
    elif e.kind == "drop":
        m.apply(Drop())


def _resigned_with_dice(m: Match, e: MatEntry, following: MatEntry | None) -> bool:
    """Whether the roll ``e`` (just applied to ``m``) was left unplayed because its roller resigned.

    The opponent's ``Wins`` right after the roll says so, as GNU Backgammon writes
    it: the roll with no move.  GNU Backgammon reads such a roll with a single legal
    play as that play, and writes it back so; the roller resigned all the same, as
    nobody may resign out of turn.
    """
    if following is None or following.kind != "win" or following.player == e.player:
        return False
    if not e.move:
        return True
    assert m.dice is not None
    plays = plays_by_text(m.position, m.dice)
    if len(plays) != 1:
        return False
    try:
        return str(m.position.parse_play(e.move, m.dice)) in plays
    except TableError:
        return False


def _sgf_steps(play: Play | None) -> tuple[tuple[int, int], ...]:
    return () if play is None else play.steps


def match_to_sgf(m: Match) -> str:
    """SGF (``GM[6]``) for ``m``: one game tree per game, as GNU Backgammon writes them."""
    if m.setup_ids is not None:
        raise RecordError("a match set up from a Position ID cannot be written as SGF game records")
    _refuse_series(m, "SGF")
    _refuse_variant(m.variant, "SGF", m.variant.sgf_name or m.variant == VARIANTS["standard"])
    games: list[SgfGame] = []
    for first, pairs in _games(m):
        moves: list[SgfMove] = []
        result: str | None = None
        for state, action, after in pairs:
            player = state.on_roll
            if isinstance(action, Move):
                moves.append(SgfMove(player, "roll", state.dice, _sgf_steps(_play_of(state, action.play))))
            elif isinstance(action, Double):
                moves.append(SgfMove(player, "double"))
            elif isinstance(action, Take):
                moves.append(SgfMove(1 - player, "take"))
            elif isinstance(action, Drop):
                moves.append(SgfMove(1 - player, "drop"))
            elif _resigned_after_rolling(state, action):
                moves.append(SgfMove(player, "dice", state.dice))
            if after.result is not None and state.result is None:
                r = after.result
                result = f"{'WB'[r.winner]}+{r.points}{'R' if r.how == 'resign' else ''}"
        rules: list[str] = []
        if not m.cube_enabled:
            rules.append("NoCube")
        if m.length:
            rules += ["Crawford", "CrawfordGame"] if first.crawford else ["Crawford"]
        if m.jacoby:
            rules.append("Jacoby")
        if m.variant.sgf_name:
            rules.append(m.variant.sgf_name)
        games.append(SgfGame(players=m.players, length=m.length, index=first.game_number - 1,
                             score=first.score, rules=tuple(rules), result=result,
                             moves=tuple(moves)))
    return format_sgf(games)
