"""The post-game review: planted blunders are found, best play costs nothing, ratings, luck."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.bot import Bot
from table.bot.review import ReviewError, rating, review_match, review_record
from table.errors import TableError
from table.match import Match, Move, OpeningRoll, Phase, Roll

DATA = Path(__file__).parent.parent / "notation" / "data"


def _bot_game(m: Match, bot: Bot, depth: int, turns: int, plant: int | None = None,
              dice: dict[int, tuple[int, int]] | None = None) -> tuple[str, float] | None:
    """Play ``turns`` turns of best plays (no doubles); on turn ``plant`` play the worst one.

    ``dice`` fixes each player's roll.  Returns the planted play and its cubeless
    loss against the best, from ``Bot.ranked_plays``.
    """
    planted = None
    m.apply(OpeningRoll((6, 1)) if dice else OpeningRoll())
    turn = 0
    while turn < turns and m.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
        if m.phase == Phase.ROLL:
            m.apply(Roll(dice[m.on_roll]) if dice else Roll())
            continue
        assert m.phase == Phase.MOVE and m.dice is not None
        ranked = bot.ranked_plays(m.position, m.dice, depth=depth)
        turn += 1
        if not ranked:
            m.apply(Move(""))
        elif turn == plant:
            worst, best = ranked[-1], ranked[0]
            planted = (str(worst[0]), best[1] - worst[1])
            m.apply(Move(str(worst[0])))
        else:
            m.apply(Move(str(ranked[0][0])))
    return planted


def _plant_turn(seed: int, bot: Bot) -> int:
    """The first turn (from the third) whose worst play loses over a point of cubeless equity."""
    m = Match(length=0, cube=False, jacoby=False, seed=seed)
    m.apply(OpeningRoll())
    turn = 0
    while True:
        if m.phase == Phase.ROLL:
            m.apply(Roll())
            continue
        assert m.dice is not None
        ranked = bot.ranked_plays(m.position, m.dice, depth=1)
        turn += 1
        if turn >= 3 and ranked and ranked[0][1] - ranked[-1][1] > 1.0:
            return turn
        m.apply(Move(str(ranked[0][0])) if ranked else Move(""))


@pytest.fixture(scope="module")
def bot() -> Bot:
    return Bot("medium", depth=1)


def test_a_planted_blunder_is_flagged_at_its_move_with_its_loss(bot: Bot) -> None:
    turn = _plant_turn(11, bot)
    m = Match(length=0, cube=False, jacoby=False, seed=11)
    planted = _bot_game(m, bot, depth=1, turns=turn + 1, plant=turn)
    assert planted is not None
    play, loss = planted
    review = review_record(m.to_mat(), depth=1)
    flagged = [d for d in review.decisions if d.mark == "??"]
    assert [(d.game, d.move, d.played) for d in flagged] == [(1, turn, play)]
    # Without a cube, money equity is the cubeless equity that ranked_plays gives.
    assert flagged[0].loss == pytest.approx(loss, abs=1e-6)
    blunderer = flagged[0].player
    assert review.totals[blunderer].blunders == 1
    assert review.totals[1 - blunderer].blunders == 0


def test_a_planted_blunder_in_a_match_with_the_cube_is_flagged(bot: Bot) -> None:
    turn = _plant_turn(11, bot)
    m = Match(length=5, seed=11)
    planted = _bot_game(m, bot, depth=1, turns=turn + 1, plant=turn)
    assert planted is not None
    review = review_record(m.to_sgf(), depth=1)
    at_turn = [d for d in review.decisions if d.kind == "play" and d.move == turn]
    assert len(at_turn) == 1
    assert at_turn[0].played == planted[0] and at_turn[0].mark == "??"
    assert at_turn[0].best != planted[0]


def test_a_game_of_best_plays_has_error_rate_zero() -> None:
    bot = Bot("medium", depth=0)
    m = Match(length=0, cube=False, jacoby=False, seed=4)
    _bot_game(m, bot, depth=0, turns=200)
    assert m.phase == Phase.GAME_OVER
    review = review_match(m, depth=0)
    assert all(d.loss == 0.0 and d.mark == "" for d in review.decisions)
    for t in review.totals:
        assert t.decisions > 5 and t.error_rate == 0.0 and t.rating == "supernatural"


@pytest.mark.parametrize("rate, word", [
    (0.0, "supernatural"), (1.99, "supernatural"), (2.0, "world_class"), (4.99, "world_class"),
    (5.0, "expert"), (7.99, "expert"), (8.0, "advanced"), (11.99, "advanced"),
    (12.0, "intermediate"), (17.99, "intermediate"), (18.0, "beginner"), (60.0, "beginner"),
])
def test_rating_words_at_the_boundaries(rate: float, word: str) -> None:
    assert rating(rate) == word


def test_luck_favours_the_player_who_rolls_doubles_in_a_race() -> None:
    # A race in both home boards: the more pips a roll moves, the better it is,
    # so 44 beats the average roll and 21 falls short of it.
    from table.rules.position import Position

    m = Match(length=0, cube=False, jacoby=False, seed=1)
    m.apply(OpeningRoll((3, 1)))
    m.apply(Move("8/5 6/5"))
    race = Position.from_checkers({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    m = Match.from_ids(race.id, m.match_id, cube=False, jacoby=False)
    lucky = m.on_roll
    for _ in range(3):
        m.apply(Roll((4, 4)))
        m.apply(m.legal_actions()[0])
        m.apply(Roll((2, 1)))
        m.apply(m.legal_actions()[0])
    review = review_match(m, depth=0)
    good, bad = review.totals[lucky], review.totals[1 - lucky]
    assert good.rolls == 3 and bad.rolls == 3
    assert good.luck > 0.0 > bad.luck


def test_the_progress_callback_counts_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    review_record((DATA / "gnubg_resign_after_roll.mat").read_text(), depth=0,
                  progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == list(range(1, len(seen) + 1))


def test_the_review_is_json_ready_and_names_positions() -> None:
    import json

    from table.rules.position import Position

    review = review_record((DATA / "gnubg_3pt.mat").read_text(), depth=0)
    data = json.loads(json.dumps(review.to_json()))
    assert data["players"] == ["gnubg", "root"] and data["length"] == 3
    first = data["decisions"][0]
    assert set(first) >= {"game", "move", "player", "dice", "position_id", "match_id",
                          "played", "best", "loss", "mark"}
    # The position ID decodes, and the play made is legal there.
    played = [d for d in data["decisions"] if d["kind"] == "play"][0]
    Position.from_id(played["position_id"]).parse_play(played["played"], played["dice"])


def test_bad_input_is_refused() -> None:
    with pytest.raises(ReviewError, match="depth"):
        review_record((DATA / "gnubg_3pt.mat").read_text(), depth=3)
    with pytest.raises(TableError):
        review_record("this is not a match\n")
    with pytest.raises(TableError):
        review_record("(;FF[4]GM[1])")


def test_a_worker_process_gives_the_same_review_and_reports_progress() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from table.bot.review import QueueProgress

    text = (DATA / "gnubg_resign_after_roll.mat").read_text()
    here = review_record(text, depth=0)
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(1, mp_context=context) as pool:
        queue = manager.Queue()
        there = pool.submit(review_record, text, 0, QueueProgress(queue)).result(timeout=120)
        seen = []
        while not queue.empty():
            seen.append(queue.get())
    assert there == here
    assert seen and seen[-1][0] == seen[-1][1]


def test_passing_an_early_double_is_a_cube_blunder() -> None:
    from table.match import Double, Drop

    bot = Bot("medium", depth=0)
    m = Match(length=0, cube=True, jacoby=False, seed=5)
    _bot_game(m, bot, depth=0, turns=2)
    assert m.phase == Phase.ROLL
    doubler = m.on_roll
    # The bot's own cube advice, asked through its public method: this is a take.
    d = bot.cube_decision(m.position, 1, "centre")
    assert d.take and d.double_pass - d.double_take > 0.16
    m.apply(Double())
    m.apply(Drop())
    review = review_match(m, depth=0)
    answer = [x for x in review.decisions if x.kind == "take"]
    assert len(answer) == 1
    taker = answer[0]
    assert (taker.player, taker.played, taker.best, taker.mark) == (1 - doubler, "pass", "take", "??")
    assert taker.loss == pytest.approx(d.double_pass - d.double_take, abs=1e-6)
    assert review.totals[1 - doubler].cube_errors == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_matches_are_reviewed_consistently(seed: int) -> None:
    """Random legal actions (doubles, drops, resignations, Crawford games): the figures hang together."""
    import random

    rng = random.Random(seed)
    m = Match(length=3, seed=seed)
    while not m.is_over:
        actions = m.legal_actions()
        # Resign only now and then, so that games last long enough to weigh.
        calm = [a for a in actions if a.kind != "resign"] if rng.random() < 0.97 else []
        m.apply(rng.choice(calm or actions))
    review = review_match(m, depth=0)
    assert {d.kind for d in review.decisions} >= {"play"}
    thresholds = {"": (0.0, 0.04), "?!": (0.04, 0.08), "?": (0.08, 0.16), "??": (0.16, 99.0)}
    for d in review.decisions:
        lo, hi = thresholds[d.mark]
        assert lo - 1e-9 <= d.loss < hi
        assert d.loss == pytest.approx(max(0.0, d.best_equity - d.equity), abs=2e-6)
        assert (d.loss == 0.0) or d.played != d.best
    for player, t in enumerate(review.totals):
        mine = [d.loss for d in review.decisions if d.player == player]
        assert t.decisions == len(mine)
        if mine:
            assert t.error_rate == pytest.approx(1000 * sum(mine) / len(mine), abs=1e-2)
