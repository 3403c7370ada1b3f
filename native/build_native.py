"""cffi (API mode) build of the native engines and search.

Two extension modules are built from the same sources: ``meeplemind.native._mm``
(optimised) by every ``pip install``, and ``meeplemind.native._mm_asan``
(``-fsanitize=address,undefined``, selected with ``MEEPLEMIND_NATIVE=asan``) for the
tests only, when ``$MEEPLEMIND_BUILD_ASAN`` is 1 (see ``setup.py``).
The sanitizer build turns off the ``-fwrapv`` cffi takes from Python's own flags
(with it signed overflow is defined, and UBSan cannot report it) and their ``-DNDEBUG``
(its asserts hold, e.g. that every determinization decodes), and stops at the first
report.
The declarations cffi sees are the ``cdef/*.h`` files, one per C module.  Before
compiling, every game's schema (``engine/<game>/schema.py``) is written out as the
header ``native/schema_<game>.h`` its decoder includes (``engine.schema.c_header``),
every table generator ``native/gen_<game>.py`` writes ``native/<game>_tables.h`` (its
``render``, from the game's engine modules), and each game's evaluation network
(``native/evaluation_<game>.json``, if the game has one) becomes
``native/evaluation_<game>.h``.  None is kept in git.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pathlib
import sys
import types
from typing import Any

from cffi import FFI

HERE = pathlib.Path(__file__).resolve().parent
ENGINE = HERE.parent / "engine"


def _engine_module(name: str) -> types.ModuleType:
    """``engine.<name>`` imported without running the packages' ``__init__`` (which need
    numpy): the schemas use the standard library and the games' data alone."""
    package = "_mm_build_engine"
    for part, path in ((package, ENGINE), *((f"{package}.{g}", ENGINE / g) for g in name.split(".")[:-1])):
        if part not in sys.modules:
            stub = types.ModuleType(part)
            stub.__path__ = [str(path)]
            sys.modules[part] = stub
    return importlib.import_module(f"{package}.{name}")


def _games() -> list[str]:
    """Every game's engine package name (``engine/<game>/``, one with a schema), by name."""
    return sorted(path.parent.name for path in ENGINE.glob("*/schema.py"))


def generate_schema_headers() -> None:
    """Write ``native/schema_<game>.h`` for every game with a schema, and
    ``native/schema_games.h``: the C engines (each schema's ``C_GAME``) ``mm_find_game``
    knows, so a game registers itself in C from its own schema module."""
    c_header = _engine_module("schema").c_header
    games = []
    for game in _games():
        module = _engine_module(f"{game}.schema")
        games.append(module.C_GAME)
        _write(HERE / f"schema_{game}.h", c_header(module.C_PREFIX, module.SCHEMAS, f"engine/{game}/schema.py",
                                                   getattr(module, "C_CONSTANTS", None), getattr(module, "C_NAMES", None)))
    _write(HERE / "schema_games.h", "\n".join([
        "/* Generated from every engine/<game>/schema.py (C_GAME) by native/build_native.py: do not edit. */",
        "#ifndef MM_SCHEMA_GAMES_H", "#define MM_SCHEMA_GAMES_H", '#include "mm_game.h"',
        *(f"extern const mm_game {g};" for g in games),
        "#define MM_GAMES " + ", ".join(f"&{g}" for g in games), "#endif", ""]))


def generate_tables() -> None:
    """Write ``native/<game>_tables.h`` with every ``native/gen_<game>.py``'s ``render``."""
    for path in sorted(HERE.glob("gen_*.py")):
        game = path.stem.removeprefix("gen_")
        spec = importlib.util.spec_from_file_location(f"_mm_build_gen_{game}", path)
        assert spec is not None and spec.loader is not None, path
        generator = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(generator)
        _write(HERE / f"{game}_tables.h", generator.render(_engine_module))


def _floats(values: list[float]) -> str:
    return ", ".join(f"{float(v)!r}f" for v in values)


def evaluation_header(game: str, model: dict[str, Any]) -> str:
    """The C header of one game's evaluation network (mm_eval.h) from its file
    ``native/evaluation_<game>.json``, after checking the network's shape."""
    prefix, features, hidden = model["prefix"], int(model["features"]), int(model["hidden"])
    shapes = {"w1": 2 * features * hidden, "b1": hidden, "w2": hidden, "temperature": 2}
    for key, size in shapes.items():
        if len(model[key]) != size:
            raise ValueError(f"native/evaluation_{game}.json: {key} has {len(model[key])} values, "
                             f"not {size} ({features} features, {hidden} hidden units)")
    return "\n".join([
        f"/* Generated from native/evaluation_{game}.json by native/build_native.py: do not edit. */",
        f"#ifndef {prefix}_H", f"#define {prefix}_H", '#include "mm_eval.h"',
        f"#define {prefix}_VERSION {int(model['version'])}", f"#define {prefix}_FEATURES {features}",
        f"#define {prefix}_HIDDEN {hidden}",
        f"static const float {prefix}_W1[{shapes['w1']}] = {{{_floats(model['w1'])}}};",
        f"static const float {prefix}_B1[{hidden}] = {{{_floats(model['b1'])}}};",
        f"static const float {prefix}_W2[{hidden}] = {{{_floats(model['w2'])}}};",
        f"static const mm_eval_model {prefix}_MODEL = {{{features}, {prefix}_W1, {prefix}_B1, {prefix}_W2, "
        f"{float(model['b2'])!r}f, {{{float(model['temperature'][0])!r}, {float(model['temperature'][1])!r}}}}};",
        "#endif", ""])


def generate_evaluation_headers() -> None:
    """Write ``native/evaluation_<game>.h`` for every game with a schema and an evaluation
    ``native/evaluation_<game>.json`` (tools/fit_evaluation.py fits them)."""
    for game in _games():
        weights = HERE / f"evaluation_{game}.json"
        if weights.exists():
            _write(HERE / f"evaluation_{game}.h", evaluation_header(game, json.loads(weights.read_text())))


def _write(path: pathlib.Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


generate_schema_headers()
generate_tables()
generate_evaluation_headers()
SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in HERE.glob("*.c"))
CDEF = "\n".join(p.read_text() for p in sorted((HERE / "cdef").glob("*.h")))
HEADERS = "\n".join(f'#include "{p.name}"' for p in sorted(HERE.glob("mm_*.h")))

COMMON = ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-fno-strict-aliasing"]
FLAGS = {
    "release": COMMON + ["-O2", "-DNDEBUG"],
    "asan": COMMON
    + ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
       "-fno-sanitize-recover=all", "-fno-wrapv", "-UNDEBUG"],
}


def make_builder(variant: str) -> FFI:
    ffi = FFI()
    ffi.cdef(CDEF)
    suffix = "" if variant == "release" else f"_{variant}"
    link = ["-fsanitize=address,undefined"] if variant == "asan" else []
    ffi.set_source(
        f"meeplemind.native._mm{suffix}",
        HEADERS,
        sources=SOURCES,
        include_dirs=[str(HERE.relative_to(HERE.parent))],
        extra_compile_args=FLAGS[variant] + os.environ.get("MEEPLEMIND_CFLAGS", "").split(),
        extra_link_args=link,
    )
    return ffi


ffibuilder = make_builder("release")
ffibuilder_asan = make_builder("asan")

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
