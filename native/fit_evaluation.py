"""The games' evaluations (``evaluate`` of a C engine: the estimated final scores a
truncated ISMCTS playout backs up, see mm_ismcts.h), their features in Python, and
the fit of their weights (``native/evaluation.json``, compiled in as
``native/evaluation_weights.h``).

An evaluation is the score now plus a weighted sum of features of the player's
position.  The fit plays heuristic self-play games in the C engine, samples every
7th position and fits, by least squares, the 2-player difference of what each
player still scores to the differences of the features:

    .venv/bin/python -m meeplemind.native.fit_evaluation GAME [GAMES] [--write]

prints the weights and the mean squared error with and without them; ``--write``
stores them in evaluation.json (rebuild with ``make install``).
"""

from __future__ import annotations

import json
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ..engine import get_game
from ..engine.castles_of_burgundy import codec as cob_codec
from ..engine.castles_of_burgundy.data import PHASES, ROUNDS, T_MINE
from ..engine.puerto_rico import codec as pr_codec
from ..engine.puerto_rico.data import CITY_SPACES
from . import NativeGame

WEIGHTS_FILE = pathlib.Path(__file__).with_name("evaluation.json")
PLAYERS = 2
SAMPLE_EVERY = 7


def pr_rounds_left(s: Any) -> float:
    """As ``rounds_left`` in mm_puerto_rico.c."""
    if s.end_triggered:
        return 0.0
    fullest = max(p.city_used() for p in s.players)
    players = len(s.players)
    return float(min(max(s.vp_supply, 0) / (2 * players), s.colonist_supply / players, CITY_SPACES - fullest))


def pr_features(s: Any) -> list[dict[str, float]]:
    """As ``estimate`` in mm_puerto_rico.c."""
    rounds = pr_rounds_left(s)
    soon = min(rounds, 1.0)
    return [{"ROUNDS_BARRELS": rounds * sum(p.production()), "ROUNDS_QUARRIES": rounds * p.quarries,
             "SOON_GOODS": soon * sum(p.goods), "SOON_DOUBLOONS": soon * p.doubloons} for p in s.players]


def cob_features(s: Any) -> list[dict[str, float]]:
    """As ``estimate`` in mm_castles_of_burgundy.c (the rounds left count this one)."""
    left = (PHASES - s.phase) * ROUNDS - s.round
    return [{"ROUNDS_MINES": left * p.estate.count(T_MINE), "STORED_TILES": sum(t >= 0 for t in p.storage),
             "GOODS": sum(p.goods), "SILVERLINGS": p.silverlings, "WORKERS": p.workers} for p in s.players]


#: game -> (how a state vector reads, the features of each player of a state)
GAMES: dict[str, tuple[Callable[..., Any], Callable[[Any], list[dict[str, float]]]]] = {
    "puerto-rico": (pr_codec.decode, pr_features),
    "castles-of-burgundy": (cob_codec.decode, cob_features),
}


def weights(game: str) -> dict[str, float]:
    """The game's weights in evaluation.json."""
    return dict(json.loads(WEIGHTS_FILE.read_text())[game]["weights"])


def estimates(game: str, state: Any) -> list[float]:
    """Each player's evaluation of ``state`` (before C rounds it to whole points)."""
    w = weights(game)
    return [score + sum(w[k] * v for k, v in f.items())
            for score, f in zip(state.scores(), GAMES[game][1](state))]


def samples(game: str, games: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The feature names, their differences (player 0 minus 1) at each sampled
    position, and how much more player 0 scored from there on."""
    decode, features = GAMES[game]
    engine, native = get_game(game), NativeGame(game)
    xs, ys = [], []
    for seed in range(games):
        buf = native.decode(engine.new_game(PLAYERS, seed=seed).encode())
        chance, picker, seen = seed * 7919 + 1, seed * 31 + 5, []
        for step in range(10**6):
            if native.current_player(buf) < 0:
                break
            if step % SAMPLE_EVERY == 0:
                seen.append(decode(native.encode(buf), check=False))
            action, picker = native.rollout_move(buf, picker, 1)
            chance = native.apply(buf, action, chance)
        final = native.scores(buf)[:, 0]
        for s in seen:
            mine, theirs = features(s)
            now = s.scores()
            xs.append([mine[k] - theirs[k] for k in mine])
            ys.append((final[0] - now[0]) - (final[1] - now[1]))
    return list(mine), np.array(xs), np.array(ys, dtype=float)


def main(game: str, *args: str) -> None:
    games = int(next((a for a in args if a != "--write"), "300"))
    names, x, y = samples(game, games)
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted = {n: round(float(v), 3) for n, v in zip(names, w)}
    print(f"{game}: {len(y)} positions of {games} games; weights {fitted}")
    print(f"mean squared error: {np.mean(y ** 2):.1f} (score now only), {np.mean((x @ w - y) ** 2):.1f} (fitted)")
    if "--write" in args:
        table = json.loads(WEIGHTS_FILE.read_text())
        table[game]["weights"] = fitted
        WEIGHTS_FILE.write_text(json.dumps(table, indent=2) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
