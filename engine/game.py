"""What a game provides, as a typed protocol: a game package (``engine/<game>/``) is one.

A package under ``engine/`` with a ``GAME_ID`` is a game: ``engine.get_game`` finds it
there, so adding a game touches no shared file (in C, its schema's ``C_GAME`` names its
engine; see native/build_native.py).
"""

from __future__ import annotations

from typing import Any, Protocol

from .schema import Schema


class Game(Protocol):
    """A game package: its rules (``new_game``, ``Move``), its positions (schema, vector
    codec) and what tools cover (player counts, variants, options)."""

    GAME_ID: str
    TITLE: str
    ORDER: int  # its place in listings (ListGames)
    PLAYER_COUNTS: tuple[int, ...]
    VARIANTS: tuple[dict[str, str], ...]
    OPTION_VALUES: dict[str, tuple[str, ...] | None]
    SCHEMAS: tuple[Schema, ...]
    LAYOUT: tuple[str, ...]
    NUM_ACTIONS: int
    Move: Any

    def new_game(self, players: int, seed: int = ..., **options: Any) -> Any: ...

    def schema_of(self, message: Any) -> Schema: ...

    def decode(self, vec: Any, check: bool = ...) -> Any: ...

    def layout_for(self, vec: Any) -> tuple[str, ...]: ...
