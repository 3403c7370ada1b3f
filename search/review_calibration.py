"""The review's calibration (``meeplemind review-calibration``): games between bots of known
strength, each reviewed twice with different seeds, and whether the review's mean loss
orders the players by their strength (issue 29; the table is in docs/review.md).

Players are ranked by their relative loss (their moves' margin losses over their stakes,
``relative_loss``, of which the accuracy is the complement).  The goals it checks: the
random bot ranked worst in every game it plays, with an accuracy
gap of at least ``RANDOM_GAP`` points; of every two bots ``LEVEL_STEP`` or more levels
apart in the same game (the random bot aside), the stronger ranked above the weaker in at
least ``ORDERED_SHARE`` of the pairs; the two reviews of a game within ``REPEAT_POINTS``
of accuracy for every player.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Rng, get_game
from .bots import make_bot
from .params import Budget
from .review import PlayedMove, Review, review_game

#: The bots of the test set and their strength in levels; the heuristic bot counts as
#: level 1 (its Elo lies between levels 1 and 2: README, "Strength levels and the Elo ladder").
STRENGTH = {"random": 0, "heuristic": 1, "level:3": 3, "level:6": 6, "level:9": 9}
RANDOM_GAP = 10.0
LEVEL_STEP = 2
ORDERED_SHARE = 0.8
REPEAT_POINTS = 1.0
_SECOND_REVIEW = 0x5EC04D  # the second review's seed: the first's plus this


@dataclass(frozen=True, slots=True)
class Seat:
    """One player of a calibration game: his bot, final score and both reviews' verdicts
    (the first review's mean margin loss, relative loss, noise floor and accuracy's standard
    error, both reviews' accuracies)."""

    bot: str
    score: int
    moves: int
    mean_margin_loss: float
    relative_loss: float
    noise_floor: float
    accuracy: float
    accuracy_again: float
    accuracy_se: float

    @property
    def strength(self) -> int:
        return STRENGTH[self.bot]


@dataclass(frozen=True, slots=True)
class CalibrationGame:
    seed: int
    seats: tuple[Seat, ...]


def lineups(games: int, seed: int, players: Sequence[int] = (2, 3, 4, 5)) -> list[list[str]]:
    """The bots of each game, seat by seat: game ``i`` has ``players[i % len(players)]``
    seats, drawn without repeats from ``STRENGTH`` in a seeded random order."""
    rng = random.Random(seed)
    return [rng.sample(sorted(STRENGTH), players[i % len(players)]) for i in range(games)]


def play(game_id: str, bots: Sequence[str], seed: int) -> tuple[object, list[PlayedMove], list[int]]:
    """A game between ``bots``: its start, its record's moves (chance as seeds) and the scores."""
    state = get_game(game_id).new_game(len(bots), seed)
    start, players = state, [make_bot(spec, seed=seed + 1000 * i) for i, spec in enumerate(bots)]
    rng, moves = Rng(seed ^ 0x5EED), []
    while not state.is_terminal:
        move = players[state.current_player].choose(state)
        moves.append(PlayedMove(str(move), rng.state))
        state = state.apply(move, rng)
    return start, moves, list(state.scores())


def calibrate_game(game_id: str, bots: Sequence[str], seed: int, iterations: int | None = None,
                   workers: int = 1) -> CalibrationGame:
    """Play a game between ``bots`` and review it twice (seeds ``seed`` and another) with
    ``iterations`` a search (None: ``REVIEW_ITERATIONS``)."""
    start, moves, scores = play(game_id, bots, seed)

    def review(review_seed: int) -> Review:
        budget = None if iterations is None else Budget(iterations=iterations)
        return review_game(start, moves, budget, seed=review_seed, workers=workers)

    first, second = review(seed), review(seed + _SECOND_REVIEW)
    seats = []
    for p, (one, two) in enumerate(zip(first.players, second.players)):
        seats.append(Seat(bots[p], scores[p], one.moves, one.mean_margin_loss, one.relative_loss,
                          one.noise_floor, one.accuracy, two.accuracy, one.accuracy_se))
    return CalibrationGame(seed, tuple(seats))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The goals measured on a set of games."""

    random_games: int
    random_worst: int  # games where the random bot has the biggest relative loss
    random_gap: float  # the smallest accuracy gap between the random bot and the next worst
    level_pairs: int
    ordered_pairs: int  # of them, those the mean loss orders by strength
    repeat_points: float  # the biggest accuracy difference between a game's two reviews

    @property
    def holds(self) -> bool:
        return (self.random_worst == self.random_games and self.random_gap >= RANDOM_GAP
                and self.ordered_pairs >= ORDERED_SHARE * self.level_pairs
                and self.repeat_points <= REPEAT_POINTS)


def verdict(games: Sequence[CalibrationGame]) -> Verdict:
    random_games = random_worst = level_pairs = ordered = 0
    gap, repeat = math.inf, 0.0
    for game in games:
        repeat = max([repeat, *(abs(s.accuracy - s.accuracy_again) for s in game.seats)])
        others = [s for s in game.seats if s.bot != "random"]
        for weak in (s for s in game.seats if s.bot == "random"):
            random_games += 1
            random_worst += all(weak.relative_loss > s.relative_loss for s in others)
            gap = min([gap, *(s.accuracy - weak.accuracy for s in others)])
        for a, b in itertools.combinations(others, 2):
            if abs(a.strength - b.strength) >= LEVEL_STEP:
                strong, weak = (a, b) if a.strength > b.strength else (b, a)
                level_pairs += 1
                ordered += strong.relative_loss < weak.relative_loss
    return Verdict(random_games, random_worst, gap if random_games else math.nan, level_pairs, ordered, repeat)


def table(games: Sequence[CalibrationGame]) -> list[str]:
    """The calibration table, one line per player (Markdown)."""
    lines = ["| game | seed | players | bot | score | moves | mean margin loss | noise floor | relative loss | "
             "accuracy | ± | again |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for number, game in enumerate(games, 1):
        for seat in sorted(game.seats, key=lambda s: s.relative_loss):
            lines.append(f"| {number} | {game.seed} | {len(game.seats)} | {seat.bot} | {seat.score} | "
                         f"{seat.moves} | {seat.mean_margin_loss:.3f} | {seat.noise_floor:.3f} | "
                         f"{seat.relative_loss:.3f} | {seat.accuracy:.1f} | {seat.accuracy_se:.2f} | "
                         f"{seat.accuracy_again:.1f} |")
    return lines


def by_bot(games: Sequence[CalibrationGame]) -> list[str]:
    """Mean losses and accuracy per bot over the games (Markdown)."""
    lines = ["| bot | players | mean margin loss | relative loss | accuracy |", "|---|---|---|---|---|"]
    for bot in sorted(STRENGTH, key=STRENGTH.__getitem__):
        seats = [s for g in games for s in g.seats if s.bot == bot]
        if seats:
            lines.append(f"| {bot} | {len(seats)} | {statistics.fmean(s.mean_margin_loss for s in seats):.3f} | "
                         f"{statistics.fmean(s.relative_loss for s in seats):.3f} | "
                         f"{statistics.fmean(s.accuracy for s in seats):.1f} |")
    return lines


def run(game_id: str, games: int, seed: int, iterations: int | None = None, workers: int = 1,
        on_game: Callable[[CalibrationGame], None] | None = None) -> list[CalibrationGame]:
    """Play and review the test set of ``lineups(games, seed)`` at the game's player counts
    (game ``i`` seeded ``seed + i``)."""
    played = []
    for i, bots in enumerate(lineups(games, seed, get_game(game_id).PLAYER_COUNTS)):
        game = calibrate_game(game_id, bots, seed + i, iterations, workers)
        played.append(game)
        if on_game is not None:
            on_game(game)
    return played


def report(games: Sequence[CalibrationGame]) -> list[str]:
    """The table, the means per bot and the goals' verdict."""
    v = verdict(games)
    return [*table(games), "", *by_bot(games), "",
            f"random bot worst in {v.random_worst} of {v.random_games} games, smallest accuracy gap "
            f"{v.random_gap:.1f} points (goal: all, >= {RANDOM_GAP:.0f})",
            f"pairs {LEVEL_STEP}+ levels apart ordered by relative loss: {v.ordered_pairs} of {v.level_pairs} "
            f"(goal: >= {ORDERED_SHARE:.0%})",
            f"two reviews of a game: accuracies within {v.repeat_points:.2f} points (goal: <= {REPEAT_POINTS:.0f})",
            f"goals {'met' if v.holds else 'NOT met'}"]
