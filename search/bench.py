"""``meeplemind bench``: engine and search speed, printed as one JSON object.

In the spirit of ``stockfish bench``: fixed starting positions, fixed seeds, rates
measured in one run so that ratios between engines are meaningful on a noisy machine.
Random-playout records: ``{"game", "players", "engine": "c"|"python", "games_per_s",
"decisions_per_s", "decisions_per_game"}``; ``ratios.c_over_python`` is the headline
ratio (4 players when measured), with one ``c_over_python:<game>:<players>`` per pair.
ISMCTS records: ``{"game", "players", "engine": "ismcts", "threads", "rollout",
"iterations_per_s"}`` from the same start, and ``ratios.ismcts_threads_<T>_over_1``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..engine import Rng, game_ids, get_game
from ..native import NativeGame
from .ismcts import analyze

BENCH_SEED = 20261130
#: Player counts measured when none are given (those the game is played by).
BENCH_PLAYERS = (2, 4)


def _python_playouts(game: Any, players: int, seconds: float) -> tuple[int, int, float]:
    start = game.new_game(players, BENCH_SEED)
    rng, games, decisions = Rng(BENCH_SEED), 0, 0
    t0 = time.perf_counter()
    while True:
        state = start
        while not state.is_terminal:
            legal = state.legal_action_ids()
            state = state.apply(state.move_from_id(legal[rng.below(len(legal))]), rng)
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games, decisions, elapsed


def _c_playouts(game: Any, players: int, seconds: float) -> tuple[int, int, float]:
    native = NativeGame(game.GAME_ID)
    start = native.decode(game.new_game(players, BENCH_SEED).encode())
    games, decisions, batch, seed = 0, 0, 50, BENCH_SEED
    t0 = time.perf_counter()
    while True:
        decisions += native.playouts(start, batch, seed, 0)
        games += batch
        seed += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games, decisions, elapsed
        batch = min(batch * 2, max(50, int(games / elapsed * 0.25)))


def _record(game_id: str, players: int, engine: str, games: int, decisions: int,
            elapsed: float) -> dict[str, Any]:
    return {"game": game_id, "players": players, "engine": engine,
            "games_per_s": round(games / elapsed, 2),
            "decisions_per_s": round(decisions / elapsed, 1),
            "decisions_per_game": round(decisions / games, 1)}


def _ismcts_record(game: Any, players: int, threads: int, rollout: str,
                   seconds: float) -> dict[str, Any]:
    result = analyze(game.new_game(players, BENCH_SEED), time_ms=seconds * 1e3, threads=threads,
                     seed=BENCH_SEED, rollout_policy=rollout)
    return {"game": game.GAME_ID, "players": players, "engine": "ismcts", "threads": threads,
            "rollout": rollout, "iterations_per_s": round(result.iterations / result.elapsed_ms * 1e3, 1)}


def run_bench(games: Sequence[str] | None = None, players: Sequence[int] | None = None,
              seconds: float = 2.0, threads: Sequence[int] | None = None) -> dict[str, Any]:
    """Measure every (game, player count); ``seconds`` per engine and configuration."""
    if seconds <= 0:
        raise ValueError(f"seconds: {seconds} must be positive")
    results: list[dict[str, Any]] = []
    ratios: dict[str, float] = {}
    for game_id in games or game_ids():
        game = get_game(game_id)
        for n in players or [c for c in BENCH_PLAYERS if c in game.PLAYER_COUNTS]:
            if n not in game.PLAYER_COUNTS:
                raise ValueError(f"players: {game_id} is played by {list(game.PLAYER_COUNTS)}, not {n}")
            c = _record(game_id, n, "c", *_c_playouts(game, n, seconds))
            py = _record(game_id, n, "python", *_python_playouts(game, n, seconds))
            results += [c, py]
            ratio = round(c["games_per_s"] / py["games_per_s"], 1)
            ratios[f"c_over_python:{game_id}:{n}"] = ratio
            if "c_over_python" not in ratios or n == 4:
                ratios["c_over_python"] = ratio
            for rollout in ("random", "heuristic"):
                records = [_ismcts_record(game, n, t, rollout, seconds) for t in sorted({1, *(threads or [2])})]
                results += records
                for r in records[1:]:
                    ratios[f"ismcts_threads_{r['threads']}_over_1:{game_id}:{n}:{rollout}"] = round(
                        r["iterations_per_s"] / records[0]["iterations_per_s"], 2)
    return {"results": results, "ratios": ratios}
