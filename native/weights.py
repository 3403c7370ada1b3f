"""A game's evaluation weights (mm_eval.h's model): read, written and loaded for a search.

A model is a dict: ``features``, ``hidden``, ``w1`` (input-major), ``b1``, ``w2``, ``b2``,
``temperature`` (two values) and ``prior_exponent`` (1 when absent: the game's move priors
as they are).  ``game_weights`` is the one reader of the compiled-in weights
(native/evaluation_<game>.json, which the build writes into native/evaluation_<game>.h) and
``write_game_weights`` the one writer; ``loaded_model`` turns a model into the C struct a
search takes as ``mm_ismcts_params.eval_model``, so a training generation plays without a
rebuild (the C side checks its shape, ``mm_eval_model_fits``).
"""

from __future__ import annotations

import json
import math
import pathlib
from dataclasses import dataclass
from typing import Any

NATIVE = pathlib.Path(__file__).resolve().parent
#: The keys of a model, what the C struct holds.
MODEL_KEYS = ("features", "hidden", "w1", "b1", "w2", "b2", "temperature", "prior_exponent")


def weights_file(game: str) -> pathlib.Path:
    """The evaluation file of ``game`` (a game id: the file is named after its engine package)."""
    return NATIVE / f"evaluation_{game.replace('-', '_')}.json"


def game_weights(game: str) -> dict[str, Any]:
    """The compiled-in model of ``game`` (its native/evaluation_<game>.json, with
    ``prior_exponent``); KeyError if the game has none."""
    path = weights_file(game)
    if not path.exists():
        raise KeyError(game)
    entry = json.loads(path.read_text())
    return {"prior_exponent": 1.0} | {k: entry[k] for k in MODEL_KEYS if k in entry}


def write_game_weights(game: str, model: dict[str, Any], fit: dict[str, Any]) -> None:
    """Make ``model`` (and how it was fitted, ``fit``) ``game``'s compiled-in weights; the next
    build (``make install``) compiles them."""
    path = weights_file(game)
    entry = json.loads(path.read_text())
    if model["features"] != entry["features"]:
        raise ValueError(f"{game}: the model has {model['features']} features, {path.name} "
                         f"{entry['features']}: update its version and features with the C feature set")
    entry |= {k: model[k] for k in MODEL_KEYS if k in model} | {"fit": fit}
    path.write_text(dumps(entry))


def dumps(entry: dict[str, Any]) -> str:
    """An evaluation file's text: a line per key (a weight matrix on one line)."""
    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items()) + "\n}\n"


def check_model(model: dict[str, Any], hidden: int, what: str) -> None:
    """ValueError naming the key unless ``model`` has ``hidden`` hidden units (the width C
    is compiled for), arrays of its shape and finite values only."""
    missing = [k for k in MODEL_KEYS if k not in model and k != "prior_exponent"]
    if missing:
        raise ValueError(f"{what}: no {', '.join(missing)}")
    if model["hidden"] != hidden:
        raise ValueError(f"{what}: hidden is {model['hidden']}, the C evaluator is compiled for {hidden} (MM_EVAL_HIDDEN)")
    shapes = {"w1": 2 * int(model["features"]) * hidden, "b1": hidden, "w2": hidden, "temperature": 2}
    for key, size in shapes.items():
        if len(model[key]) != size:
            raise ValueError(f"{what}: {key} has {len(model[key])} values, not {size}")
    for key in ("w1", "b1", "w2", "temperature", "b2", "prior_exponent"):
        values = model.get(key, 1.0)
        if not all(math.isfinite(v) for v in (values if isinstance(values, list) else [values])):
            raise ValueError(f"{what}: {key} has a value that is not finite")
    if model.get("prior_exponent", 1.0) <= 0 or model["temperature"][1] < 0:
        raise ValueError(f"{what}: prior_exponent must be > 0 and temperature[1] >= 0")


@dataclass(frozen=True)
class LoadedModel:
    """A model as C reads it: ``struct`` is the ``mm_eval_model *``; the arrays it points to
    live as long as this object."""

    struct: Any
    arrays: tuple[Any, ...]


def loaded_model(ffi: Any, lib: Any, game: Any, model: dict[str, Any], what: str) -> LoadedModel:
    """The C struct of ``model`` for ``game`` (a ``const mm_game *`` of ``lib``); ValueError
    naming ``what`` if it does not fit the game."""
    check_model(model, int(lib.MM_EVAL_HIDDEN), what)
    arrays = tuple(ffi.new("float[]", [float(v) for v in model[k]]) for k in ("w1", "b1", "w2"))
    struct = ffi.new("mm_eval_model *", {
        "features": int(model["features"]), "w1": arrays[0], "b1": arrays[1], "w2": arrays[2],
        "b2": float(model["b2"]), "temperature": [float(t) for t in model["temperature"]],
        "prior_exponent": float(model.get("prior_exponent", 1.0))})
    if not lib.mm_eval_model_fits(game, struct):
        raise ValueError(f"{what}: does not fit the game's evaluation (its feature count or the game has none)")
    return LoadedModel(struct, arrays)


def read_weights_file(path: str | pathlib.Path) -> tuple[str, dict[str, Any]]:
    """``(game, model)`` of a generation's weights file (``{"game": ..., "model": {...}}``, as
    ``meeplemind train`` writes them); ValueError naming the file if it is not one."""
    try:
        data = json.loads(pathlib.Path(path).read_text())
        return str(data["game"]), dict(data["model"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"weights: {path} is not a weights file ({e})") from None
