"""Build hooks (metadata is in pyproject.toml).

cffi compiles the native engines; ``build_py`` first generates the gRPC code of
``proto/meeplemind/v1/*.proto`` with grpcio-tools into ``app/v1/`` (the package
``meeplemind.v1``), with mypy-protobuf's type stubs of the messages and the gRPC stubs
and servicers, so regular and editable installs both get it.

Wheels are tagged abi3 (cffi builds the modules for the limited API) and hold the
optimised native module only: the AddressSanitizer build ``meeplemind.native._mm_asan``,
which the tests marked ``sanitizer`` run, is built only when ``$MEEPLEMIND_BUILD_ASAN``
is 1 (``make install`` sets it for the development install).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
PROTO_ROOT = ROOT / "proto"
PROTO_PACKAGE = pathlib.Path("meeplemind", "v1")
GENERATED_INTO = ROOT / "app" / "v1"
#: Set to 1 to build the sanitizer module too (development installs, for the tests).
BUILD_ASAN_ENV = "MEEPLEMIND_BUILD_ASAN"
#: The oldest CPython the abi3 modules load in (``requires-python``).
LIMITED_API = "cp311"
#: The build-time scripts (the cffi build, the fit of the evaluation weights, the C table
#: generators ``gen_<game>``): run, not shipped.
BUILD_PACKAGE, BUILD_SCRIPTS, GENERATOR_PREFIX = "meeplemind.native", ("build_native", "fit_evaluation"), "gen_"


def _plugin(name: str) -> str:
    """``--plugin=`` for the protoc plugin ``name`` (a build requirement's script)."""
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"{name} (mypy-protobuf, a build requirement) is not on PATH")
    return f"--plugin={name}={path}"


def generate_protos() -> None:
    """Run protoc (grpcio-tools) on every .proto of meeplemind.v1 into ``app/v1/``: the
    messages and gRPC code, and their type stubs (mypy-protobuf)."""
    from grpc_tools import protoc

    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / PROTO_PACKAGE).glob("*.proto"))
    with tempfile.TemporaryDirectory() as out:
        args = ["grpc_tools.protoc", f"-I{PROTO_ROOT}", _plugin("protoc-gen-mypy"), _plugin("protoc-gen-mypy_grpc"),
                f"--python_out={out}", f"--mypy_out={out}", f"--grpc_python_out={out}", f"--mypy_grpc_out={out}",
                *protos]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {', '.join(protos)}")
        for old in GENERATED_INTO.glob("*_pb2*.py*"):
            old.unlink()
        for path in sorted((pathlib.Path(out) / PROTO_PACKAGE).iterdir()):
            shutil.copyfile(path, GENERATED_INTO / path.name)


class BuildPyWithProtos(build_py):
    """``build_py`` that generates the gRPC code before collecting the packages."""

    def run(self) -> None:
        generate_protos()
        super().run()

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        return [m for m in super().find_package_modules(package, package_dir)
                if m[0] != BUILD_PACKAGE or not (m[1] in BUILD_SCRIPTS or m[1].startswith(GENERATOR_PREFIX))]


setup(
    cmdclass={"build_py": BuildPyWithProtos},
    cffi_modules=["native/build_native.py:ffibuilder"]
    + (["native/build_native.py:ffibuilder_asan"] if os.environ.get(BUILD_ASAN_ENV) == "1" else []),
    options={"bdist_wheel": {"py_limited_api": LIMITED_API}},
)
