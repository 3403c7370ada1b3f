"""The ISMCTS bots: each plays the most visited move of a search of the position.

``ismcts`` is the current search (its tuning keys may be set in the spec; ``weights=FILE``
plays a training generation's evaluation, see search/training.py);
``ismcts-v1`` is the search as of the strength work's starting commit, frozen so
every later change can be measured against it at equal CPU
(``meeplemind arena GAME --bot ismcts:cpu_ms=10 --bot ismcts-v1:cpu_ms=40``);
``ismcts-v2`` is the default search as issue 33's training began (each game's tuning and
evaluation weights then, the weights kept in search/ismcts_v2/), the bar a trained
generation must clear (``--bot ismcts:cpu_ms=10 --bot ismcts-v2:cpu_ms=40``).
``level:N`` is ``BestMove``'s strength level N (see ``search.levels``).
"""

from __future__ import annotations

import functools
import json
import pathlib
from dataclasses import replace
from typing import Any

from .deadlines import DeadlineMargin
from .ismcts import analyze
from .levels import LEVELS, check_level, level_budget
from .params import Budget, SearchParams, game_params


def boolean(text: str) -> bool:
    """A spec's truth value: true/1/yes or false/0/no; ValueError otherwise."""
    value = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(text.lower())
    if value is None:
        raise ValueError(text)
    return value


#: Budget keys every ISMCTS bot spec takes (``Budget``'s fields), and how to read them.
BUDGET_PARAMS: dict[str, type] = {"iterations": int, "time_ms": int, "cpu_ms": int, "threads": int,
                                  "max_nodes": int}
#: Tuning keys of the current search (``ismcts:exploration=0.5``: ``SearchParams``' fields).
TUNING_PARAMS: dict[str, Any] = {"exploration": float, "rollout_policy": str, "margin_weight": float,
                                 "margin_scale": float, "mast": float, "playout_moves": int,
                                 "guided_expansion": boolean, "prior_weight": float, "widening": float,
                                 "weights": str}
#: The search as of the starting commit of issue 21 (``ismcts-v1``).
V1_PARAMS = SearchParams(exploration=0.7, rollout_policy="heuristic", margin_weight=0.0, margin_scale=10.0,
                         mast=0.0, playout_moves=0, guided_expansion=False, prior_weight=0.0, widening=0.0)
#: ``ismcts-v1``'s parameters as a spec's tuning keys.
V1_TUNING = {key: value for key in TUNING_PARAMS if (value := getattr(V1_PARAMS, key)) is not None}
#: ``ismcts-v2``'s files: per game, its tuning then and (if it had one) its evaluation's weights.
V2_FILES = pathlib.Path(__file__).resolve().parent / "ismcts_v2"


@functools.cache
def v2_tuning(game_id: str) -> dict[str, Any]:
    """``ismcts-v2``'s tuning keys for ``game_id`` (its file's ``tuning``, and the file as its
    ``weights`` when it holds a model); ValueError if ismcts-v2 does not know the game."""
    path = V2_FILES / f"{game_id}.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"bot ismcts-v2: no kept search for {game_id}") from None
    return dict(data["tuning"]) | ({"weights": str(path)} if "model" in data else {})


#: The kept searches a spec may name: each plays its own tuning, so its spec takes budget keys only.
KEPT = ("ismcts-v1", "ismcts-v2")
#: What a value that does not read is not.
_KINDS = {int: "an int", float: "a number", boolean: "true or false"}


def _read(spec: str, params: dict[str, str], known: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for key, text in params.items():
        if key not in known:
            raise ValueError(f"bot {spec!r}: unknown parameter {key!r} (known: {', '.join(known)})")
        try:
            options[key] = known[key](text)
        except ValueError:
            raise ValueError(f"bot {spec!r}: {key}={text!r} is not {_KINDS[known[key]]}") from None
    return options


def _budget_options(budget: Budget) -> dict[str, Any]:
    """A level's budget as a spec's keys."""
    limits = {"iterations": budget.iterations, "cpu_ms": budget.cpu_ms, "time_ms": budget.time_ms}
    return {key: value for key, value in limits.items() if value is not None} | {"threads": budget.threads}


class IsmctsBot:
    def __init__(self, spec: str, params: dict[str, str], seed: int = 0, *, kept: str | None = None,
                 level: int | None = None) -> None:
        """The bot of ``spec``: its ``params`` read as budget keys (and tuning keys unless
        it is a ``kept`` search, one of ``KEPT``, which plays its own), or, given a strength
        ``level``, that level's budget in the game it plays (``budget_in``; a level bot's
        ``options`` are empty). ``options_in`` is what it plays a game with (a ladder's
        results file records it)."""
        self.name = spec
        self.kept = kept
        self.level = level
        options: dict[str, Any] = {}
        if level is None:
            known = BUDGET_PARAMS if kept else BUDGET_PARAMS | TUNING_PARAMS
            options = (V1_TUNING if kept == "ismcts-v1" else {}) | _read(spec, params, known)
            if not {"iterations", "time_ms", "cpu_ms"} & set(options):
                options["time_ms"] = 1000
        self.options = options
        self._budget = Budget(**{key: value for key, value in options.items() if key in BUDGET_PARAMS})
        self._tuning = {key: value for key, value in options.items() if key in TUNING_PARAMS}
        self.seed = seed
        self.moves_played = 0
        self.margin = DeadlineMargin.for_time_budgets()  # this bot's time budgets end by it

    @classmethod
    def at_level(cls, spec: str, level: str, seed: int = 0) -> IsmctsBot:
        """The bot of ``BestMove``'s strength level ``level`` (text, from a spec)."""
        try:
            number = check_level(int(level))
        except ValueError:
            raise ValueError(f"bot {spec!r}: expected level:N with N in "
                             f"{LEVELS.start}..{LEVELS.stop - 1}") from None
        return cls(spec, {}, seed, level=number)

    def budget_in(self, game_id: str) -> Budget:
        """The budget the bot searches ``game_id`` with (a level's: that game's, search.levels)."""
        return self._budget if self.level is None else level_budget(self.level, game_id)

    def options_in(self, game_id: str) -> dict[str, Any]:
        """What the bot plays ``game_id`` with: its ``options``, or its level's budget there as budget keys."""
        return self.options if self.level is None else _budget_options(self.budget_in(game_id))

    def choose(self, state: Any) -> Any:
        self.moves_played += 1
        tuning, players = self._tuning, state.num_players
        if self.kept == "ismcts-v2":  # its file's tuning over the game's, whatever the player count
            tuning, players = v2_tuning(state.game_id), None
        params = replace(game_params(state.game_id, players), seed=self.seed + self.moves_played, **tuning)
        result = analyze(state, self.budget_in(state.game_id), params, time_margin=self.margin)
        return state.move_from_id(result.moves[0].action)
