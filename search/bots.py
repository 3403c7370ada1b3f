"""Bots: something that chooses a move for the player to move.

Specs are ``NAME[:key=value[,key=value]]``: ``random``, ``heuristic``,
``ismcts:time_ms=1000,threads=1`` (fields of ``search.params.Budget`` and ``SearchParams``), ``ismcts-v1:cpu_ms=40``
(the search frozen as of issue 21's starting commit: budget keys only), ``ismcts-v2:cpu_ms=40``
(the default search frozen as of issue 33's start: budget keys only), ``level:5``
(``BestMove``'s strength level 5).
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from ..engine import Rng


class Bot(Protocol):
    name: str

    def choose(self, state: Any) -> Any: ...


class RandomBot:
    """Uniform over the legal moves."""

    def __init__(self, seed: int = 0) -> None:
        self.name, self.rng = "random", Rng(seed)

    def choose(self, state: Any) -> Any:
        return self.rng.choice(state.legal_moves())


class HeuristicBot:
    """The game's rule-based player (``engine.<game>.heuristic.choose_move``)."""

    def __init__(self, seed: int = 0) -> None:
        self.name, self.rng = "heuristic", Rng(seed)

    def choose(self, state: Any) -> Any:
        module = importlib.import_module(f"{type(state).__module__.rpartition('.')[0]}.heuristic")
        return module.choose_move(state, self.rng)


#: The bots a spec may name.
BOT_NAMES = ("random", "heuristic", "ismcts", "ismcts-v1", "ismcts-v2", "level:N")


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"bot {spec!r}: expected NAME[:key=value[,key=value]]")
        params[key.strip()] = value.strip()
    return name.strip(), params


def make_bot(spec: str, seed: int = 0) -> Bot:
    from .ismcts_bot import KEPT, IsmctsBot

    kind, _, level = spec.partition(":")
    if kind.strip() == "level":
        return IsmctsBot.at_level(spec, level.strip(), seed)
    name, params = parse_spec(spec)
    if name in ("random", "heuristic"):
        if params:
            raise ValueError(f"bot {spec!r}: {name} takes no parameters")
        return RandomBot(seed) if name == "random" else HeuristicBot(seed)
    if name == "ismcts" or name in KEPT:
        return IsmctsBot(spec, params, seed, kept=name if name in KEPT else None)
    raise ValueError(f"bot {spec!r}: unknown bot {name!r} ({', '.join(BOT_NAMES)})")
