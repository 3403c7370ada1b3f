"""The review orders players by strength on games it plays afresh (issue 29): a small set in
the normal suite, the goals on the whole test set under ``-m slow``."""

from __future__ import annotations

import pytest

from meeplemind.search import review_calibration
from meeplemind.search.params import Budget
from meeplemind.search.review import review_game
from meeplemind.search.review_calibration import (ORDERED_SHARE, RANDOM_GAP, REPEAT_POINTS, STRENGTH, CalibrationGame,
                                                  Seat, lineups, play, run, verdict)

#: The slow set: budget of the reviews (iterations, the default search) and games (2-5 players;
#: about 10 CPU-minutes, docs/review.md).
ITERATIONS, GAMES = 3000, 4


def test_the_random_bot_is_ranked_worst_with_a_gap() -> None:
    """A 2-player game of the random bot against a search of 100 iterations (about level 3,
    whose budget of CPU time would play another game on a loaded machine), reviewed at a
    small budget."""
    start, moves, _ = play("puerto-rico", ["random", "ismcts:iterations=100"], seed=11)
    weak, strong = review_game(start, moves, Budget(iterations=200), seed=1).players
    assert weak.mean_margin_loss > strong.mean_margin_loss and weak.noise_floor < weak.mean_margin_loss
    assert strong.accuracy - weak.accuracy >= RANDOM_GAP
    assert 0.8 < weak.relative_loss < 1.4  # about a random pick's


def _seat(bot: str, loss: float, accuracy: float, again: float) -> Seat:
    return Seat(bot, 0, 10, 2 * loss, loss, 0.1, accuracy, again, 0.2)


def test_the_verdict_counts_the_goals() -> None:
    games = [CalibrationGame(1, (_seat("random", 0.9, 60, 61), _seat("level:3", 0.3, 80, 80.5),
                                 _seat("level:6", 0.1, 90, 90))),
             CalibrationGame(2, (_seat("random", 0.5, 75, 75), _seat("heuristic", 0.6, 70, 70),
                                 _seat("level:9", 0.2, 95, 96.5), _seat("level:3", 0.1, 85, 85)))]
    v = verdict(games)
    assert (v.random_games, v.random_worst, v.random_gap) == (2, 1, -5)
    assert (v.level_pairs, v.ordered_pairs, v.repeat_points) == (1 + 3, 1 + 2, 1.5) and not v.holds
    assert verdict(games[:1]).holds


def test_lineups_are_seeded_and_cover_two_to_five_players() -> None:
    sets = lineups(8, 5)
    assert sets == lineups(8, 5) != lineups(8, 6)
    assert [len(s) for s in sets] == [2, 3, 4, 5] * 2
    assert all(len(set(s)) == len(s) and set(s) <= set(STRENGTH) for s in sets)


def test_a_calibration_set_plays_the_game_s_own_player_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Castles of Burgundy seats 2 to 4: its set's games have 2, 3, 4, 2, ... players."""
    seats: list[int] = []
    monkeypatch.setattr(review_calibration, "calibrate_game", lambda game_id, bots, *args: seats.append(len(bots)))
    run("castles-of-burgundy", 5, seed=1)
    assert seats == [2, 3, 4, 2, 3]


@pytest.mark.slow
def test_the_review_orders_bots_of_known_strength() -> None:
    """Games between random, heuristic, level:3, level:6 and level:9 bots, seeds picked
    here: the three goals of ``review_calibration`` (docs/review.md)."""
    v = verdict(run("puerto-rico", GAMES, seed=101, iterations=ITERATIONS))
    assert v.random_worst == v.random_games > 0 and v.random_gap >= RANDOM_GAP
    assert v.level_pairs > 0 and v.ordered_pairs >= ORDERED_SHARE * v.level_pairs
    assert v.repeat_points <= REPEAT_POINTS
