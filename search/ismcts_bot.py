"""The ISMCTS bot: plays the most visited move of a search of the position."""

from __future__ import annotations

from typing import Any

from .ismcts import analyze

#: Bot-spec keys and how to read them (``ismcts:time_ms=1000,threads=2``).
_PARAMS = {"iterations": int, "time_ms": int, "cpu_ms": int, "threads": int, "exploration": float,
           "rollout_policy": str, "max_nodes": int}
#: What a value that does not read is not.
_KINDS = {int: "an int", float: "a number"}


class IsmctsBot:
    def __init__(self, spec: str, params: dict[str, str], seed: int = 0) -> None:
        self.name = spec
        self.options: dict[str, Any] = {}
        for key, text in params.items():
            if key not in _PARAMS:
                raise ValueError(f"bot {spec!r}: unknown parameter {key!r} "
                                 f"(known: {', '.join(_PARAMS)})")
            try:
                self.options[key] = _PARAMS[key](text)
            except ValueError:
                raise ValueError(f"bot {spec!r}: {key}={text!r} is not {_KINDS[_PARAMS[key]]}") from None
        if not {"iterations", "time_ms", "cpu_ms"} & set(self.options):
            self.options["time_ms"] = 1000
        self.seed = seed
        self.moves_played = 0

    def choose(self, state: Any) -> Any:
        self.moves_played += 1
        result = analyze(state, seed=self.seed + self.moves_played, **self.options)
        return state.move_from_id(result.moves[0].action)
