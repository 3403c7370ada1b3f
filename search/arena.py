"""``meeplemind arena``: seeded tournaments between bots with rotated seats.

With ``n`` seats, games come in blocks of ``n`` that share one deal (seed) and rotate
the bots through every seat, so no bot profits from a seat or a deal.  Per bot: games,
win share (a tie after the tie-break splits the win) with a 95% Wilson interval, mean
score and mean margin (own score minus the best other score).  Bot ``i`` is labelled
``S{i}`` (``Seat i``, from 1), the seat it takes in the first game of each deal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Rng, get_game
from ..engine.seats import seat_tag
from .bots import make_bot
from .game_runner import run_jobs


@dataclass
class BotRecord:
    seat: int
    spec: str
    shares: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)
    places: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        games = len(self.shares)
        share = sum(self.shares) / games if games else 0.0
        lo, hi = wilson_interval(share, games)
        return {"seat": seat_tag(self.seat), "spec": self.spec, "games": games, "win_share": round(share, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_score": round(sum(self.scores) / games, 2) if games else 0.0,
                "mean_margin": round(sum(self.margins) / games, 2) if games else 0.0}


def wilson_interval(p: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``p`` observed over ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(game_id: str, specs: Sequence[str], deal_seed: int, bot_seed: int,
              options: dict[str, Any]) -> tuple[list[int], list[float], list[int]]:
    """One game, seat i played by ``specs[i]``: (scores, win shares, places)."""
    game = get_game(game_id)
    state = game.new_game(len(specs), deal_seed, **options)
    bots = [make_bot(spec, seed=bot_seed + 7919 * i) for i, spec in enumerate(specs)]
    rng = Rng(deal_seed ^ 0xA5A5A5A5)
    while not state.is_terminal:
        state = state.apply(bots[state.current_player].choose(state), rng)
    return state.scores(), state.returns(), state.ranks()


def _play_job(job: tuple[Any, ...]) -> tuple[list[int], list[float], list[int]]:
    return play_game(*job)


def play_arena(game_id: str, specs: Sequence[str], games: int, seed: int = 1,
               options: dict[str, Any] | None = None, workers: int = 1,
               progress: Callable[[int, int], object] | None = None, ray: str | None = None) -> list[BotRecord]:
    """Play ``games`` games with seats rotated; ``specs[i]`` is the i-th bot (a spec may sit
    at several seats).  Per bot, its record of every game in order.  With ``workers`` > 1,
    games run in that many processes, with ``ray`` as Ray tasks at that address
    (search.game_runner; results do not depend on either)."""
    n = len(specs)
    if games < 1:
        raise ValueError(f"games: {games} must be at least 1")
    if n not in get_game(game_id).PLAYER_COUNTS:
        raise ValueError(f"bot: {n} bots given, {game_id} is played by "
                         f"{list(get_game(game_id).PLAYER_COUNTS)}")
    for spec in specs:
        make_bot(spec)  # fail fast on a bad spec
    records = [BotRecord(i, spec) for i, spec in enumerate(specs)]
    seatings, jobs = [], []
    for g in range(games):
        rotation, deal = g % n, seed * 100003 + g // n
        seating = [(i + rotation) % n for i in range(n)]  # seating[seat] = bot index
        seatings.append(seating)
        jobs.append((game_id, [specs[b] for b in seating], deal, deal * 31 + rotation, options or {}))
    for seating, (scores, shares, places) in zip(seatings, run_jobs(_play_job, jobs, workers, ray, progress)):
        for seat, b in enumerate(seating):
            best_other = max(s for j, s in enumerate(scores) if j != seat)
            records[b].shares.append(shares[seat])
            records[b].scores.append(scores[seat])
            records[b].margins.append(scores[seat] - best_other)
            records[b].places.append(places[seat])
    return records


def run_arena(game_id: str, specs: Sequence[str], games: int, seed: int = 1,
              options: dict[str, Any] | None = None, workers: int = 1,
              progress: Callable[[int, int], object] | None = None, ray: str | None = None) -> dict[str, Any]:
    """``play_arena``'s games summed up per bot."""
    records = play_arena(game_id, specs, games, seed, options, workers, progress, ray)
    return {"game": game_id, "games": games, "seed": seed, "bots": [r.summary() for r in records]}


def format_table(report: dict[str, Any]) -> str:
    lines = [f"{report['game']}: {report['games']} games, seed {report['seed']}; seats rotate, "
             "S<i> is the seat (Seat i) a bot takes in the first game of each deal",
             f"{'seat':<5}{'bot':<36} {'games':>5} {'win share':>9} {'95% CI':>15} {'score':>6} {'margin':>7}"]
    for b in report["bots"]:
        lo, hi = b["ci95"]
        lines.append(f"{b['seat']:<5}{b['spec']:<36} {b['games']:>5} {b['win_share']:>9.3f} "
                     f"{f'[{lo:.3f}, {hi:.3f}]':>15} {b['mean_score']:>6.1f} {b['mean_margin']:>7.1f}")
    return "\n".join(lines)
