"""The fit of the games' learned evaluations (mm_eval.h): what a truncated ISMCTS
playout backs up.

A game's evaluation is its own file, ``native/evaluation_<game>.json`` (``<game>`` its
engine package's name): the C feature set's version and row length (the game's C file
checks both), the setups whose self-play trains it (``setups``: players, ``new_game``
options), the network's weights (``w1`` input-major, inputs standardised by the weights
themselves), the win-probability temperature and the last fit's report (``fit``, with its
number of start positions).  native/build_native.py writes each into
``native/evaluation_<game>.h``; a game without the file has no evaluation.

Training data is C self-play by the heuristic rollout policy (``mm_eval_samples``:
the network inputs exactly as C evaluates them, every setup of the game), a sample at
about every ``EVERY``-th decision.  The target of a player's
inputs is the points he still scored in that game (one heuristic playout from there:
the network learns its mean).  A one-hidden-layer ReLU network (scikit-learn's
``MLPRegressor``, shared by every seat) is fitted to it, its input standardisation folded
into the first layer; then the win temperature ``tau = t0 + t1 * rounds_left`` of the
softmax over the expected final scores, by maximum likelihood of the games' winners
(scipy).  Every 5th start position's games are held out and scored::

    .venv/bin/python tools/fit_evaluation.py [GAME] [STARTS] [--write]

(without GAME, every game with an evaluation; ``make fit-evaluation`` fits and writes them
all; rebuild with ``make install``).  scikit-learn is a fitting-only dependency:
``pip install 'meeplemind[fit]'``.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import numpy as np

from meeplemind.engine import game_ids, game_key, get_game
from meeplemind.native import NativeGame
from meeplemind.native.weights import dumps
from meeplemind.search.evaluation_fit import fit_samples

NATIVE = pathlib.Path(__file__).resolve().parents[1] / "native"
GAMES_PER_START = 10
EVERY = 10
HELD_OUT = 5  # every 5th start position's games are held out
SEED = 2026


def weights_file(game: str) -> pathlib.Path:
    """The evaluation file of ``game`` (a game id), named after its engine package."""
    return NATIVE / f"evaluation_{game_key(game)}.json"


def evaluated_games() -> list[str]:
    """The games with an evaluation file, in the registry's order."""
    return [game for game in game_ids() if weights_file(game).exists()]


def setups(game: str) -> list[tuple[int, dict[str, Any]]]:
    """The (players, ``new_game`` options) whose self-play trains ``game``'s evaluation."""
    return [(players, options) for players, options in json.loads(weights_file(game).read_text())["setups"]]


def samples(game: str, starts: int) -> dict[str, np.ndarray]:
    """Self-play samples of every setup: per (position, seat) row the network inputs
    ``x``, the points still to come ``gain``, the position's index ``group``, whether it
    is held out; per position the rounds left, scores now, final win shares, players."""
    engine, native = get_game(game), NativeGame(game)
    xs, infos, players, held = [], [], [], []
    for setup, (n, options) in enumerate(setups(game)):
        for start in range(starts):
            buf = native.decode(engine.new_game(n, seed=start, **options).encode())
            x, info = native.eval_samples(buf, GAMES_PER_START, SEED + 1000 * setup + start, EVERY,
                                          GAMES_PER_START * 2000)
            xs.append(x[:, :n].reshape(-1, x.shape[2]))
            infos.append(info)
            players.append(np.full(len(info), n))
            held.append(np.full(len(info), start % HELD_OUT == 0))
    info, count = np.concatenate(infos), np.concatenate(players)
    seat = np.concatenate([np.tile(np.arange(n), len(i)) for n, i in zip((p[0] for p in players), infos)])
    group = np.repeat(np.arange(len(info)), count)
    m = native.max_players
    now, final = info[:, 1:1 + m], info[:, 1 + m:1 + 2 * m]
    return {"x": np.concatenate(xs), "gain": (final - now)[group, seat], "group": group,
            "held": np.concatenate(held)[group], "rounds": info[:, 0], "now": now,
            "share": info[:, 1 + 2 * m:], "players": count}


def fit(game: str, starts: int) -> tuple[dict[str, Any], dict[str, float]]:
    """The fitted network and temperature of a game, and its held-out scores."""
    return fit_samples(samples(game, starts), NativeGame(game).lib.MM_EVAL_HIDDEN, SEED)


def refit(game: str, starts: int | None, write: bool) -> None:
    """Fit ``game``'s evaluation from ``starts`` start positions per setup (None: as many
    as its last fit), print the held-out scores, and with ``write`` store it."""
    path = weights_file(game)
    entry = json.loads(path.read_text())
    starts = entry["fit"]["starts"] if starts is None else starts
    model, report = fit(game, starts)
    for key, value in report.items():
        print(f"{game}: {key} {value:.4g}" if isinstance(value, float) else f"{game}: {key} {value}")
    print(f"{game}: temperature {model['temperature']}")
    if model["features"] != entry["features"]:
        raise SystemExit(f"{game}: C writes {model['features']} features, {path.name} says "
                         f"{entry['features']}: update its version and features with the C feature set")
    if write:
        entry |= model | {"fit": {"starts": starts, "games_per_start": GAMES_PER_START} | {
            k: round(v, 4) if isinstance(v, float) else v for k, v in report.items()}}
        path.write_text(dumps(entry))


def main(*args: str) -> None:
    given = [a for a in args if a != "--write"]
    games = [a for a in given if not a.isdigit()] or evaluated_games()
    starts = next((int(a) for a in given if a.isdigit()), None)
    for game in games:
        refit(game, starts, "--write" in args)


if __name__ == "__main__":
    main(*sys.argv[1:])
