"""Positions as JSON: the proto3 JSON mapping of ``meeplemind.v1.Position``.

A position file is ``{"game": "puerto-rico", "viewer": 0, "puerto_rico": {...}}``:
the game id, the seat whose view it is, and the game's state under the game's key
(its id with ``-`` as ``_``).  Field names are the proto field names (snake_case).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from . import get_game
from .errors import PositionError


def state_key(game_id: str) -> str:
    return game_id.replace("-", "_")


def to_position(state: Any, viewer: int | None = None) -> dict[str, Any]:
    """The Position JSON object of ``state`` seen by ``viewer`` (default: the player to move)."""
    if viewer is None:
        viewer = state.current_player if state.current_player is not None else 0
    seen = state.observation(viewer)
    return {"game": state.game_id, "viewer": viewer, state_key(state.game_id): seen.to_dict()}


def from_position(data: Any, check: bool = True) -> tuple[Any, int]:
    """(state, viewer) from a Position JSON object; raises PositionError naming the field.

    ``check=False`` skips the game's consistency checks (see the game's ``from_dict``):
    for a caller whose next step is a native decoder running the same checks."""
    if not isinstance(data, dict):
        raise PositionError("position", f"expected a JSON object, got {type(data).__name__}")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise PositionError("game", "missing (a game id such as 'puerto-rico')")
    try:
        game = get_game(game_id)
    except KeyError as e:
        raise PositionError("game", str(e.args[0])) from None
    key = state_key(game_id)
    if key not in data:
        raise PositionError(key, f"missing (the {game_id} state)")
    extra = set(data) - {"game", "viewer", key}
    if extra:
        raise PositionError(sorted(extra, key=str)[0], "unknown field")
    try:
        state = game.from_dict(data[key], check=check)
    except PositionError as e:
        raise PositionError(f"{key}.{e.path}" if e.path else key, e.problem) from None
    viewer = data.get("viewer", 0)
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < state.num_players:
        raise PositionError("viewer", f"{viewer!r} is not a seat of this {state.num_players}-player game")
    return state, viewer


#: The file name that stands for standard input.
STDIN = "-"


def read_json(path: str) -> Any:
    """A position file's JSON data (``-``: standard input), unchecked; errors name the file."""
    try:
        if path == STDIN:
            text, path = sys.stdin.read(), "<stdin>"
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise PositionError("", f"{path}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError("", f"{path}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    return data


def load_position(path: str) -> tuple[Any, int]:
    """Read and check a position file; errors name the file and the field."""
    return from_position(read_json(path))


def dumps(position: dict[str, Any]) -> str:
    return json.dumps(position, indent=1)
