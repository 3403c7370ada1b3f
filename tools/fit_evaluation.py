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


def win_loss(temperature: np.ndarray, score: np.ndarray, share: np.ndarray, rounds: np.ndarray,
             mask: np.ndarray) -> float:
    """Mean cross-entropy of the final win shares under softmax(score / tau)."""
    tau = np.maximum(temperature[0] + temperature[1] * rounds, 0.5)[:, None]
    z = np.where(mask, score / tau, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(share * np.where(mask, log_p, 0)).sum(axis=1).mean())


def fit(game: str, starts: int) -> tuple[dict[str, Any], dict[str, float]]:
    """The fitted network and temperature of a game, and its held-out scores."""
    from scipy.optimize import minimize
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    hidden = NativeGame(game).lib.MM_EVAL_HIDDEN  # the network's width C is compiled for
    d = samples(game, starts)
    x, gain, held = d["x"], d["gain"], d["held"]
    scaler = StandardScaler().fit(x[~held])
    std = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    z = (x - scaler.mean_) / std
    scale = float(gain[~held].std())
    net = MLPRegressor(hidden_layer_sizes=(hidden,), alpha=1e-4, batch_size=512, learning_rate_init=2e-3, max_iter=100,
                       early_stopping=True, n_iter_no_change=4, random_state=SEED).fit(z[~held], gain[~held] / scale)
    linear = Ridge(alpha=1.0).fit(z[~held], gain[~held])
    predicted = net.predict(z) * scale
    w1 = net.coefs_[0] / std[:, None] * scale
    b1 = (net.intercepts_[0] - (scaler.mean_ / std) @ net.coefs_[0]) * scale
    w2, b2 = net.coefs_[1][:, 0], float(net.intercepts_[1][0])
    # the network with the standardisation folded in (what C computes) must agree
    assert np.allclose(np.maximum(x @ w1 + b1, 0) @ w2 + b2 * scale, predicted, atol=1e-3 * scale + 1e-3)

    m = d["now"].shape[1]
    mask = np.arange(m)[None, :] < d["players"][:, None]
    score = d["now"].copy()
    score[d["group"], np.concatenate([np.arange(n) for n in d["players"]])] += predicted
    pos_held = np.zeros(len(d["rounds"]), dtype=bool)
    pos_held[d["group"][held]] = True
    args = (score[~pos_held], d["share"][~pos_held], d["rounds"][~pos_held], mask[~pos_held])
    temperature = minimize(win_loss, np.array([5.0, 1.0]), args=args, method="L-BFGS-B",
                           bounds=[(0.5, 100.0), (0.0, 20.0)]).x
    test = (d["share"][pos_held], d["rounds"][pos_held], mask[pos_held])
    two = held & (d["players"][d["group"]] == 2)
    report = {
        "positions": int(len(d["rounds"])), "rows": int(len(gain)), "held_out_rows": int(held.sum()),
        "mse_score_now": float(np.mean(gain[held] ** 2)),
        "mse_linear": float(np.mean((linear.predict(z[held]) - gain[held]) ** 2)),
        "mse_network": float(np.mean((predicted[held] - gain[held]) ** 2)),
        "mse_2p_difference_score_now": float(np.mean(_pair_difference(gain, two) ** 2)),
        "mse_2p_difference_linear": float(np.mean(_pair_difference(gain - linear.predict(z), two) ** 2)),
        "mse_2p_difference_network": float(np.mean(_pair_difference(gain - predicted, two) ** 2)),
        "win_log_loss_uniform": win_loss(np.array([1e9, 0.0]), score[pos_held], *test),
        "win_log_loss": win_loss(temperature, score[pos_held], *test),
    }
    model = {"hidden": hidden, "w1": _rounded(w1.ravel()), "b1": _rounded(b1), "w2": _rounded(w2),
             "b2": round(b2 * scale, 6), "temperature": _rounded(temperature), "features": x.shape[1] // 2}
    return model, report


def dumps(entry: dict[str, Any]) -> str:
    """An evaluation file's text: a line per key (a weight matrix on one line)."""
    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items()) + "\n}\n"


def _pair_difference(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Seat 0 minus seat 1 of the 2-player rows (consecutive pairs)."""
    pairs = values[rows].reshape(-1, 2)
    difference: np.ndarray = pairs[:, 0] - pairs[:, 1]
    return difference


def _rounded(values: np.ndarray) -> list[float]:
    return [round(float(v), 6) for v in values]


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
