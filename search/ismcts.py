"""ISMCTS analysis of a position, driven from Python.

``analyze`` encodes the position, runs one native ISMCTS tree per thread (root
parallelisation; cffi releases the GIL inside the C search), merges the root
statistics and maps action ids back to move notation.  It searches within a
``Budget`` with ``SearchParams`` (search/params.py): iterations and nodes are totals,
split evenly between the threads; the time budget applies to each thread, from the call
to the answer: the search loop ends a margin before it, the room measured for what
follows the loop by the ``DeadlineMargin`` of whoever owns the process's searches (the
server's Analysis service, a bot, a command), passed in.  A ``SearchStop`` ends searches
from any thread at once: its ``set`` writes their C stop flags, so nothing polls for it.
With one thread and a seed the statistics are reproducible bit for bit unless the time
budget or a cancellation ends the search.
"""

from __future__ import annotations

import functools
import math
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..positions import explain
from ..native import NativeDecodeError
from ..native import load as load_cffi_module
from ..native.weights import LoadedModel, loaded_model, read_weights_file
from .deadlines import DeadlineMargin
from .params import ROLLOUT_POLICIES, Budget, SearchParams, check_int, check_real, game_params

_STOP_PREFIX = "MM_ISMCTS_STOP_"
_CTYPES = {
    np.dtype(np.int32): "int32_t[]",
    np.dtype(np.int64): "int64_t[]",
    np.dtype(np.float64): "double[]",
}
_POLL_S = 0.005  # how often a search on the main thread wakes to handle signals and reports
_SEED_MASK = (1 << 64) - 1
#: How many weights files' C models a process keeps loaded (a training run's generations).
WEIGHTS_CACHED = 16


class SearchStop(threading.Event):
    """A stop request for searches: an Event whose ``set`` also ends every native search
    attached to it (``attached``) at once, from whichever thread sets it."""

    def __init__(self) -> None:
        super().__init__()
        self._flags: list[Any] = []  # the C stop flags (``int32_t *``) of the searches attached
        self._flags_lock = threading.Lock()

    def set(self) -> None:
        with self._flags_lock:
            super().set()
            for flag in self._flags:
                flag[0] = 1

    @contextmanager
    def attached(self, flag: Any) -> Iterator[None]:
        """``set`` writes 1 into the C stop flag ``flag`` while in the block (at once if set already)."""
        with self._flags_lock:
            self._flags.append(flag)
            if self.is_set():
                flag[0] = 1
        try:
            yield
        finally:
            with self._flags_lock:
                self._flags.remove(flag)


class SearchableState(Protocol):
    """What ``analyze`` needs of a game engine's state."""

    @property
    def game_id(self) -> str: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def num_players(self) -> int: ...

    def encode(self) -> np.ndarray: ...

    def move_from_id(self, action: int) -> Any: ...


@dataclass(slots=True)
class MoveInfo:
    """Root statistics of one move; ``pv`` starts with the move itself, ``pv_players[i]``
    the seat that plays ``pv[i]``. A plain record (a frozen dataclass sets each field
    through ``object.__setattr__``: four times the cost, for a record whose lists could be
    changed anyway), made once per answered move."""

    move: str
    action: int
    visits: int
    win_rate: float
    expected_scores: list[float]
    pv: list[str]
    pv_players: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Analysis:
    """The result of a search, ``moves`` sorted by visits (most first)."""

    moves: list[MoveInfo]
    iterations: int
    elapsed_ms: float
    cpu_ms: float  # CPU time of the search threads, summed
    nodes: int
    stopped_by: str
    root_value: float  # the mover's mean reward; nan when no iteration ran
    player: int | None  # the player to move; None when the game is over


@dataclass(frozen=True, slots=True)
class NativeHandle:
    """What the search runs on: a cffi module (``ffi``, ``lib``) holding the
    ISMCTS and an engine, and that engine's ``const mm_game *``."""

    ffi: Any
    lib: Any
    game: Any

    @classmethod
    def load(cls, game_id: str, variant: str | None = None) -> NativeHandle:
        """The engine named ``game_id`` from ``meeplemind.native`` (cached)."""
        return _load_native(game_id, variant)

    @property
    def rows(self) -> int:
        return int(self.lib.mm_ismcts_rows(self.game))


@functools.cache
def _load_native(game_id: str, variant: str | None) -> NativeHandle:
    ffi, lib = load_cffi_module(variant)
    game = lib.mm_find_game(game_id.encode())
    if game == ffi.NULL:
        raise ValueError(f"game_id: no native engine named {game_id!r}")
    return NativeHandle(ffi, lib, game)


def analyze(
    state: SearchableState,
    budget: Budget | None = None,
    params: SearchParams | None = None,
    *,
    max_moves: int | None = None,
    stop_event: SearchStop | None = None,
    on_progress: Callable[[Analysis], None] | None = None,
    report_every_ms: float = 500.0,
    native: NativeHandle | None = None,
    vector: np.ndarray | None = None,
    time_margin: DeadlineMargin | None = None,
) -> Analysis:
    """Search ``state`` for its player to move within ``budget`` (None: ``Budget()``) with
    ``params`` (None: the game's, ``game_params``) and return per-move statistics.

    A ``time_ms`` budget's loop ends ``time_margin``'s room earlier and reports to it how
    late the searches ended (its owner's: the server's service, a bot, a command; None: the
    loop runs the whole ``time_ms``, for a caller that cut the budget by its own margin);
    ``stop_event`` being set ends the search too.  ``max_moves`` keeps only
    the most visited moves.  ``native`` replaces the engine looked up by ``state.game_id``.
    Invalid arguments raise ValueError naming the parameter; a state the native decoder
    rejects raises NativeDecodeError (a ValueError naming the vector index).
    ``on_progress`` gets the analysis so far about every ``report_every_ms``; off the main
    thread it is called from the shared watcher thread, so it must be quick and must not
    wait for another search.  ``vector`` is ``state.encode()`` when the caller has it
    already (``check_native`` returns it).
    """
    started = time.monotonic()
    budget = Budget() if budget is None else budget
    params = game_params(state.game_id, state.num_players) if params is None else params
    if max_moves is not None:
        max_moves = check_int("max_moves", max_moves, 1)
    if stop_event is not None and not isinstance(stop_event, SearchStop):
        raise ValueError("stop_event must be a SearchStop or None")
    if on_progress is not None:
        report_every_ms = check_real("report_every_ms", report_every_ms, 1.0)
    if native is None:
        native = NativeHandle.load(state.game_id)
    vec = _encode(state) if vector is None else _as_vector(vector)
    stop = native.ffi.new("int32_t *")
    snapshot_ms = report_every_ms / 2 if on_progress else 0.0
    time_ms = budget.time_ms
    if time_ms is not None and time_margin is not None:
        time_ms = time_margin.loop_ms(time_ms, (time.monotonic() - started) * 1e3)
    loop_end = None if time_ms is None else time.monotonic() + time_ms / 1e3
    seed = secrets.randbits(64) if params.seed is None else params.seed
    model = None if params.weights is None else _loaded_weights(native, state.game_id, params.weights)
    with _POOL.taken(native, params.pv_max, budget.threads) as buffers:
        trees = [_Tree(native, vec, c_params(budget, params, time_ms, seed, t, snapshot_ms), stop, buffers[t], model)
                 for t in range(budget.threads)]

        def report() -> None:
            snapshots = [t.snapshot() for t in trees]
            if on_progress and all(snapshots):
                elapsed_ms = (time.monotonic() - started) * 1e3
                on_progress(_analysis(state, snapshots, max_moves, elapsed_ms, "running"))  # type: ignore[arg-type]

        with stop_event.attached(stop) if stop_event is not None else nullcontext():
            _run(trees, stop, report if on_progress else None, report_every_ms / 1e3)
        ended = time.monotonic()
        elapsed_ms = (ended - started) * 1e3
        if loop_end is not None and time_margin is not None and ended >= loop_end:
            time_margin.observe((ended - loop_end) * 1e3)  # the searches ended this late
        for tree in trees:
            try:
                tree.raise_for_error()
            except NativeDecodeError as e:
                raise explain(state.game_id, vec, e) from None
        final = [tree.result() for tree in trees]
        stopped_by = stop_reasons(native.lib)[max(snap.stop_reason for snap in final)]
        return _analysis(state, final, max_moves, elapsed_ms, stopped_by)


def c_params(budget: Budget, params: SearchParams, time_ms: float | None, seed: int, index: int,
             snapshot_ms: float) -> dict[str, float | int | str | None]:
    """The fields of tree ``index``'s C ``mm_ismcts_params`` (native/mm_ismcts.h), every one
    (a test holds this to the cdef): ``budget``'s share of the tree, its loop's ``time_ms``,
    ``params`` as they are (``root_action``: None or the move, ``weights``: None or a weights
    file, which ``_Tree`` points to)."""
    return {
        "max_iterations": _split(budget.iterations, budget.threads, index),
        "max_ms": time_ms or 0.0,
        "max_cpu_ms": budget.cpu_ms or 0.0,
        "max_nodes": _split(budget.max_nodes, budget.threads, index),
        "seed": (int(seed) + index) & _SEED_MASK,
        "exploration": params.exploration,
        "margin_weight": params.margin_weight,
        "margin_scale": params.margin_scale,
        "rollout_policy": ROLLOUT_POLICIES[params.rollout_policy],
        "pv_max": params.pv_max,
        "root_action": params.root_action,
        "snapshot_ms": snapshot_ms,
        "mast": params.mast,
        "playout_moves": params.playout_moves,
        "guided_expansion": int(params.guided_expansion),
        "prior_weight": params.prior_weight,
        "widening": params.widening,
        "viewer": -1 if params.viewer is None else params.viewer,
        "weights": params.weights,
    }


def _encode(state: SearchableState) -> np.ndarray:
    return _as_vector(state.encode(), "state: encode() must return")


def _as_vector(vec: Any, what: str = "vector must be") -> np.ndarray:
    if not isinstance(vec, np.ndarray) or vec.dtype != np.int32 or vec.ndim != 1:
        raise ValueError(f"{what} a 1-D numpy int32 array")
    return np.ascontiguousarray(vec)


@functools.cache
def stop_reasons(lib: Any) -> dict[int, str]:
    """Why a search ended, by C code: MM_ISMCTS_STOP_<NAME> (native/mm_ismcts.h, the one list)
    named "<name>" ("cpu_time", "single_move", ...). A search's reason is the highest code any
    of its trees ended with."""
    return {getattr(lib, name): name.removeprefix(_STOP_PREFIX).lower()
            for name in dir(lib) if name.startswith(_STOP_PREFIX)}


def _split(total: int | None, parts: int, index: int) -> int:
    """Part ``index`` of ``total`` split evenly into ``parts``; None (no limit) gives 0,
    which means no limit to the C search."""
    if total is None:
        return 0
    quotient, remainder = divmod(total, parts)
    return quotient + (index < remainder)


@functools.lru_cache(maxsize=WEIGHTS_CACHED)
def _loaded_weights(native: NativeHandle, game_id: str, path: str) -> LoadedModel:
    """The C model of a weights file for ``native``'s game ``game_id``, loaded once while
    among the ``WEIGHTS_CACHED`` last used (a file of a training run is written once; a
    search holds its model while it runs)."""
    game, model = read_weights_file(path)
    if game != game_id:
        raise ValueError(f"weights: {path} holds {game}'s weights, not {game_id}'s")
    return loaded_model(native.ffi, native.lib, native.game, model, f"weights {path}")


class _TreeBuffers:
    """What C writes a tree's results into: the arrays of ``mm_ismcts_root_stats`` (one row
    per root child, lines of ``pv_max`` moves; rows past ``summary.children`` are never
    read, so they are not cleared) and the ``mm_ismcts_summary``. A thread's are kept and
    reused for its next search (``_POOL``)."""

    def __init__(self, native: NativeHandle, pv_max: int) -> None:
        ffi, rows = native.ffi, native.rows
        self.arrays: dict[str, np.ndarray] = {
            "action": np.empty(rows, np.int32),
            "visits": np.empty(rows, np.int64),
            "avail": np.empty(rows, np.int64),
            "reward": np.empty(rows, np.float64),
            "score": np.empty((rows, native.lib.MM_ISMCTS_PLAYERS), np.int64),
            "pv": np.empty((rows, pv_max), np.int32),
            "pv_len": np.empty(rows, np.int32),
            "pv_player": np.empty((rows, pv_max), np.int32),
        }
        self.stats = ffi.new("mm_ismcts_root_stats *")
        self._buffers = [ffi.from_buffer(_CTYPES[a.dtype], a) for a in self.arrays.values()]
        for name, buffer in zip(self.arrays, self._buffers):
            setattr(self.stats, name, buffer)
        self.summary = ffi.new("mm_ismcts_summary *")


class _Pool(threading.local):
    """Each thread's free tree buffers, by engine and ``pv_max``: a search takes its trees'
    from the pool of the thread that calls ``analyze`` and gives them back once answered
    (nothing it returns refers to them), so a thread that searches again and again makes
    them once, and no two searches ever share them (a search started while another of the
    same thread runs, from its progress report, takes others)."""

    def __init__(self) -> None:
        self.free: dict[tuple[Any, int], list[_TreeBuffers]] = {}

    @contextmanager
    def taken(self, native: NativeHandle, pv_max: int, count: int) -> Iterator[list[_TreeBuffers]]:
        free = self.free.setdefault((native.game, pv_max), [])
        taken = [free.pop() if free else _TreeBuffers(native, pv_max) for _ in range(count)]
        for buffers in taken:
            buffers.summary.snapshot_seq = 0  # no snapshot of this search yet (C clears the rest)
        try:
            yield taken
        finally:
            free.extend(taken)


_POOL = _Pool()


class _Tree:
    """One native search: its C parameters (``fields``: ``c_params``), the buffers C writes
    its results into and its return code. ``stop`` is the native stop flag (``int32_t *``)
    shared by all trees; ``model`` the evaluation C reads instead of the compiled one (kept
    alive here while C reads it)."""

    def __init__(self, native: NativeHandle, vec: np.ndarray, fields: dict[str, float | int | str | None],
                 stop: Any, buffers: _TreeBuffers, model: LoadedModel | None = None) -> None:
        ffi = native.ffi
        self._native = native
        self._vec = ffi.from_buffer("int32_t[]", vec)
        self._stop = stop
        root_action = fields["root_action"]
        self._root_action = ffi.NULL if root_action is None else ffi.new("int32_t *", root_action)
        self._model = model
        self.params = ffi.new("mm_ismcts_params *", fields | {
            "root_action": self._root_action, "weights": ffi.NULL if model is None else model.struct})
        self.arrays, self.stats, self.summary = buffers.arrays, buffers.stats, buffers.summary
        self.rc = 0

    def run(self) -> None:
        native = self._native
        self.rc = native.lib.mm_ismcts_search(
            native.game,
            self._vec,
            len(self._vec),
            self.params,
            self._stop,
            self.stats,
            self.summary,
        )

    def snapshot(self) -> _Snapshot | None:
        """A consistent copy of the published root statistics, or None while the
        search is writing them (seqlock, see mm_ismcts_summary.snapshot_seq)."""
        seq = self.summary.snapshot_seq
        if seq == 0 or seq % 2:
            return None
        snap = self._published(copy=True)
        return snap if self.summary.snapshot_seq == seq else None

    def result(self) -> _Snapshot:
        """The root statistics of the ended search (views of its arrays, no copy)."""
        return self._published(copy=False)

    def _published(self, copy: bool) -> _Snapshot:
        summary = self.summary
        children = summary.children
        arrays = {name: a[:children].copy() if copy else a[:children] for name, a in self.arrays.items()}
        return _Snapshot(arrays, summary.nodes, summary.root_reward, summary.iterations,
                         summary.stop_reason, summary.root_player, summary.players, summary.cpu_ms)

    def raise_for_error(self) -> None:
        lib, rc = self._native.lib, self.rc
        if rc == 0:
            return
        if rc > 0:
            raise NativeDecodeError(rc, self.summary.bad_field)
        if rc == lib.MM_ISMCTS_ERR_PARAMS and self.params.viewer >= self.summary.players > 0:
            raise ValueError(f"viewer: {self.params.viewer} is not a seat of this {self.summary.players}-player game")
        if rc == lib.MM_ISMCTS_ERR_PARAMS and self._root_action != self._native.ffi.NULL:
            raise ValueError(f"root_action: {self._root_action[0]} is not a legal move of the position")
        if rc == lib.MM_ISMCTS_ERR_MEMORY:
            raise MemoryError(f"cannot allocate {self.params.max_nodes} search nodes")
        if rc == lib.MM_ISMCTS_ERR_PLAYOUT_CAP:
            raise RuntimeError(f"a playout exceeded {lib.MM_ISMCTS_PLAYOUT_CAP} moves")
        if rc == lib.MM_ISMCTS_ERR_ENGINE:
            raise RuntimeError(
                "the native engine broke its contract (legal move ids or player numbers)"
            )
        raise RuntimeError(f"native search failed with code {rc}")


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """Root statistics of one tree: its arrays' rows of the root's children (copies while
    the search runs, views once it has ended)."""

    arrays: dict[str, np.ndarray]
    nodes: int
    root_reward: float
    iterations: int
    stop_reason: int
    root_player: int
    players: int
    cpu_ms: float  # 0 while the search runs


def _run(trees: list[_Tree], stop: Any, report: Callable[[], None] | None, report_every_s: float) -> None:
    """Run the trees at once; ``report`` is called about every ``report_every_s`` while
    they run (``stop``, the native stop flag, ends them).

    On the main thread every tree runs on a thread of its own while the caller waits,
    waking every ``_POLL_S`` to handle signals (Ctrl-C) and reports. Elsewhere (e.g. a
    server's request threads) the first tree runs on the calling thread and the shared
    watcher makes the reports: no thread is started and none wakes for a one-thread search
    without reports, which is most of a small search's overhead.
    """
    if threading.current_thread() is threading.main_thread():
        _run_polling(trees, stop, report, report_every_s)
        return
    watch = None if report is None else _Watch(stop, report, report_every_s, time.perf_counter() + report_every_s)
    helpers = [threading.Thread(target=t.run, name=f"ismcts-{i}", daemon=True)
               for i, t in enumerate(trees[1:], 1)]
    with _WATCHER.watching(watch) if watch is not None else nullcontext():
        try:
            for helper in helpers:
                helper.start()
            trees[0].run()
        except BaseException:
            stop[0] = 1
            raise
        finally:
            for helper in helpers:
                if helper.ident is not None:
                    helper.join()
    if watch is not None and watch.error is not None:
        raise watch.error


def _run_polling(trees: list[_Tree], stop: Any, report: Callable[[], None] | None, report_every_s: float) -> None:
    """``_run`` with every tree on its own thread, the caller waking every ``_POLL_S``."""
    threads = [
        threading.Thread(target=t.run, name=f"ismcts-{i}", daemon=True) for i, t in enumerate(trees)
    ]
    try:
        for thread in threads:
            thread.start()
        next_report = time.perf_counter() + report_every_s
        for thread in threads:
            while thread.is_alive():
                thread.join(_POLL_S)
                if report and time.perf_counter() >= next_report and thread.is_alive():
                    report()
                    next_report = time.perf_counter() + report_every_s
    except BaseException:
        stop[0] = 1
        for thread in threads:
            if thread.ident is not None:
                thread.join()
        raise


@dataclass(slots=True, eq=False)
class _Watch:
    """A running search's reports as the watcher sees them; ``error`` is what a report raised."""

    stop: Any
    report: Callable[[], None]
    report_every_s: float
    next_report: float
    error: BaseException | None = None

    def poll(self, now: float) -> None:
        """Report if it is time (a report that raises stops the search)."""
        if now < self.next_report:
            return
        try:
            self.report()
            self.next_report = time.perf_counter() + self.report_every_s
        except BaseException as e:  # raised in the search's own thread once it ends
            self.error = e
            self.stop[0] = 1
            self.next_report = math.inf


class _Watcher:
    """One thread, started once (again in a forked child), making the reports of running
    searches when they are due. Reports run under the lock, so a search cannot end (and
    free its trees) while its report reads them.

    It sleeps until the earliest report due: a search whose first report is due later than
    that never wakes it (a thread switch per search would cost more than a small search),
    so while short searches keep coming it wakes about once per report interval."""

    def __init__(self) -> None:
        self._watches: set[_Watch] = set()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._wake_at = math.inf  # when the thread wakes next (perf_counter)

    def reset(self) -> None:
        """Forget every watch and the thread (a forked child has neither): as new."""
        self.__init__()  # type: ignore[misc]  # this class's own __init__, not a subclass's

    @contextmanager
    def watching(self, watch: _Watch) -> Iterator[None]:
        """Report ``watch`` while in the block; on leaving, a report in progress is waited for."""
        with self._changed:
            self._watches.add(watch)
            if self._thread is None:
                self._thread = threading.Thread(target=self._poll, name="search-watcher", daemon=True)
                self._thread.start()
            if watch.next_report < self._wake_at:
                self._changed.notify()
        try:
            yield
        finally:
            with self._changed:
                self._watches.discard(watch)

    def _poll(self) -> None:
        with self._changed:
            while True:
                now = time.perf_counter()
                for watch in self._watches:
                    watch.poll(now)
                self._wake_at = min((w.next_report for w in self._watches), default=math.inf)
                self._changed.wait(None if self._wake_at == math.inf else self._wake_at - time.perf_counter())


_WATCHER = _Watcher()
os.register_at_fork(after_in_child=_WATCHER.reset)


def _merged(snapshots: list[_Snapshot]) -> dict[str, np.ndarray]:
    """The trees' root statistics as one row per move: visits, rewards and scores summed
    (in tree order), the line from the tree where the move had the most visits (the first
    such); one tree's rows are already that."""
    if len(snapshots) == 1:
        return snapshots[0].arrays
    rows = {name: np.concatenate([s.arrays[name] for s in snapshots]) for name in snapshots[0].arrays}
    actions, move_of_row = np.unique(rows["action"], return_inverse=True)
    by_visits = np.lexsort((np.arange(len(move_of_row)), -rows["visits"], move_of_row))
    best_row = by_visits[np.diff(move_of_row[by_visits], prepend=-1) != 0]  # the first row of each move
    merged = {name: rows[name][best_row] for name in ("pv", "pv_len", "pv_player")}
    merged["action"] = actions
    for name in ("visits", "reward", "score"):
        merged[name] = np.zeros((len(actions), *rows[name].shape[1:]), rows[name].dtype)
        np.add.at(merged[name], move_of_row, rows[name])
    return merged


#: The notation of every move named so far, by game id and action id: a move's notation
#: depends on its id alone, and a game's action space bounds the table.
_MOVE_NAMES: dict[str, dict[int, str]] = {}


def _notation(state: SearchableState, names: dict[int, str], actions: list[int]) -> list[str]:
    """Notation of a line of action ids, named without playing it, each id once per game
    (``names``: the game's in ``_MOVE_NAMES``)."""
    try:
        return list(map(names.__getitem__, actions))
    except KeyError:
        for action in actions:
            if action not in names:
                names[action] = str(state.move_from_id(action))
        return list(map(names.__getitem__, actions))


def _analysis(
    state: SearchableState,
    snapshots: list[_Snapshot],
    max_moves: int | None,
    elapsed_ms: float,
    stopped_by: str,
) -> Analysis:
    """Merge the trees into an Analysis that ``stopped_by`` ended ("running" while it runs)."""
    root_player, players = snapshots[0].root_player, snapshots[0].players
    iterations = sum(s.iterations for s in snapshots)
    root_reward = sum(s.root_reward for s in snapshots)
    rows, names = _merged(snapshots), _MOVE_NAMES.setdefault(state.game_id, {})
    kept = np.lexsort((rows["action"], -rows["visits"]))[:max_moves]  # most visited first
    visits = rows["visits"][kept]
    # an unsearched move (the only legal one: stop reason "single_move") has visits 0,
    # win rate 0 and no expected scores (the score rows: sums over its visits, one per seat)
    per_visit = np.maximum(visits, 1)
    moves = []
    for action, visit, win_rate, scores, pv, pv_players, n in zip(
            rows["action"][kept].tolist(), visits.tolist(), (rows["reward"][kept] / per_visit).tolist(),
            (rows["score"][kept, :players] / per_visit[:, None]).tolist(), rows["pv"][kept].tolist(),
            rows["pv_player"][kept].tolist(), rows["pv_len"][kept].tolist()):
        line = _notation(state, names, pv[:n])
        moves.append(MoveInfo(line[0], action, visit, win_rate if visit else 0.0, scores if visit else [], line,
                              pv_players[:n]))
    return Analysis(
        moves=moves,
        iterations=iterations,
        elapsed_ms=elapsed_ms,
        cpu_ms=sum(s.cpu_ms for s in snapshots),
        nodes=sum(s.nodes for s in snapshots),
        stopped_by=stopped_by,
        root_value=root_reward / iterations if iterations else math.nan,
        player=root_player if root_player >= 0 else None,
    )
