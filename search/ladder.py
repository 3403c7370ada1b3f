"""``meeplemind ladder``: a round robin of arenas between pairs of bots, rated in Elo.

Every pair of entrants plays ``games`` games (seats rotated, as in ``meeplemind
arena``), or, with ``reach`` r, every entrant the next r entrants in order only (r = 1:
a chain of neighbours, what calibrating ordered levels needs at a fraction of a round
robin's cost).  At 2 players a pair's games are head to head.  At n > 2 players each of
the two sits alone at the table against n - 1 copies of the other in half the games (the
same deals both ways), and a game scores each pairing of a seat of one with a seat of the
other: 1 to the one placed higher, half each for a shared place; the game's score is the
mean of its pairings (at 2 players, the win share).  The ratings are the maximum-likelihood
fit of the Bradley-Terry model ``P(i beats j) = 1 / (1 + 10 ** ((elo_j - elo_i) / 400))``
to those scores, each game counted as one, with the first entrant anchored at 0 Elo.  Like
BayesElo, every pair also counts ``PRIOR_DRAWS`` virtual drawn games, so a sweep has a
finite rating.  Intervals are 95% Wald intervals from the inverse of the observed
Fisher information, relative to the anchor; each entrant's step over the one before
it gets its own interval, from the same covariance.  A game's score varies less than a win
or loss of the same mean when it can fall between (a mean of pairings, a shared place), so
each pair's information is that of its games' measured variance (quasi-likelihood with the
pair's dispersion: on a chain of neighbours, a step's interval is the delta method's from
its games' scores).

A pair's deals come from ``seed`` and the two entrants' specs only, so the same pair
plays the same deals in any ladder.  With a ``results`` file, every finished pair is
appended to it (a JSON line), and a pair already there (same game, player count, entrants,
budgets, games, seed and options) is not played again: a long ladder resumes where it stopped,
and ladders over overlapping entrants share their pairs.  The file holds results of
one build of the search; start a new one when the search changes.
"""

from __future__ import annotations

import itertools
import json
import math
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import get_game
from .arena import BotRecord, play_arena
from .bots import make_bot

#: Virtual drawn games added to every pair's record (a weak prior toward equal strength).
PRIOR_DRAWS = 1.0
#: Elo points per natural-log unit of odds.
_ELO = 400 / math.log(10)
_Z95 = 1.959964


def fit_elo(wins: np.ndarray, games: np.ndarray,
            dispersion: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per entrant: Elo (entrant 0 at 0 Elo), the half-width of its 95% interval and that
    of its step over the entrant before it (0 for entrant 0).

    ``wins[i, j]`` is i's total score in its ``games[i, j]`` games against j (the prior
    draws already added); ``dispersion[i, j]`` (default 1) is the variance of a game's
    score in that pair over a win or loss's of the same mean (quasi-likelihood: a pair's
    information is divided by it).  Newton's method on the log-likelihood, which is
    concave in the ratings of entrants 1..n-1."""
    n = len(games)
    weight = 1 / (np.ones((n, n)) if dispersion is None else dispersion)
    r = np.zeros(n)  # natural-log units
    for _ in range(100):
        p = 1 / (1 + np.exp(r[None, :] - r[:, None]))  # p[i, j] = P(i beats j)
        gradient = (weight * (wins - games * p)).sum(axis=1)
        information = weight * games * p * (1 - p)
        hessian = np.diag(information.sum(axis=1)) - information
        step = np.linalg.solve(hessian[1:, 1:], gradient[1:])
        r[1:] += step
        if np.abs(step).max() < 1e-10:
            break
    covariance = np.zeros((n, n))
    covariance[1:, 1:] = np.linalg.inv(hessian[1:, 1:])
    variance = np.diag(covariance)
    step = np.concatenate(([0.0], variance[1:] + variance[:-1] - 2 * np.diag(covariance, 1)))
    return r * _ELO, _Z95 * np.sqrt(variance) * _ELO, _Z95 * np.sqrt(np.maximum(step, 0.0)) * _ELO


def dispersion_of(scores: Sequence[float]) -> float:
    """The variance of a pair's game scores over a win or loss's of the same mean: 1 for
    wins and losses, less when games end between (shared places, several pairings); 1 when
    the games show no spread to measure (all alike)."""
    mean = float(np.mean(scores))
    spread = float(np.mean((np.asarray(scores) - mean) ** 2))
    return spread / (mean * (1 - mean)) if spread > 0 else 1.0


def ladder_pairs(entrants: int, reach: int | None = None) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, that play: all of them, or those at most ``reach`` apart."""
    return [(i, j) for i, j in itertools.combinations(range(entrants), 2) if reach is None or j - i <= reach]


def pair_seed(seed: int, first: str, second: str) -> int:
    """The seed of the pair ``first`` vs ``second``'s arena: ``seed`` and the two specs only."""
    return seed + zlib.crc32(f"{first}\n{second}".encode()) % 1_000_003


def _budget(spec: str, game_id: str) -> Any:
    """What a spec plays ``game_id`` with (a ``level:N``'s budget in that game), so a results
    file tells levels apart across definitions."""
    options_in = getattr(make_bot(spec), "options_in", None)
    return options_in(game_id) if options_in else None


class PairResults:
    """The pairs already played, read from a JSON-lines file and appended to it: each pair's
    mean score and dispersion (``dispersion_of``; 1 in records written before it was kept)."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        self.known: dict[str, tuple[float, float]] = {}
        if self.path and self.path.exists():
            for number, line in enumerate(self.path.read_text().splitlines(), 1):
                try:
                    record = json.loads(line)
                    share, dispersion = float(record["win_share"]), float(record.get("dispersion", 1.0))
                    if not (0 <= share <= 1 and 0 < dispersion <= 1):
                        raise ValueError("out of range")
                    self.known[str(record["key"])] = share, dispersion
                except (ValueError, KeyError, TypeError, AttributeError):
                    raise ValueError(f"results: {self.path} line {number} is not a ladder pair record") from None

    @staticmethod
    def key(game_id: str, first: str, second: str, games: int, seed: int, options: dict[str, Any],
            players: int = 2) -> str:
        """A pair's record: a 2-player one as before player counts were (files of then still read)."""
        return json.dumps([game_id, first, second, _budget(first, game_id), _budget(second, game_id), games, seed,
                           options] + ([players] if players != 2 else []),
                          sort_keys=True, default=str)

    def add(self, key: str, win_share: float, dispersion: float) -> None:
        self.known[key] = win_share, dispersion
        if self.path:
            with self.path.open("a") as out:
                out.write(json.dumps({"key": key, "win_share": win_share, "dispersion": dispersion}) + "\n")


def _counted_from(progress: Callable[[int, int], object], start: int, total: int) -> Callable[[int, int], object]:
    """``progress`` of one pairing's arena: its games counted on from ``start`` of ``total``."""
    return lambda done, _: progress(start + done, total)


def pair_tables(first: str, second: str, players: int) -> list[list[str]]:
    """The bots at the table of each half of a pair's games: head to head at 2 players, else
    each of the two alone against ``players`` - 1 copies of the other."""
    if players == 2:
        return [[first, second]]
    return [[first] + [second] * (players - 1), [second] + [first] * (players - 1)]


def pairing_scores(records: Sequence[BotRecord], first: str) -> list[float]:
    """Per game of an arena, ``first``'s mean score over its pairings with the other spec's
    seats: 1 placed higher, 0.5 a shared place, 0 placed lower."""
    mine = [r for r in records if r.spec == first]
    theirs = [r for r in records if r.spec != first]
    return [float(np.mean([1.0 if a.places[g] < b.places[g] else 0.5 if a.places[g] == b.places[g] else 0.0
                           for a in mine for b in theirs]))
            for g in range(len(records[0].places))]


def run_ladder(game_id: str, specs: Sequence[str], games: int, seed: int = 1, workers: int = 1,
               options: dict[str, Any] | None = None,
               progress: Callable[[int, int], object] | None = None, reach: int | None = None,
               results: str | None = None, ray: str | None = None, players: int = 2) -> dict[str, Any]:
    """Play the round robin, or the pairs at most ``reach`` apart (``games`` games per pair,
    at ``players`` seats), and rate the entrants; ``results`` is the file of pairs played
    (see above); ``ray`` runs the games as Ray tasks at that address (search.game_runner)."""
    if len(specs) < 2:
        raise ValueError(f"bot: a ladder needs at least 2 entrants, {len(specs)} given")
    if len(set(specs)) < len(specs):
        raise ValueError("bot: each entrant once")
    counts = list(get_game(game_id).PLAYER_COUNTS)
    if players not in counts:
        raise ValueError(f"players: {players} is not a player count of {game_id} ({counts})")
    block = 2 if players == 2 else 2 * players
    if games < block or games % block:
        raise ValueError(f"games: {games} must be a positive multiple of {block} (seats rotate"
                         + ("" if players == 2 else "; each entrant sits alone in half the games") + ")")
    if reach is not None and reach < 1:
        raise ValueError(f"reach: {reach} must be at least 1 (1: each entrant plays its neighbours)")
    n = len(specs)
    pairs = ladder_pairs(n, reach)
    record = PairResults(results)
    wins, played, dispersion = np.zeros((n, n)), np.zeros((n, n)), np.ones((n, n))
    for k, (i, j) in enumerate(pairs):
        deals = pair_seed(seed, specs[i], specs[j])
        key = record.key(game_id, specs[i], specs[j], games, deals, options or {}, players)
        if key not in record.known:
            tables = pair_tables(specs[i], specs[j], players)
            scores: list[float] = []
            for t, table in enumerate(tables):
                each = games // len(tables)
                counted = _counted_from(progress, k * games + t * each, len(pairs) * games) if progress else None
                scores += pairing_scores(play_arena(game_id, table, each, deals, options, workers, counted, ray),
                                         specs[i])
            record.add(key, float(np.mean(scores)), dispersion_of(scores))
        elif progress:
            progress((k + 1) * games, len(pairs) * games)
        share, dispersion[i, j] = record.known[key]
        wins[i, j], wins[j, i] = share * games, games - share * games
        played[i, j] = played[j, i] = games
        dispersion[j, i] = dispersion[i, j]
    prior = np.where(played > 0, PRIOR_DRAWS, 0.0)
    elo, half, step_half = fit_elo(wins + prior / 2, played + prior, dispersion)
    steps = np.diff(elo, prepend=0.0)
    entrants = [{"spec": spec, "games": int(played[i].sum()),
                 "score": round(float(wins[i].sum() / played[i].sum()), 4),
                 "elo": round(float(elo[i]), 1),
                 "ci95": [round(float(elo[i] - half[i]), 1), round(float(elo[i] + half[i]), 1)]}
                | ({"step": round(float(steps[i]), 1),
                    "step_ci95": [round(float(steps[i] - step_half[i]), 1),
                                  round(float(steps[i] + step_half[i]), 1)]} if i else {})
                for i, spec in enumerate(specs)]
    pair_shares = [{"bots": [specs[i], specs[j]], "games": games,
                    "win_share": round(float(wins[i, j] / games), 4)} for i, j in pairs]
    return {"game": game_id, "players": players, "games_per_pair": games, "seed": seed, "reach": reach,
            "anchor": specs[0], "prior_draws": PRIOR_DRAWS, "entrants": entrants, "pairs": pair_shares}


def format_ladder(report: dict[str, Any]) -> str:
    reach = report.get("reach")
    kind = "round robin" if reach is None else f"pairs at most {reach} apart"
    players = report["players"]
    scored = "" if players == 2 else ", each game scored by its pairings' places"
    lines = [f"{report['game']}: {players} players, {kind}, {report['games_per_pair']} games per pair, seed "
             f"{report['seed']}{scored}; Elo by maximum likelihood (Bradley-Terry), {report['anchor']} at 0",
             f"{'bot':<36} {'games':>5} {'score':>6} {'Elo':>7} {'95% CI':>17} {'step':>6} {'step 95% CI':>17}"]
    for e in report["entrants"]:
        lo, hi = e["ci95"]
        step, interval = "", ""
        if "step" in e:
            step, interval = f"{e['step']:+.0f}", "[{:.0f}, {:.0f}]".format(*e["step_ci95"])
        lines.append(f"{e['spec']:<36} {e['games']:>5} {e['score']:>6.3f} {e['elo']:>7.0f} "
                     f"{f'[{lo:.0f}, {hi:.0f}]':>17} {step:>6} {interval:>17}")
    sweeps = [" against ".join(p["bots"]) for p in report["pairs"] if p["win_share"] in (0, 1)]
    if sweeps:
        lines.append(f"one entrant won every game of {', '.join(sweeps)}: the gap between them rests on the "
                     f"prior's {report['prior_draws']:g} drawn game, a bound, not a measurement; pair each with "
                     "entrants nearer its strength to place it")
    return "\n".join(lines)
