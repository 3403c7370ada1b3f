"""What a search is given: a ``Budget`` (when it ends) and ``SearchParams`` (how it searches).

``SearchParams`` mirrors the C ``mm_ismcts_params`` (native/mm_ismcts.h, which documents
each field) field for field, by the same names, except the budget's four (``max_iterations``,
``max_ms``, ``max_cpu_ms``, ``max_nodes``: ``Budget``) and ``snapshot_ms`` (``analyze``'s
progress reports); ``search.ismcts.c_params`` fills the C struct from the two, the one place
that does. Both check their values when made: a ValueError names the field.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import get_game
from ..native import load as load_cffi_module

_LIB = load_cffi_module()[1]  # the constants below are C's (every build has the same)
ROLLOUT_POLICIES = {"random": _LIB.MM_POLICY_RANDOM, "heuristic": _LIB.MM_POLICY_HEURISTIC}
PV_MAX = _LIB.MM_ISMCTS_PV_MAX
DEFAULT_ITERATIONS = 1000
DEFAULT_MAX_NODES = 1_000_000
MAX_THREADS = 64
NODES_PER_THREAD = 2  # a tree needs its root and one child
_INT32_MAX = 2**31 - 1
DEFAULT_EXPLORATION = 0.7
#: Weight of the score margin in the reward (issue 21: at 10 ms of CPU a move, 0.5 won 57%
#: of 80 2-player games against the pure win share, +6.7 points a game; docs/measurements.md).
DEFAULT_MARGIN_WEIGHT = 0.5
#: Share of playout moves chosen by MAST.  Off by default: at 10 ms of CPU a move, 0.5 won
#: 67.5% of 80 2-player games against ismcts-v1 (95% CI [0.57, 0.77]), but it blurs
#: the win rates a game review compares (a planted blunder's loss fell from 0.46 to 0.23),
#: and a review runs the same default search (issue 21; docs/measurements.md).
DEFAULT_MAST = 0.0
_INTEGERS = (int, np.integer)
_NUMBERS = (int, float, np.integer, np.floating)


def check_int(name: str, value: object, low: float = -math.inf, high: float = math.inf) -> int:
    """``value`` as an int in [low, high]; ValueError naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, _INTEGERS):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    number = int(value)
    if high < math.inf and not low <= number <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {number}")
    if number < low:
        raise ValueError(f"{name} must be at least {low}, got {number}")
    return number


def check_real(name: str, value: object, low: float, high: float = math.inf, *, open_low: bool = False) -> float:
    """``value`` as a finite float in [low, high] (``open_low``: (low, high]); ValueError
    naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, _NUMBERS):
        raise ValueError(f"{name} must be a number, got {value!r}")
    number = float(value)
    too_low = number <= low if open_low else number < low
    if not math.isfinite(number) or too_low or number > high:
        bound = "(" if open_low else "["
        raise ValueError(f"{name} must be finite and in {bound}{low}, {high}], got {number}")
    return number


@dataclass(frozen=True, slots=True)
class Budget:
    """When a search ends: at the first of ``iterations`` (total over threads), ``time_ms``
    (the wall clock from the call to the answer), ``cpu_ms`` (each thread's own CPU time, the
    same iterations whatever the machine's load) and ``max_nodes`` (total tree nodes); None is
    no limit of that kind, and with none of the first three it runs ``DEFAULT_ITERATIONS``.
    The iterations and nodes are split evenly between ``threads`` trees (no more threads than
    iterations); the times apply to each."""

    iterations: int | None = None
    time_ms: float | None = None
    cpu_ms: float | None = None
    max_nodes: int = DEFAULT_MAX_NODES
    threads: int = 1

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None and self.cpu_ms is None:
            object.__setattr__(self, "iterations", DEFAULT_ITERATIONS)
        if self.iterations is not None:
            object.__setattr__(self, "iterations", check_int("iterations", self.iterations, 1))
        if self.time_ms is not None:
            check_real("time_ms", self.time_ms, 1.0)
        if self.cpu_ms is not None:
            check_real("cpu_ms", self.cpu_ms, 1.0)
        threads = check_int("threads", self.threads, 1, MAX_THREADS)
        if self.iterations is not None:
            threads = min(threads, self.iterations)
        object.__setattr__(self, "threads", threads)
        object.__setattr__(self, "max_nodes",
                           check_int("max_nodes", self.max_nodes, NODES_PER_THREAD * threads, _INT32_MAX))


@dataclass(frozen=True, slots=True)
class SearchParams:
    """How a search searches, field for field the C ``mm_ismcts_params`` besides the budget
    (native/mm_ismcts.h): ``seed`` (None: a random one; tree ``i`` of a search gets
    ``seed + i``), the UCB1 ``exploration``, the reward's ``margin_weight`` and
    ``margin_scale``, the ``rollout_policy`` by name, the longest line of play ``pv_max``,
    ``root_action`` (a legal move's id: the search tries only it at the root, its own
    evaluation with the whole budget), the MAST share ``mast``, ``playout_moves`` (> 0: a
    playout stops after that many moves, scored by the game's evaluation),
    ``guided_expansion``, the move priors' ``prior_weight``, progressive ``widening`` and the
    ``viewer`` whose knowledge the search uses (None: the player to move; docs/positions.md)
    and ``weights``, a weights file (a training generation's, native/weights.py) whose
    evaluation and prior exponent C uses instead of the compiled ones (None: the compiled).
    A game's default search is ``game_params``'s value of it (its package's ``SEARCH_TUNING``)."""

    seed: int | None = None
    exploration: float = DEFAULT_EXPLORATION
    margin_weight: float = DEFAULT_MARGIN_WEIGHT
    margin_scale: float = 10.0
    rollout_policy: str = "heuristic"
    pv_max: int = 8
    root_action: int | None = None
    mast: float = DEFAULT_MAST
    playout_moves: int = 0
    guided_expansion: bool = False
    prior_weight: float = 0.0
    widening: float = 0.0
    viewer: int | None = None
    weights: str | None = None

    def __post_init__(self) -> None:
        if self.seed is not None:
            check_int("seed", self.seed)
        check_real("exploration", self.exploration, 0.0)
        check_real("margin_weight", self.margin_weight, 0.0, 1.0)
        check_real("margin_scale", self.margin_scale, 0.0, open_low=True)
        if self.rollout_policy not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout_policy must be one of {sorted(ROLLOUT_POLICIES)}, "
                             f"got {self.rollout_policy!r}")
        check_int("pv_max", self.pv_max, 1, PV_MAX)
        if self.root_action is not None:
            check_int("root_action", self.root_action, 0, _INT32_MAX)
        if check_real("mast", self.mast, 0.0, 1.0) == 1.0:
            raise ValueError(f"mast must be below 1, got {self.mast}")
        check_int("playout_moves", self.playout_moves, 0, _INT32_MAX)
        if not isinstance(self.guided_expansion, bool | np.bool_):
            raise ValueError(f"guided_expansion must be a bool, got {self.guided_expansion!r}")
        check_real("prior_weight", self.prior_weight, 0.0)
        check_real("widening", self.widening, 0.0)
        if self.viewer is not None:
            check_int("viewer", self.viewer, 0, _INT32_MAX)
        if self.weights is not None and not isinstance(self.weights, str):
            raise ValueError(f"weights must be a weights file's path, got {self.weights!r}")


@functools.cache
def game_params(game_id: str, players: int | None = None) -> SearchParams:
    """The parameters the default search of ``game_id`` runs with (``analyze``'s default): its
    game's ``SEARCH_TUNING`` over ``SearchParams()`` and, for ``players`` players, the
    table's ``by_players`` entry for that count over both (None, or a count without an entry:
    the game's tuning alone; the defaults for a game outside the registry, searched with an
    engine of its own), made and checked once per process."""
    try:
        tuning: dict[str, Any] = dict(get_game(game_id).SEARCH_TUNING)
    except KeyError:
        return SearchParams()
    by_players = tuning.pop("by_players", {})
    return SearchParams(**tuning | by_players.get(players, {}))


def review_params(game_id: str, players: int | None = None) -> SearchParams:
    """The parameters a game review of ``game_id`` searches with: the game's own for that
    player count, as ``game_params``. Priors blurred the win rates of a review that read the
    played move's from the search that picked the best (docs/measurements.md); since each move
    a review compares has a search of its own (``search.review.review_turn``), the stronger
    default search judges better: with UCB1 without priors, levels 6 and 9 ranked below level
    3 in some games (docs/review.md)."""
    return game_params(game_id, players)
