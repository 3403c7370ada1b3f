"""``meeplemind bench``: engine and search speed, printed as one JSON object; and the
bench signature.

In the spirit of ``stockfish bench``: fixed starting positions, fixed seeds, rates
measured in one run so that ratios between engines are meaningful on a noisy machine.
Random-playout records: ``{"game", "players", "engine": "c"|"python", "games_per_s",
"decisions_per_s", "decisions_per_game"}``; ``ratios.c_over_python`` is the headline
ratio (4 players when measured), with one ``c_over_python:<game>:<players>`` per pair.
ISMCTS records: ``{"game", "players", "engine": "ismcts", "threads", "rollout",
"iterations_per_s"}`` from the same start, and ``ratios.ismcts_threads_<T>_over_1``.
Reference records: ``{"game", "players", "engine": "c/reference", "playouts_per_cpu_s",
"reference_per_cpu_s", "engine_over_reference"}``: random C playouts per CPU-second over
the units per CPU-second of a fixed C routine built with the same flags
(``native/mm_reference.h``), in alternating slices of one process, so the ratio
(``ratios.engine_over_reference:<game>:<players>``) stays on a loaded or another machine
and falls when an engine gets slower (each game's ``SPEED_FLOORS`` is its floor;
docs/measurements.md keeps the history).
``machine`` has the cores and the load average before and after: the rates and ratios
are unreliable when other work shares the cores (``load_warning`` says so).

``signature()`` is Stockfish's bench node count for meeplemind: seeded games played by
both engines and seeded searches of every game's ``BENCH_SETUPS``, hashed into one number
that changes whenever the rules or the search behave differently (``tests/search/test_bench.py``
pins it); ``signature_report()`` also gives each setup's counts and own hash.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine import Rng, game_ids, get_game
from ..engine.game import Game
from ..native import NativeGame, reference_work
from .ismcts import analyze
from .params import Budget, game_params
from .progress import progress_bar

BENCH_SEED = 20261130
#: Player counts measured when none are given (those the game is played by).
BENCH_PLAYERS = (2, 4)
ROLLOUTS = ("random", "heuristic")
#: Above this 1-minute load average per core, other work skews the rates and ratios.
LOAD_PER_CORE_LIMIT = 0.5
#: The reference workload's seed; engine and reference alternate slices of at least
#: SLICE_CPU_SECONDS of CPU time each.
REFERENCE_SEED = 1
SLICE_CPU_SECONDS = 0.02


@dataclass(frozen=True)
class Measurement:
    """One timed measurement of a bench run."""

    label: str
    run: Callable[[], dict[str, Any]]


def _python_playouts(game: Game, players: int, seconds: float) -> tuple[int, int, float]:
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


def _c_playouts(game: Game, players: int, seconds: float) -> tuple[int, int, float]:
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


def _playout_record(game: Game, players: int, engine: str, seconds: float) -> dict[str, Any]:
    playouts = _c_playouts if engine == "c" else _python_playouts
    return _record(game.GAME_ID, players, engine, *playouts(game, players, seconds))


def engine_over_reference(game: Game, players: int, seconds: float) -> dict[str, Any]:
    """Random C playouts (``_c_playouts``' start) per CPU-second over the reference
    workload's units per CPU-second, the two alternating in slices for about ``seconds``
    of CPU time: a ratio other work on the machine leaves alone, since both sides run
    in the same process at the same moments."""
    native = NativeGame(game.GAME_ID)
    start = native.decode(game.new_game(players, BENCH_SEED).encode())
    sides: dict[str, Callable[[int, int], object]] = {
        "engine": lambda n, i: native.playouts(start, n, BENCH_SEED + i, 0),
        "reference": lambda n, i: reference_work(n, REFERENCE_SEED + i)}
    batch, done, spent = dict.fromkeys(sides, 1), dict.fromkeys(sides, 0), dict.fromkeys(sides, 0.0)
    for i in itertools.count():
        for side, run in sides.items():
            t0 = time.process_time()
            run(batch[side], i)
            used = time.process_time() - t0
            done[side], spent[side] = done[side] + batch[side], spent[side] + used
            batch[side] *= 2 if used < SLICE_CPU_SECONDS else 1
        if sum(spent.values()) >= seconds and min(spent.values()) > 0:
            break
    engine, reference = done["engine"] / spent["engine"], done["reference"] / spent["reference"]
    return {"game": game.GAME_ID, "players": players, "engine": "c/reference",
            "playouts_per_cpu_s": round(engine, 1), "reference_per_cpu_s": round(reference, 1),
            "engine_over_reference": round(engine / reference, 3)}


def _ismcts_record(game: Game, players: int, threads: int, rollout: str,
                   seconds: float) -> dict[str, Any]:
    params = replace(game_params(game.GAME_ID, players), seed=BENCH_SEED, rollout_policy=rollout)
    result = analyze(game.new_game(players, BENCH_SEED), Budget(time_ms=seconds * 1e3, threads=threads), params)
    return {"game": game.GAME_ID, "players": players, "engine": "ismcts", "threads": threads,
            "rollout": rollout, "iterations_per_s": round(result.iterations / result.elapsed_ms * 1e3, 1)}


def plan(games: Sequence[str] | None = None, players: Sequence[int] | None = None,
         seconds: float = 2.0, threads: Sequence[int] | None = None) -> list[Measurement]:
    """The measurements of a bench run, in order, each taking about ``seconds``."""
    if seconds <= 0:
        raise ValueError(f"seconds: {seconds} must be positive")
    measurements = []
    for game_id in games or game_ids():
        game = get_game(game_id)
        for n in players or [c for c in BENCH_PLAYERS if c in game.PLAYER_COUNTS]:
            if n not in game.PLAYER_COUNTS:
                raise ValueError(f"players: {game_id} is played by {list(game.PLAYER_COUNTS)}, not {n}")
            measurements += [Measurement(f"{game_id} {n}p {label}", functools.partial(
                _playout_record, game, n, engine, seconds)) for engine, label in (("c", "C"), ("python", "Python"))]
            measurements.append(Measurement(f"{game_id} {n}p C over reference",
                                            functools.partial(engine_over_reference, game, n, seconds)))
            measurements += [Measurement(f"{game_id} {n}p ISMCTS {rollout} {t}T",
                                         functools.partial(_ismcts_record, game, n, t, rollout, seconds))
                             for rollout in ROLLOUTS for t in sorted({1, *(threads or [2])})]
    return measurements


def ratios(results: Sequence[dict[str, Any]]) -> dict[str, float]:
    """C over Python games/s per (game, players), the engine over the reference workload
    per (game, players), and ISMCTS iterations/s of T threads over one thread per (game,
    players, rollout)."""
    found: dict[str, float] = {}
    by_key = {(r["game"], r["players"], r["engine"], r.get("threads"), r.get("rollout")): r for r in results}
    for (game_id, n, engine, threads, rollout), r in by_key.items():
        if engine == "c":
            ratio = round(r["games_per_s"] / by_key[game_id, n, "python", None, None]["games_per_s"], 1)
            found[f"c_over_python:{game_id}:{n}"] = ratio
            if "c_over_python" not in found or n == 4:
                found["c_over_python"] = ratio
        elif engine == "c/reference":
            found[f"engine_over_reference:{game_id}:{n}"] = r["engine_over_reference"]
        elif engine == "ismcts" and threads != 1:
            one = by_key[game_id, n, "ismcts", 1, rollout]["iterations_per_s"]
            found[f"ismcts_threads_{threads}_over_1:{game_id}:{n}:{rollout}"] = round(
                r["iterations_per_s"] / one, 2)
    return found


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def load_warning(load: float, cores: int) -> str | None:
    """A warning when the 1-minute load average says other work shares the cores."""
    if load <= LOAD_PER_CORE_LIMIT * cores:
        return None
    return (f"load average {load:.2f} on {cores} cores: other work shares the CPU, so the rates "
            "and ratios are unreliable (measure on an idle machine)")


def run_bench(games: Sequence[str] | None = None, players: Sequence[int] | None = None,
              seconds: float = 2.0, threads: Sequence[int] | None = None,
              say: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Measure every (game, player count); ``seconds`` per engine and configuration.
    ``say`` is told up front how long it will take and whether the load is too high."""
    measurements = plan(games, players, seconds, threads)
    load_before, machine_cores = os.getloadavg()[0], cores()
    say(f"bench: {len(measurements)} measurements of {seconds:g} s, about "
        f"{len(measurements) * seconds:.0f} s")
    warning = load_warning(load_before, machine_cores)
    if warning:
        say(f"bench: warning: {warning}")
    results = []
    with progress_bar(len(measurements), "measurement", "bench") as bar:
        for m in measurements:
            bar.set_postfix_str(m.label)
            results.append(m.run())
            bar.update()
    return {"results": results, "ratios": ratios(results), "machine": machine_report(load_before)}


def machine_report(load_before: float) -> dict[str, Any]:
    """The cores and the load average before a measurement and now, with a warning when
    other work shares the cores."""
    load_after, machine_cores = os.getloadavg()[0], cores()
    return {"cores": machine_cores, "load_average_before": round(load_before, 2),
            "load_average_after": round(load_after, 2),
            "load_warning": load_warning(load_before, machine_cores) or load_warning(load_after, machine_cores)}


# ---------------------------------------------------------------- the signature
SIGNATURE_SEEDS = (1, 2)
SIGNATURE_PLAYOUTS = 20
SIGNATURE_ITERATIONS = 400


@dataclass(frozen=True)
class SetupSignature:
    """One setup's share of the signature: what it counted and the hash of its facts, so a
    changed signature says which game and setup moved (as Stockfish prints nodes per position)."""

    game_id: str
    options: dict[str, str]
    players: int
    decisions: int  # moves of the Python games and of the C playouts
    nodes: int  # tree nodes of the searches
    digest: str  # hex, of this setup's facts alone

    def line(self) -> str:
        options = " ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        setup = f"{self.game_id} {self.players}p{' ' + options if options else ''}"
        return f"{setup:<45} decisions {self.decisions:>8}  nodes {self.nodes:>6}  hash {self.digest}"


def signature_setups() -> tuple[tuple[str, dict[str, str], int], ...]:
    """(game, options, players) of the signature's games and searches: every registered
    game's ``BENCH_SETUPS``, in the registry's order."""
    return tuple((game_id, dict(options), players)
                 for game_id in game_ids() for options, players in get_game(game_id).BENCH_SETUPS)


def signature(seed: int = BENCH_SEED) -> int:
    """One number from seeded games and searches (same code, same number; any change of
    the rules in Python or C, or of the search, changes it)."""
    return signature_report(seed)[0]


def signature_report(seed: int = BENCH_SEED) -> tuple[int, list[SetupSignature]]:
    """The signature and each setup's share of it."""
    digest = hashlib.sha256()
    setups = []
    for game_id, options, players in signature_setups():
        own, decisions, nodes = hashlib.sha256(), 0, 0
        for fact, fact_decisions, fact_nodes in _setup_facts(game_id, options, players, seed):
            data = repr(fact).encode()
            digest.update(data)
            own.update(data)
            decisions, nodes = decisions + fact_decisions, nodes + fact_nodes
        setups.append(SetupSignature(game_id, options, players, decisions, nodes, own.hexdigest()[:12]))
    return int.from_bytes(digest.digest()[:6], "big"), setups


def _setup_facts(game_id: str, options: dict[str, str], players: int, seed: int) -> Iterator[tuple[Any, int, int]]:
    """What the signature hashes of one setup, per seed, each with the decisions and nodes it
    counts: a random game by the Python rules (its moves and final scores), C playouts from
    its start and its middle (decisions, for both rollout policies), and a one-thread search
    of its middle position (per move: visits, win rate, expected scores, line of play; the
    tree's size)."""
    game = get_game(game_id)
    native = NativeGame(game_id)
    for s in SIGNATURE_SEEDS:
        state, rng, moves = game.new_game(players, seed + s, **options), Rng(seed * s), []
        history = [state]
        while not state.is_terminal:
            legal = state.legal_action_ids()
            moves.append(legal[rng.below(len(legal))])
            state = state.apply(state.move_from_id(moves[-1]), rng)
            history.append(state)
        yield (game_id, players, s, moves, state.scores(), state.tiebreaks()), len(moves), 0
        middle = history[len(history) // 2]
        for position in (history[0], middle):
            buf = native.decode(position.encode())
            playouts = [native.playouts(buf, SIGNATURE_PLAYOUTS, seed + s, policy) for policy in (0, 1)]
            yield playouts, sum(playouts), 0
        result = analyze(middle, Budget(iterations=SIGNATURE_ITERATIONS), replace(game_params(game_id, players), seed=seed + s))
        yield (result.nodes, result.root_value, [
            (m.move, m.visits, m.win_rate, m.expected_scores, m.pv) for m in result.moves]), 0, result.nodes
