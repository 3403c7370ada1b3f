"""cffi (API mode) build of the native engines and search.

Two extension modules are built from the same sources: ``meeplemind.native._mm``
(optimised) by every ``pip install``, and ``meeplemind.native._mm_asan``
(``-fsanitize=address,undefined``, selected with ``MEEPLEMIND_NATIVE=asan``) for the
tests only, when ``$MEEPLEMIND_BUILD_ASAN`` is 1 (see ``setup.py``).
The sanitizer build turns off the ``-fwrapv`` cffi takes from Python's own flags
(with it signed overflow is defined, and UBSan cannot report it) and stops at the
first report.
The declarations cffi sees are the ``cdef/*.h`` files, one per C module.
"""

from __future__ import annotations

import os
import pathlib

from cffi import FFI

HERE = pathlib.Path(__file__).resolve().parent
SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in HERE.glob("*.c"))
CDEF = "\n".join(p.read_text() for p in sorted((HERE / "cdef").glob("*.h")))
HEADERS = "\n".join(f'#include "{p.name}"' for p in sorted(HERE.glob("mm_*.h")))

COMMON = ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-fno-strict-aliasing"]
FLAGS = {
    "release": COMMON + ["-O2", "-DNDEBUG"],
    "asan": COMMON
    + ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
       "-fno-sanitize-recover=all", "-fno-wrapv"],
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
