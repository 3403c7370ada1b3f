"""``meeplemind train GAME``: expert iteration of a game's evaluation and move priors.

A round of the loop, for the best generation so far (generation 0 is the compiled-in
weights, native/evaluation_<game>.json):

1. **Self-play**: ``games`` games, every seat the current search with the best generation's
   weights and ``iterations`` iterations a move.  Each decision with a choice records the
   network inputs of every seat (mm_eval.h), the scores now, the game's move priors and the
   search's visit count of every legal move; the game's end adds the final scores and win
   shares.  The first ``explore_moves`` decisions of a game play a move drawn in proportion to
   its visits (so games differ), the rest the most visited one.
2. **Fit** on the self-play of the last ``window`` rounds: the value network of the form C
   runs (one hidden layer, ``MM_EVAL_HIDDEN`` units: search/evaluation_fit.py's
   ``fit_samples``), fine-tuned from the best generation's, to the points each seat still
   scored, and its win temperature, kept only if it predicts the held-out games' winners
   better than the best generation's (else the candidate keeps that network); and the
   move priors' exponent ``prior_exponent`` (the game's priors raised to it and renormalised,
   mm_eval.h) by the least cross-entropy to the visit distributions.
3. **Gate**: the candidate plays the best generation, ``gate_games`` games of the ordinary
   arena (seeded, seats rotated, one candidate against ``players - 1`` best ones).  It is
   kept, and becomes the best, if its win share is at least ``GATE_FACTOR / players`` (0.55
   at 2 players, AlphaGo Zero's gate); the record keeps the 95% Wilson interval beside it.

Everything a round makes lives in the run directory (``state.json``, ``gen-NNN.json``
weights, ``selfplay-NNN.npz``), written once each, so a stopped run resumes where it
stopped, and every seed derives from the run's ``seed``.  A kept generation's weights and
its match are also written to the record directory (``training/<game>/``:
``generations.json``, every round with the command that made it, and ``gen-NNN.json``).  A search plays a
generation's weights from its file (``ismcts:weights=FILE``, loaded at run time: no
rebuild); ``--export`` makes the best one the compiled-in weights (the next ``make install``).
"""

from __future__ import annotations

import json
import resource
import shutil
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import Rng, get_game
from ..native import NativeGame
from ..native.weights import game_weights, read_weights_file, write_game_weights
from .arena import run_arena, wilson_interval
from .game_runner import run_jobs
from .ismcts import analyze
from .params import Budget, game_params

#: A candidate is kept when its win share is at least GATE_FACTOR / players.
GATE_FACTOR = 1.1
#: Every HELD_OUT-th self-play game is held out of the fit and scores it.
HELD_OUT = 5
#: A model's value network and win temperature (the rest is its prior exponent and shape).
VALUE_KEYS = ("w1", "b1", "w2", "b2", "temperature")
#: The range a prior exponent is fitted in.
PRIOR_EXPONENTS = (0.05, 8.0)


@dataclass(frozen=True)
class TrainConfig:
    """What a run plays and fits; stored in its state.json (a resumed run keeps it)."""

    game: str
    players: int = 2
    games: int = 200
    iterations: int = 800
    gate_games: int = 100
    explore_moves: int = 30
    window: int = 2
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        engine = get_game(self.game)
        if self.players not in engine.PLAYER_COUNTS:
            raise ValueError(f"players: {self.game} is played by {list(engine.PLAYER_COUNTS)}, not {self.players}")
        for name in ("games", "iterations", "gate_games", "window"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: {getattr(self, name)} must be at least 1")
        if self.games < HELD_OUT:
            raise ValueError(f"games: {self.games} must be at least {HELD_OUT} (every {HELD_OUT}th is held out)")
        if self.gate_games % self.players:
            raise ValueError(f"gate_games: {self.gate_games} must be a multiple of players ({self.players}): seats rotate")
        if self.explore_moves < 0:
            raise ValueError(f"explore_moves: {self.explore_moves} must be at least 0")
        try:
            game_weights(self.game)
        except KeyError:
            raise ValueError(f"game: {self.game} has no learned evaluation to train") from None


def selfplay_game(job: tuple[Any, ...]) -> dict[str, np.ndarray]:
    """One self-play game (see the module's step 1): ``job`` is (game, players, seed, weights
    file, iterations, explore_moves, options).  Per decision ``x`` (every seat's network
    inputs), ``rounds``, ``now`` (scores); per legal move ``prior`` and ``visits``, with
    ``legal`` moves per decision; the game's ``final`` scores and ``share``s; its ``cpu_s``."""
    game_id, players, seed, weights, iterations, explore_moves, options = job
    started = time.process_time()
    engine, native = get_game(game_id), NativeGame(game_id)
    state = engine.new_game(players, seed, **options)
    chance, pick = Rng(seed ^ 0xA5A5A5A5), Rng(seed ^ 0x5A5A5A5A)
    xs: list[np.ndarray] = []
    rounds, now, priors, visits, legal_counts = [], [], [], [], []
    decisions = 0
    while not state.is_terminal:
        buf = native.decode(state.encode())
        legal = native.legal_moves(buf)
        action = int(legal[0])
        if len(legal) > 1:
            found = native.eval_inputs(buf)
            prior = native.move_priors(buf)
            assert found is not None and prior is not None, f"{game_id} has no evaluation or priors"
            params = replace(game_params(game_id, players), seed=seed * 65537 + decisions, weights=weights)
            result = analyze(state, Budget(iterations=iterations), params)
            counts = dict((m.action, m.visits) for m in result.moves)
            visit = np.array([counts.get(int(a), 0) for a in legal], dtype=np.int64)
            xs.append(found[0])
            rounds.append(found[1])
            now.append(native.scores(buf)[:, 0])
            priors.append(prior)
            visits.append(visit)
            legal_counts.append(len(legal))
            if decisions < explore_moves:
                draw, cumulative = pick.below(int(visit.sum())), np.cumsum(visit)
                action = int(legal[int(np.searchsorted(cumulative, draw, side="right"))])
            else:
                action = result.moves[0].action
            decisions += 1
        state = state.apply(state.move_from_id(action), chance)
    return {"x": np.asarray(xs, dtype=np.float32), "rounds": np.asarray(rounds, dtype=np.float64),
            "now": np.asarray(now, dtype=np.float64), "prior": np.concatenate(priors),
            "visits": np.concatenate(visits), "legal": np.asarray(legal_counts, dtype=np.int64),
            "final": np.asarray(state.scores(), dtype=np.float64), "share": np.asarray(state.returns()),
            "cpu_s": np.asarray(time.process_time() - started)}


def value_samples(games: Sequence[dict[str, np.ndarray]], max_players: int) -> dict[str, np.ndarray]:
    """Self-play games as search/evaluation_fit.py's samples: a row per (decision, seat)."""
    xs, gains, groups, helds, rounds, nows, shares, players = [], [], [], [], [], [], [], []
    positions = 0
    for index, g in enumerate(games):
        decisions, n = g["now"].shape
        xs.append(g["x"].reshape(decisions * n, -1))
        gains.append((g["final"][None, :] - g["now"]).ravel())
        groups.append(np.repeat(np.arange(positions, positions + decisions), n))
        helds.append(np.full(decisions * n, index % HELD_OUT == 0))
        rounds.append(g["rounds"])
        pad = np.zeros((decisions, max_players))
        pad[:, :n] = g["now"]
        nows.append(pad)
        share = np.zeros((decisions, max_players))
        share[:, :n] = g["share"]
        shares.append(share)
        players.append(np.full(decisions, n))
        positions += decisions
    return {"x": np.concatenate(xs), "gain": np.concatenate(gains), "group": np.concatenate(groups),
            "held": np.concatenate(helds), "rounds": np.concatenate(rounds), "now": np.concatenate(nows),
            "share": np.concatenate(shares), "players": np.concatenate(players)}


def prior_cross_entropy(exponent: float, prior: np.ndarray, visits: np.ndarray, legal: np.ndarray) -> float:
    """Mean cross-entropy of the decisions' visit distributions under their priors raised to
    ``exponent`` and renormalised."""
    starts = np.concatenate(([0], np.cumsum(legal)[:-1]))
    z = exponent * np.log(np.maximum(prior, 1e-300))
    top = np.maximum.reduceat(z, starts)
    log_total = np.log(np.add.reduceat(np.exp(z - np.repeat(top, legal)), starts)) + top
    target = visits / np.repeat(np.add.reduceat(visits, starts), legal)
    return float(-(target * (z - np.repeat(log_total, legal))).sum() / len(legal))


def fit_prior_exponent(prior: np.ndarray, visits: np.ndarray, legal: np.ndarray) -> float:
    """The exponent of least ``prior_cross_entropy`` in ``PRIOR_EXPONENTS``."""
    from scipy.optimize import minimize_scalar

    found = minimize_scalar(prior_cross_entropy, bounds=PRIOR_EXPONENTS, args=(prior, visits, legal),
                            method="bounded", options={"xatol": 1e-3})
    return float(found.x)


def held_out_win_loss(model: dict[str, Any], samples: dict[str, np.ndarray]) -> float:
    """The mean cross-entropy of the held-out games' winners under a model's evaluation
    (search/evaluation_fit.py's ``win_log_loss`` of a fitted model, for any model)."""
    from .evaluation_fit import win_loss

    w1 = np.asarray(model["w1"]).reshape(-1, int(model["hidden"]))
    gain = np.maximum(samples["x"] @ w1 + np.asarray(model["b1"]), 0) @ np.asarray(model["w2"]) + model["b2"]
    players = samples["players"]
    score = samples["now"].copy()
    score[samples["group"], np.concatenate([np.arange(n) for n in players])] += gain
    held = np.zeros(len(players), dtype=bool)
    held[samples["group"][samples["held"]]] = True
    mask = np.arange(score.shape[1])[None, :] < players[:, None]
    return win_loss(np.asarray(model["temperature"]), score[held], samples["share"][held], samples["rounds"][held],
                    mask[held])


def fit_generation(game_id: str, games: Sequence[dict[str, np.ndarray]], seed: int,
                   start: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The next generation's model from self-play games, and its fit's report: its value
    network fine-tuned from ``start`` (the best generation's model), or ``start``'s again if
    that tells the held-out games' winners at least as well; its prior exponent fitted."""
    from threadpoolctl import threadpool_limits

    from .evaluation_fit import fit_samples

    native = NativeGame(game_id)
    samples = value_samples(games, native.max_players)
    # the matrices are small: more BLAS threads only contend (8x slower here); scikit-learn's
    # convergence notes are no news (early stopping ends the fit), as in make fit-evaluation
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model, scores = fit_samples(samples, int(native.lib.MM_EVAL_HIDDEN), seed, start)
    report: dict[str, Any] = dict(scores)
    prior, visits, legal = (np.concatenate([g[k] for g in games]) for k in ("prior", "visits", "legal"))
    model["prior_exponent"] = round(fit_prior_exponent(prior, visits, legal), 4)
    report["win_log_loss_start"] = held_out_win_loss(start, samples)
    if report["win_log_loss_start"] <= report["win_log_loss"]:  # the start tells the held-out winners better
        model |= {k: start[k] for k in VALUE_KEYS}
    report["value_network"] = "fitted" if model["w1"] != start["w1"] else "the best generation's"
    report = {k: round(v, 4) if isinstance(v, float) else v for k, v in report.items()}
    report["prior_cross_entropy_before"] = round(prior_cross_entropy(1.0, prior, visits, legal), 4)
    report["prior_cross_entropy"] = round(prior_cross_entropy(model["prior_exponent"], prior, visits, legal), 4)
    return model, report


def bot_spec(config: TrainConfig, weights: Path) -> str:
    """The arena bot of a generation: the current search with its weights."""
    return f"ismcts:iterations={config.iterations},weights={weights}"


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _save_games(path: Path, games: Sequence[dict[str, np.ndarray]]) -> None:
    arrays = {f"{i}.{k}": v for i, g in enumerate(games) for k, v in g.items()}
    partial = path.with_suffix(".partial.npz")
    np.savez_compressed(partial, **arrays)  # type: ignore[arg-type]
    partial.replace(path)


def _load_games(path: Path) -> list[dict[str, np.ndarray]]:
    with np.load(path) as data:
        games: dict[int, dict[str, np.ndarray]] = {}
        for name in data.files:
            index, _, key = name.partition(".")
            games.setdefault(int(index), {})[key] = data[name]
    return [games[i] for i in sorted(games)]


def _write_json(path: Path, data: Any) -> None:
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(data, indent=1) + "\n")
    partial.replace(path)


class TrainingRun:
    """A run directory: its config, the generations and the rounds played (``state.json``)."""

    def __init__(self, directory: str | Path, config: TrainConfig) -> None:
        self.dir = Path(directory)
        self.state_file = self.dir / "state.json"
        if self.state_file.exists():
            self.state = json.loads(self.state_file.read_text())
            stored = TrainConfig(**self.state["config"])
            if stored != config:
                raise ValueError(f"run: {self.dir} was started with {asdict(stored)}, not {asdict(config)}: "
                                 "resume it with the same settings or start another run directory")
        else:
            config.check()
            self.dir.mkdir(parents=True, exist_ok=True)
            _write_json(self.weights(0), {"game": config.game, "generation": 0, "model": game_weights(config.game)})
            self.state = {"config": asdict(config), "best": 0, "rounds": []}
            self.save()
        self.config = config

    def weights(self, generation: int) -> Path:
        return self.dir / f"gen-{generation:03d}.json"

    def save(self) -> None:
        _write_json(self.state_file, self.state)

    def selfplay(self, round_: int, workers: int, ray: str | None,
                 progress: Callable[[int, int], object] | None) -> list[dict[str, np.ndarray]]:
        """Round ``round_``'s self-play games by the best generation (played once, then read)."""
        path = self.dir / f"selfplay-{round_:03d}.npz"
        if not path.exists():
            c = self.config
            weights = str(self.weights(self.state["best"]))
            jobs = [(c.game, c.players, c.seed * 1_000_003 + round_ * 10_007 + i, weights, c.iterations,
                     c.explore_moves, c.options) for i in range(c.games)]
            _save_games(path, list(run_jobs(selfplay_game, jobs, workers, ray, progress)))
        return _load_games(path)

    def play_round(self, round_: int, workers: int = 1, ray: str | None = None,
                   progress: Callable[[str, int, int], object] | None = None) -> dict[str, Any]:
        """Self-play, fit and gate of round ``round_`` (each step skipped when done before)."""
        c, best = self.config, self.state["best"]

        def step(name: str) -> Callable[[int, int], object] | None:
            return (lambda done, total: progress(name, done, total)) if progress else None

        cpu = _cpu_s()
        games = self.selfplay(round_, workers, ray, step("self-play"))
        selfplay_cpu = sum(float(g["cpu_s"]) for g in games)
        window = [g for r in range(max(1, round_ - c.window + 1), round_) for g in self.selfplay(r, workers, ray, None)]
        fit_cpu = time.process_time()
        candidate = self.weights(round_)
        if candidate.exists():
            _, model = read_weights_file(candidate)
            fit_report = json.loads(candidate.read_text())["fit"]
        else:
            model, fit_report = fit_generation(c.game, window + games, c.seed + round_,
                                               read_weights_file(self.weights(best))[1])
            _write_json(candidate, {"game": c.game, "generation": round_, "model": model, "fit": fit_report})
        fit_cpu = time.process_time() - fit_cpu
        gate_cpu = _cpu_s()
        specs = [bot_spec(c, candidate)] + [bot_spec(c, self.weights(best))] * (c.players - 1)
        match = run_arena(c.game, specs, c.gate_games, c.seed * 7919 + round_, c.options, workers,
                          step("gate"), ray)
        gate_cpu = _cpu_s() - gate_cpu
        share = match["bots"][0]["win_share"]
        lo, hi = wilson_interval(share, c.gate_games)
        record = {"round": round_, "candidate": round_, "against": best, "selfplay_games": len(games),
                  "decisions": int(sum(len(g["rounds"]) for g in games)), "fit": fit_report,
                  "prior_exponent": model["prior_exponent"],
                  "match": {"games": c.gate_games, "win_share": share, "ci95": [round(lo, 4), round(hi, 4)],
                            "gate": round(GATE_FACTOR / c.players, 4), "seed": match["seed"]},
                  "kept": share >= GATE_FACTOR / c.players,
                  "cpu_s": {"selfplay": round(selfplay_cpu, 1), "fit": round(fit_cpu, 1),
                            "gate": round(gate_cpu, 1) if ray is None else None,
                            "total_here": round(_cpu_s() - cpu, 1)}}
        if record["kept"]:
            self.state["best"] = round_
        self.state["rounds"].append(record)
        self.save()
        return record


def record_round(record_dir: str | Path, run: TrainingRun, record: dict[str, Any], command: str) -> None:
    """Append a round (its record, the run's settings and ``command``) to ``record_dir``'s
    generations.json (the repository's ``training/<game>/``), and a kept generation's weights
    beside it."""
    directory = Path(record_dir)
    directory.mkdir(parents=True, exist_ok=True)
    index = directory / "generations.json"
    if not index.exists():  # generation 0: the compiled-in weights the first round started from
        shutil.copyfile(run.weights(0), directory / run.weights(0).name)
    known: dict[str, Any] = json.loads(index.read_text()) if index.exists() else {
        "game": run.config.game, "about": "meeplemind train's rounds and kept generations (search/training.py, docs/training.md)",
        "kept": [{"generation": 0, "weights": run.weights(0).name}], "rounds": []}
    if record["kept"]:
        name = f"gen-{record['candidate']:03d}.json"
        shutil.copyfile(run.weights(record["candidate"]), directory / name)
        known["kept"].append({"generation": record["candidate"], "weights": name, "round": record["round"]})
    known["rounds"].append({"command": command, "config": run.state["config"]} | record)
    _write_json(index, known)


def check_record(record_dir: str | Path, run: TrainingRun) -> None:
    """ValueError naming ``record`` when ``record_dir`` holds rounds that started from other
    generation-0 weights than ``run``'s (the compiled-in weights changed since): its rounds
    would gate against a generation its list does not hold."""
    recorded = Path(record_dir) / run.weights(0).name
    if (Path(record_dir) / "generations.json").exists() and recorded.exists() and \
            json.loads(recorded.read_text())["model"] != json.loads(run.weights(0).read_text())["model"]:
        raise ValueError(f"record: {recorded} is not this run's generation 0 (the compiled-in weights "
                         f"changed since its rounds); record into a new directory")


def train(config: TrainConfig, run_dir: str | Path, rounds: int, workers: int = 1, ray: str | None = None,
          record_dir: str | Path | None = None, command: str = "",
          progress: Callable[[str, int, int], object] | None = None,
          on_round: Callable[[dict[str, Any]], object] | None = None) -> dict[str, Any]:
    """Play the run's rounds up to ``rounds`` (the ones done before are kept) and return its
    state; each round, and each kept generation's weights, go to ``record_dir`` too."""
    if rounds < 1:
        raise ValueError(f"generations: {rounds} must be at least 1")
    run = TrainingRun(run_dir, config)
    if record_dir is not None:
        check_record(record_dir, run)
    for round_ in range(len(run.state["rounds"]) + 1, rounds + 1):
        record = run.play_round(round_, workers, ray, progress)
        if record_dir is not None:
            record_round(record_dir, run, record, command)
        if on_round:
            on_round(record)
    return dict(run.state)


def export_best(run_dir: str | Path) -> int:
    """Make a run's best generation the game's compiled-in weights (native/evaluation_<game>.json;
    the next ``make install`` builds them); returns its number (0: nothing to export)."""
    state = json.loads((Path(run_dir) / "state.json").read_text())
    best = int(state["best"])
    if best:
        path = Path(run_dir) / f"gen-{best:03d}.json"
        game, model = read_weights_file(path)
        write_game_weights(game, model, {"trained": f"generation {best} of meeplemind train",
                                         **json.loads(path.read_text())["fit"]})
    return best
