"""What a game provides, as a typed protocol: a game package (``engine/<game>/``) is one.

A package under ``engine/`` with a ``GAME_ID`` is a game: ``engine.get_game`` finds it
there, so adding a game touches no shared file (in C, its schema's ``C_GAME`` names its
engine; see native/build_native.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypedDict

from .game_state import GameState
from .schema import Schema

#: A true/false rule switch's text values in ``OPTION_VALUES`` (the default first).
SWITCH = ("false", "true")
#: The texts a switch reads as true, and as false (any case).
TRUE_TEXTS = ("true", "1", "yes", "on")
FALSE_TEXTS = ("false", "0", "no", "off")


class SearchTuning(TypedDict, total=False):
    """How the default search of a game departs from the defaults (``search.params.SearchParams``'
    fields, which it fills): exploration, the weight of the game's move priors, the moves a
    playout plays before the game's learned evaluation scores it, the reward margin's scale;
    and ``by_players``, per player count the fields that differ at that count (over the rest)."""

    exploration: float
    prior_weight: float
    playout_moves: int
    margin_scale: float
    by_players: dict[int, SearchTuning]


class LevelBudget(TypedDict, total=False):
    """A strength level's budget on one search thread (``search.levels``): iterations, or
    milliseconds of CPU time."""

    iterations: int
    cpu_ms: float


class Game(Protocol):
    """A game package: its rules (``new_game``, ``Move``), its positions (schema, vector
    codec) and what tools cover (player counts, variants, options)."""

    GAME_ID: str
    TITLE: str
    SCORE_UNIT: str  # what a score counts: "VP", "ducats"
    ORDER: int  # its place in listings (ListGames)
    PLAYER_COUNTS: tuple[int, ...]
    #: The rule variants every tool covers: ``new_game`` options as text (``parse_options``).
    VARIANTS: tuple[dict[str, str], ...]
    #: (options, players) of the bench signature's seeded games and searches (``search/bench.py``).
    BENCH_SETUPS: tuple[tuple[dict[str, str], int], ...]
    #: Per player count, the least random C playouts per unit of the bench's reference
    #: workload its engine must keep (``search/bench.py`` engine_over_reference;
    #: docs/measurements.md has the measured history the floors come from).
    SPEED_FLOORS: dict[int, float]
    #: The default search's tuning (``search.params.game_params``; empty: the defaults).
    SEARCH_TUNING: SearchTuning
    STRENGTH_LEVELS: dict[int, LevelBudget]
    #: Every ``new_game`` option and the text values it takes, the default first
    #: (``SWITCH``: a true/false switch; None: any text, default empty).
    OPTION_VALUES: dict[str, tuple[str, ...] | None]
    SCHEMAS: tuple[Schema, ...]
    LAYOUT: tuple[str, ...]
    NUM_ACTIONS: int
    Move: Any

    def new_game(self, players: int, seed: int = ..., **options: Any) -> Any: ...

    def schema_of(self, message: Any) -> Schema: ...

    def decode(self, vec: Any) -> GameState: ...

    def layout_for(self, vec: Any) -> tuple[str, ...]: ...


class OptionError(ValueError):
    """A ``new_game`` option given as text that the game does not declare or take;
    ``name`` is the option, ``problem`` what is wrong with it."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name, self.problem = name, problem


def parse_options(declared: Mapping[str, tuple[str, ...] | None], given: Mapping[str, str],
                  quote: Callable[[str], str] = repr) -> dict[str, bool | str]:
    """``new_game`` options from their text values (``given``), checked against a game's
    ``OPTION_VALUES`` (``declared``): a switch becomes a bool, any other value stays text.
    Raises ``OptionError`` naming the first bad option (in name order), its value written
    by ``quote``."""
    options: dict[str, bool | str] = {}
    for name, text in sorted(given.items()):
        if name not in declared:
            raise OptionError(name, f"unknown option (known: {', '.join(declared) or 'none'})")
        values = declared[name]
        if values == SWITCH:
            if text.lower() not in TRUE_TEXTS + FALSE_TEXTS:
                raise OptionError(name, f"{quote(text)} is not true or false")
            options[name] = text.lower() in TRUE_TEXTS
        elif values is not None and text not in values:
            raise OptionError(name, f"{quote(text)} is not one of {', '.join(values)}")
        else:
            options[name] = text
    return options
