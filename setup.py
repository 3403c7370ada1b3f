"""Build hooks (metadata is in pyproject.toml).

cffi compiles the native engines; ``build_py`` first generates the gRPC code of
``proto/meeplemind/v1/*.proto`` into ``app/v1/`` (the package ``meeplemind.v1``) with
``proto/generate.py``, the client distribution's generator too, so regular and editable
installs both get it.

Wheels are tagged abi3 (cffi builds the modules for the limited API) and hold the
optimised native module only: the AddressSanitizer build ``meeplemind.native._mm_asan``,
which the tests marked ``sanitizer`` run, is built only when ``$MEEPLEMIND_BUILD_ASAN``
is 1 (``make install`` sets it for the development install).
"""

from __future__ import annotations

import os
import pathlib
import runpy
import tomllib

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
GENERATED_INTO = ROOT / "app" / "v1"
#: Set to 1 to build the sanitizer module too (development installs, for the tests).
BUILD_ASAN_ENV = "MEEPLEMIND_BUILD_ASAN"
#: The oldest CPython the abi3 modules load in (``requires-python``).
LIMITED_API = "cp311"
#: The build-time scripts (the cffi build, the C table generators ``gen_<game>``): run, not
#: shipped.
BUILD_PACKAGE, BUILD_SCRIPTS, GENERATOR_PREFIX = "meeplemind.native", ("build_native",), "gen_"


def packages() -> list[str]:
    """Every package: each folder of pyproject.toml's ``package-dir`` and the packages in it
    (``meeplemind.engine.<game>``...), so adding a game names it in no list."""
    folders: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    return sorted({name for package, folder in folders.items()
                   for name in (package, *(f"{package}.{p}" for p in find_packages(str(ROOT / folder))))})


class BuildPyWithProtos(build_py):
    """``build_py`` that generates the gRPC code before collecting the packages."""

    def run(self) -> None:
        runpy.run_path(str(ROOT / "proto" / "generate.py"))["generate_protos"](GENERATED_INTO)
        super().run()

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        return [m for m in super().find_package_modules(package, package_dir)
                if m[0] != BUILD_PACKAGE or not (m[1] in BUILD_SCRIPTS or m[1].startswith(GENERATOR_PREFIX))]


setup(
    cmdclass={"build_py": BuildPyWithProtos},
    packages=packages(),
    cffi_modules=["native/build_native.py:ffibuilder"]
    + (["native/build_native.py:ffibuilder_asan"] if os.environ.get(BUILD_ASAN_ENV) == "1" else []),
    options={"bdist_wheel": {"py_limited_api": LIMITED_API}},
)
