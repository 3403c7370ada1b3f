"""Lockstep and decoder-fuzz drivers for every C twin, shared by the tests.

A ``Profile`` (in ``PROFILES``) says how to set games of one engine up and which fields
the fuzzer sweeps; the drivers themselves know no game. Run
in-process by the release-build tests, and in a subprocess from the repository root
for the sanitizer build (which needs libasan preloaded into the interpreter)::

    MEEPLEMIND_NATIVE=asan python -m tests.native.native_support lockstep --game puerto-rico --games 200
    MEEPLEMIND_NATIVE=asan python -m tests.native.native_support fuzz --game puerto-rico --vectors 100000

``--game`` names a profile: a game id, or a game id and a variant of its setups
(``puerto-rico+new-buildings``: Expansion I games, state vector layout 2).

Both print one JSON summary line and exit 0, or raise (exit 1) on the first mismatch.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import multiprocessing
import os
import pathlib
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from meeplemind.engine.rng import Rng
from meeplemind.native import NativeDecodeError, NativeGame, load

ROOT = pathlib.Path(__file__).resolve().parents[2]
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
LIB = load()[1]  # the build under test ($MEEPLEMIND_NATIVE)
HEURISTIC = 1

Setup = tuple[int, dict[str, Any]]  # players, game options


@dataclass(frozen=True)
class Profile:
    """How the drivers use one game's engines.

    ``setups`` are cycled through by the lockstep games and the fuzz corpus. The C
    decoder is the one validator: its verdict on a vector with a cell out of the
    schema's range must name that cell in the schema's words (``schema_verdict``), and a
    vector with every cell in range it accepts or rejects by a consistency rule.
    ``sweep`` lists the vector fields the fuzzer sets to every value in
    ``sweep_values`` (who is to move, progress within the turn). The CI counts
    (``lockstep_games`` on the release build, ``sanitizer_games`` on the sanitizer build,
    ``fuzz_vectors`` fed to the release decoder) are the profile's own: an engine with
    more to prove (hidden hands, negotiation) plays more."""

    game_id: str  # the engine (Python and C) the profile drives
    setups: tuple[Setup, ...]
    sweep: tuple[int, ...]
    sweep_values: range = range(-1, 7)
    wide_sweep: dict[int, range] = field(default_factory=dict)
    shortest_game: int = 100  # decisions the shortest whole game takes at the least
    lockstep_games: int = 1000
    sanitizer_games: int = 100
    fuzz_vectors: int = 50_000

    @property
    def engine(self) -> ModuleType:
        """The reference engine, also of a game the service does not list yet."""
        return importlib.import_module(f"meeplemind.engine.{self.game_id.replace('-', '_')}")


def _puerto_rico(expansion: bool = False) -> Profile:
    """Base games (layout 1) or Expansion I games (layout 2: drafted by the players, or
    ``draft=random``)."""
    players = (2, 3, 4, 5)
    if not expansion:
        return Profile("puerto-rico", tuple((n, {}) for n in players), sweep=tuple(range(3, 20)),
                       wide_sweep={4: range(-1, 10), 15: range(-1, 30)})
    new_buildings = {"expansion": "new-buildings"}
    setups = tuple((n, new_buildings) for n in players) + tuple(
        (n, {**new_buildings, "draft": "random"}) for n in players)
    # v2 globals 3..37: who is to move, the base progress, then the expansion's progress
    # (forest supply, Hacienda tile, window, privilege, Black Market, Small Wharf, made, kept).
    return Profile("puerto-rico", setups, sweep=tuple(range(3, 38)),
                   wide_sweep={4: range(-1, 12), 15: range(-1, 44), 22: range(-1, 10),
                               24: range(-1, 38)})


def _castles_of_burgundy() -> Profile:
    from meeplemind.engine.castles_of_burgundy.schema import V1

    # who is to move and the progress of the turn: the globals, both tracks, every die
    at = V1.index
    dice = tuple(at(f"players[{p}].dice[{i}]") for p in range(V1.players[1]) for i in range(2))
    wide = {at("stage"): range(-1, 13), at("pending.tile"): range(-1, 50), at("pending.cell"): range(-1, 38),
            at("pending.ship_depots"): range(-1, 65), at("pending.goods_chosen"): range(-1, 65)}
    return Profile("castles-of-burgundy", tuple((n, {}) for n in (2, 3, 4)),
                   sweep=tuple(range(at("phase"), at("depots[0].tiles[0]"))) + dice, wide_sweep=wide)


def _traders_of_genoa() -> Profile:
    from meeplemind.engine.traders_of_genoa.schema import V2

    # who is to move and the progress of the turn: the globals, the path and the offers
    at = V2.index
    wide = {at("stage"): range(-1, 11), at("site"): range(-1, 19), at("base"): range(-1, 65),
            at("last_mark"): range(-1, 19), at("used_discs"): range(-1, 33)}
    return Profile("traders-of-genoa", tuple((n, {}) for n in (2, 3, 4, 5)),
                   sweep=tuple(range(at("start_player"), at("supply.silver"))), wide_sweep=wide, shortest_game=40,
                   lockstep_games=2000, sanitizer_games=200, fuzz_vectors=100_000)


PROFILES: dict[str, Callable[[], Profile]] = {
    "puerto-rico": _puerto_rico,
    "puerto-rico+new-buildings": lambda: _puerto_rico(expansion=True),
    "castles-of-burgundy": _castles_of_burgundy,
    "traders-of-genoa": _traders_of_genoa,
}


def profile(name: str) -> Profile:
    return PROFILES[name]()


# --------------------------------------------------------------------- lockstep
def lockstep_game(native: NativeGame, prof: Profile, setup: Setup, seed: int) -> int:
    """Play one game through both engines; returns the decisions made.

    Chance: one seed, a Python ``Rng`` and a C rng state that must stay equal.
    Moves: a separate picker, uniform over the legal list for even seeds and the C
    heuristic playout policy for odd seeds (longer, more built-up games)."""
    players, options = setup
    state = prof.engine.new_game(players, seed=seed, **options)
    buf = native.decode(state.encode())
    chance = Rng(seed * 2654435761 + 17)
    rng_state = chance.state
    picker = Rng(seed ^ 0x5DEECE66D)
    steps = 0
    while True:
        where = f"{prof.game_id} players={players} options={options} seed={seed} step={steps}"
        legal = state.legal_action_ids()
        assert native.legal_moves(buf).tolist() == legal, f"{where}: legal moves differ"
        vec = native.encode(buf)
        assert np.array_equal(vec, state.encode()), f"{where}: state vectors differ"
        assert native.decode(vec) == buf, f"{where}: decode(encode(state)) is not the state"
        assert native.current_player(buf) == (-1 if state.is_terminal else state.current_player), \
            f"{where}: current player differs"
        if state.is_terminal:
            break
        if seed % 2:
            action, picker.state = native.rollout_move(buf, picker.state, HEURISTIC)
        else:
            action = legal[picker.below(len(legal))]
        state = state.apply(state.move_from_id(action), chance)
        rng_state = native.apply(buf, action, rng_state)
        assert rng_state == chance.state, f"{where}: rng streams diverged after {action}"
        steps += 1
    expected = np.array(list(zip(state.scores(), state.tiebreaks())), dtype=np.int32)
    assert np.array_equal(native.scores(buf), expected), \
        f"{prof.game_id} players={players} options={options} seed={seed}: scores"
    return steps


def _lockstep_chunk(name: str, games: list[tuple[int, int]]) -> dict[str, int]:
    """Play ``games`` ((setup index, seed) pairs); what was played, counted."""
    prof = profile(name)
    native = NativeGame(prof.game_id)
    played = {"games": 0, "decisions": 0, "shortest": 1 << 30}
    for s, seed in games:
        steps = lockstep_game(native, prof, prof.setups[s], seed)
        played["games"] += 1
        played["decisions"] += steps
        played["shortest"] = min(played["shortest"], steps)
        played[f"setup_{s}"] = played.get(f"setup_{s}", 0) + 1
    return played


def run_lockstep(name: str, games: int, workers: int = 2, first_seed: int = 0) -> dict[str, int]:
    """``games`` lockstep games cycling through the profile's setups, split over
    ``workers`` processes (a worker that crashes fails the run instead of hanging it).
    Returns what the workers played: games finished, decisions, the shortest game and
    the games of each setup (``setup_<index>``)."""
    setups = len(profile(name).setups)
    jobs = [(i % setups, first_seed + i) for i in range(games)]
    chunks = [jobs[i::workers * 8] for i in range(workers * 8)]
    spawn = multiprocessing.get_context("spawn")
    total: dict[str, int] = {}
    with ProcessPoolExecutor(workers, mp_context=spawn) as pool:
        for played in pool.map(_lockstep_chunk, [name] * len(chunks), chunks):
            for key, value in played.items():
                total[key] = min(total.get(key, value), value) if key == "shortest" else total.get(key, 0) + value
    return total


# ------------------------------------------------------------------------ fuzz
def corpus(native: NativeGame, prof: Profile, games: int, seed: int) -> list[np.ndarray]:
    """Valid state vectors: every position of C-played games (both policies)."""
    out = []
    for g in range(games):
        players, options = prof.setups[g % len(prof.setups)]
        buf = native.decode(prof.engine.new_game(players, seed=seed + g, **options).encode())
        rng_state = seed * 31 + g
        while True:
            out.append(native.encode(buf))
            if native.current_player(buf) < 0:
                break
            action, rng_state = native.rollout_move(buf, rng_state, g % 2)
            rng_state = native.apply(buf, action, rng_state)
    return out


_SPECIAL = (INT32_MIN, INT32_MAX, -1001, -1000, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13,
            28, 29, 31, 32, 40, 42, 95, 100, 101, 122, 123, 999, 1000, 1001)


def mutants(base: list[np.ndarray], count: int, seed: int, hot: Sequence[int]) -> Iterator[np.ndarray]:
    """Random and mutated vectors: boundary values, random values, swaps, unit moves
    between two fields (conservation kept), several fields at once, length changes,
    small values in the ``hot`` fields (who is to move, progress within the turn)."""
    rng = np.random.default_rng(seed)
    n = len(base[0])
    version = int(base[0][0])
    for _ in range(count):
        v = base[rng.integers(len(base))].copy()
        kind = rng.integers(11)
        i, j = rng.integers(n), rng.integers(n)
        if kind == 0:
            v[i] = _SPECIAL[rng.integers(len(_SPECIAL))]
        elif kind == 1:
            v[i] += rng.choice((-1, 1))
        elif kind == 2:
            v[i] = rng.integers(-3, 40)
        elif kind == 3:
            v[i], v[j] = v[j], v[i]
        elif kind == 4:
            v[i] -= 1
            v[j] += 1
        elif kind == 5:
            for k in rng.integers(n, size=rng.integers(2, 6)):
                v[k] += rng.choice((-1, 1))
        elif kind == 6:
            v = v[: rng.integers(n)] if rng.integers(2) else np.concatenate([v, v[: rng.integers(1, 5)]])
        elif kind == 7:
            v = rng.integers(INT32_MIN, INT32_MAX, size=n, dtype=np.int32, endpoint=True)
            v[0] = rng.choice((version, v[0]))
        elif kind == 8:
            v = rng.integers(-1, 6, size=n, dtype=np.int32)
            v[0] = version
        elif kind == 9:
            v[i] = rng.integers(INT32_MIN, INT32_MAX, dtype=np.int32, endpoint=True)
        else:
            v[hot[rng.integers(len(hot))]] = rng.integers(-1, 6)
        yield v.astype(np.int32)


def sweeps(prof: Profile, base: list[np.ndarray], bases: int, seed: int) -> Iterator[np.ndarray]:
    """Every swept field of sampled positions set to each of its values: reaches the
    progress checks and the no-legal-move check."""
    rng = np.random.default_rng(seed)
    for b in rng.integers(len(base), size=bases):
        for i in prof.sweep:
            for value in prof.wide_sweep.get(i, prof.sweep_values):
                v = base[b].copy()
                v[i] = value
                yield v


Verdict = tuple[int, int, str]  # MM_ERR_* code (MM_OK: accepted), vector index, the rule's words


def native_verdict(native: NativeGame, v: np.ndarray) -> Verdict:
    try:
        native.decode(v)
    except NativeDecodeError as e:
        return e.code, e.index, e.why
    return LIB.MM_OK, -1, ""


_RANGES: dict[tuple[int, int], tuple[np.ndarray, ...]] = {}


def schema_verdict(prof: Profile, v: np.ndarray) -> Verdict | None:
    """What the game's schema says of ``v`` on its own: the verdict, in the schema's words,
    of a wrong length, layout version or player count or of the first cell out of its
    range (the layout is the one ``layout_for`` names, as the decoder picks it); None when
    every cell is in range (the decoder then accepts it or names a consistency rule)."""
    engine = prof.engine
    schema = next(s for s in engine.SCHEMAS if s.length == len(engine.layout_for(v)))
    if len(v) != schema.length:
        return LIB.MM_ERR_LENGTH, -1, f"vector has {len(v)} entries, expected {schema.length}"
    if v[0] != schema.version:
        return LIB.MM_ERR_VERSION, 0, f"layout version {v[0]} is not {schema.version}"
    n, (first, last) = int(v[1]), schema.players
    if not first <= n <= last:
        return LIB.MM_ERR_RANGE, 1, f"{n} players is not supported ({first}-{last})"
    key = (id(schema), n)
    if key not in _RANGES:
        table = np.array(schema.ranges(n), dtype=np.int64)
        seats = np.array([c.seat if c.seat is not None and c.seat >= n else -1 for c in schema.cells])
        _RANGES[key] = (table[:, 0], table[:, 1], table[:, 2], seats)
    lo, hi, bound, seats = _RANGES[key]
    values = v.astype(np.int64)
    hi = np.where(bound >= 0, values[np.maximum(bound, 0)], hi)
    failing = np.flatnonzero((values < lo) | (values > hi))
    if not len(failing):
        return None
    i = int(failing[0])
    words = f"{v[i]} is below {lo[i]}" if v[i] < lo[i] else f"{v[i]} is above {hi[i]}"
    if seats[i] >= 0:
        words += f" (seat {seats[i]} is not in a {n}-player game)"
    return LIB.MM_ERR_RANGE, i, words


def check_verdict(prof: Profile, v: np.ndarray, got: Verdict) -> None:
    """The C verdict against the schema's: the same code, index and words for a vector the
    schema rejects; for one it does not, acceptance or a consistency rule, named at a cell
    of the vector with words."""
    want = schema_verdict(prof, v)
    if want is not None:
        assert got == want, f"vector {v.tolist()}: C says {got}, the schema says {want}"
        return
    assert got[0] in (LIB.MM_OK, LIB.MM_ERR_INVARIANT), f"vector {v.tolist()}: C says {got}, the schema says in range"
    if got[0] == LIB.MM_ERR_INVARIANT:
        assert 0 <= got[1] < len(v) and got[2], f"vector {v.tolist()}: C says {got}, naming no cell or rule"


def round_trip(native: NativeGame, v: np.ndarray) -> None:
    """decode(encode(x)) == x for the vector and for the state bytes."""
    buf = native.decode(v)
    assert np.array_equal(native.encode(buf), v), "encode(decode(v)) != v"
    assert native.decode(native.encode(buf)) == buf, "decode(encode(state)) != state"


def plays_out(native: NativeGame, v: np.ndarray, seed: int) -> None:
    """An accepted position plays to the end with uniform moves and every position after
    it is accepted too (the decoder's rules are closed under legal play): none lacks a
    move, so a search from it always has one to play."""
    buf, rng = native.decode(v), seed
    while native.current_player(buf) >= 0:
        assert native.legal_moves(buf).size, f"vector {v.tolist()}: a later position has no move"
        action, rng = native.rollout_move(buf, rng, 0)
        rng = native.apply(buf, action, rng)
        later = native.encode(buf)
        bad = native_verdict(native, later)
        assert bad[0] == LIB.MM_OK, f"vector {v.tolist()}: play reaches {later.tolist()}, rejected {bad}"


def run_fuzz(name: str, vectors: int, compare: int, sweep_bases: int = 100,
             seed: int = 1) -> dict[str, int]:
    """Feed the sweeps of ``sweep_bases`` positions and ``vectors`` mutants to the C
    decoder, round-tripping every accepted vector and playing every 50th to the end;
    the verdicts on the sweeps and the first ``compare`` mutants are checked against the
    schema's (``check_verdict``)."""
    prof = profile(name)
    native = NativeGame(prof.game_id)
    base = corpus(native, prof, 60, seed)
    for v in base[:: max(1, len(base) // 2000)]:
        round_trip(native, v)
    verdicts: dict[int, int] = {}
    swept = list(sweeps(prof, base, sweep_bases, seed))
    fed = compared = played = 0
    for n, v in enumerate(itertools.chain(swept, mutants(base, vectors, seed, prof.sweep))):
        got = native_verdict(native, v)
        fed += 1
        verdicts[got[0]] = verdicts.get(got[0], 0) + 1
        if got[0] == LIB.MM_OK:
            round_trip(native, v)
            if verdicts[got[0]] % 50 == 0:
                plays_out(native, v, n)
                played += 1
        if n < len(swept) + compare:
            check_verdict(prof, v, got)
            compared += 1
    return {"vectors": fed, "compared": compared, "played_out": played, "corpus": len(base),
            **{f"code_{k}": c for k, c in sorted(verdicts.items())}}


# ----------------------------------------------------------- sanitizer subprocess
def sanitizer_env() -> dict[str, str] | None:
    """Environment for the asan build in a fresh interpreter, or None without libasan."""
    libs = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True,
                              text=True).stdout.strip()
        if not os.path.isabs(path) or not os.path.exists(path):
            return None
        libs.append(path)
    return {**os.environ, "MEEPLEMIND_NATIVE": "asan", "LD_PRELOAD": " ".join(libs),
            "ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "print_stacktrace=1"}


def run_sanitized(args: list[str], timeout: float, module: str = "tests.native.native_support") -> dict[str, int]:
    """Run ``module`` (this script by default) under the sanitizer build; fail on any report
    or a bad exit."""
    env = sanitizer_env()
    assert env is not None, "libasan/libubsan not found"
    proc = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)
    report = proc.stderr[-4000:]
    assert "ERROR: AddressSanitizer" not in proc.stderr, report
    assert "runtime error" not in proc.stderr, report
    assert proc.returncode == 0, report
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("lockstep", "fuzz"))
    parser.add_argument("--game", required=True, choices=sorted(PROFILES))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--vectors", type=int, default=100_000)
    parser.add_argument("--compare", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1, help="of the fuzz corpus and mutants")
    args = parser.parse_args()
    if args.mode == "lockstep":
        result = run_lockstep(args.game, args.games, args.workers, args.first_seed)
    else:
        result = run_fuzz(args.game, args.vectors, args.compare, seed=args.seed)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
