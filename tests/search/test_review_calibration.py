"""The review orders players by strength on games it plays afresh (issue 29): a small set in
the normal suite, the goals on the whole test set under ``-m slow``."""

from __future__ import annotations

import pytest

from meeplemind.search.review_calibration import (RANDOM_GAP, REPEAT_POINTS, STRENGTH, calibrate_game, lineups,
                                                  run, verdict)

#: The slow set: budget of the reviews (iterations, the default search) and games (2-5 players).
ITERATIONS, GAMES = 3000, 4


def test_the_random_bot_is_ranked_worst_with_a_gap() -> None:
    """Two 2-player games of the random bot against level 3, reviewed at a small budget."""
    games = [calibrate_game("puerto-rico", bots, seed, iterations=400)
             for seed, bots in ((11, ["random", "level:3"]), (12, ["level:3", "random"]))]
    v = verdict(games)
    assert v.random_games == v.random_worst == 2 and v.random_gap >= RANDOM_GAP
    for game in games:
        weak, strong = sorted(game.seats, key=lambda s: s.strength)
        assert weak.mean_margin_loss > strong.mean_margin_loss and weak.noise_floor < weak.mean_margin_loss


def test_lineups_are_seeded_and_cover_two_to_five_players() -> None:
    sets = lineups(8, 5)
    assert sets == lineups(8, 5) != lineups(8, 6)
    assert [len(s) for s in sets] == [2, 3, 4, 5] * 2
    assert all(len(set(s)) == len(s) and set(s) <= set(STRENGTH) for s in sets)


@pytest.mark.slow
def test_the_review_orders_bots_of_known_strength() -> None:
    """Games between random, heuristic, level:3, level:6 and level:9 bots, seeds picked
    here: the goals of ``review_calibration`` (docs/review.md)."""
    v = verdict(run("puerto-rico", GAMES, seed=101, iterations=ITERATIONS))
    assert v.random_worst == v.random_games > 0 and v.random_gap >= RANDOM_GAP
    assert v.level_pairs > 0 and v.ordered_pairs >= 0.8 * v.level_pairs
    assert v.repeat_points <= REPEAT_POINTS
