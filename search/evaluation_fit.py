"""The fit of a game's learned evaluation network (mm_eval.h) to samples: what
tools/fit_evaluation.py runs on heuristic playouts and ``meeplemind train`` on the search's
self-play (search/training.py).  scikit-learn and scipy: ``pip install 'meeplemind[fit]'``."""

from __future__ import annotations

from typing import Any

import numpy as np

#: The seed of the network's initial weights and batches.
SEED = 2026


def win_loss(temperature: np.ndarray, score: np.ndarray, share: np.ndarray, rounds: np.ndarray,
             mask: np.ndarray) -> float:
    """Mean cross-entropy of the final win shares under softmax(score / tau)."""
    tau = np.maximum(temperature[0] + temperature[1] * rounds, 0.5)[:, None]
    z = np.where(mask, score / tau, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(share * np.where(mask, log_p, 0)).sum(axis=1).mean())


def fit_samples(d: dict[str, np.ndarray], hidden: int, seed: int = SEED,
                start: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, float]]:
    """The network (``hidden`` units, the width C is compiled for) and temperature fitted to
    samples as ``samples`` gives them (also search self-play's, search/training.py), and
    their held-out scores; with ``start`` (a model of the same shape) the network is
    fine-tuned from it rather than fitted from random weights."""
    from scipy.optimize import minimize
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    x, gain, held = d["x"], d["gain"], d["held"]
    scaler = StandardScaler().fit(x[~held])
    std = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    z = (x - scaler.mean_) / std
    scale = float(gain[~held].std())
    net = MLPRegressor(hidden_layer_sizes=(hidden,), alpha=1e-4, batch_size=512, learning_rate_init=2e-3, max_iter=100,
                       early_stopping=True, n_iter_no_change=4, random_state=seed, warm_start=start is not None)
    if start is not None:  # shape the network, then set the start's weights in standardised units
        net.set_params(max_iter=1).fit(z[~held][:512], gain[~held][:512] / scale)
        w1 = np.asarray(start["w1"]).reshape(-1, hidden)
        net.coefs_ = [w1 * std[:, None] / scale, np.asarray(start["w2"], dtype=float)[:, None]]
        net.intercepts_ = [(np.asarray(start["b1"]) + scaler.mean_ @ w1) / scale, np.array([start["b2"] / scale])]
        net.set_params(max_iter=100, learning_rate_init=1e-4)
    net.fit(z[~held], gain[~held] / scale)
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
        "win_log_loss_uniform": win_loss(np.array([1e9, 0.0]), score[pos_held], *test),
        "win_log_loss": win_loss(temperature, score[pos_held], *test),
    }
    if two.any():  # the 2-player rows' error on who is ahead, and by how much
        report |= {"mse_2p_difference_score_now": float(np.mean(_pair_difference(gain, two) ** 2)),
                   "mse_2p_difference_linear": float(np.mean(_pair_difference(gain - linear.predict(z), two) ** 2)),
                   "mse_2p_difference_network": float(np.mean(_pair_difference(gain - predicted, two) ** 2))}
    model = {"hidden": hidden, "w1": _rounded(w1.ravel()), "b1": _rounded(b1), "w2": _rounded(w2),
             "b2": round(b2 * scale, 6), "temperature": _rounded(temperature), "features": x.shape[1] // 2}
    return model, report


def _pair_difference(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Seat 0 minus seat 1 of the 2-player rows (consecutive pairs)."""
    pairs = values[rows].reshape(-1, 2)
    difference: np.ndarray = pairs[:, 0] - pairs[:, 1]
    return difference


def _rounded(values: np.ndarray) -> list[float]:
    return [round(float(v), 6) for v in values]
