"""A new game of Puerto Rico: the base game's setup, or Expansion I's."""

from __future__ import annotations

from .data import NUM_BASE_BUILDINGS, SETUPS
from .expansion import SETUP_OPTIONS, new_expansion_game
from .state import OPTIONS, State, _setup


def new_game(players: int = 4, seed: int = 0, **options: bool | str) -> State:
    """A new game: setup by player count (rules §2), governor and stacks from ``seed``.

    ``expansion="new-buildings"`` (with ``draft`` and ``buildings``) sets up Expansion I:
    see ``expansion.new_expansion_game``."""
    if players not in SETUPS:
        raise ValueError(f"players: {players} is not one of {', '.join(map(str, SETUPS))}")
    known = OPTIONS + tuple(SETUP_OPTIONS)
    unknown = set(options) - set(known)
    if unknown:
        raise ValueError(f"options: unknown option {sorted(unknown)[0]!r} (known: {', '.join(known)})")
    if any(options.get(o) not in (None, False, "none") for o in SETUP_OPTIONS):
        return new_expansion_game(players, seed, options)
    swap = bool(options.get("university_factory_swap", False))
    return _setup(State, players, seed, swap, lambda b: b < NUM_BASE_BUILDINGS)[0]
