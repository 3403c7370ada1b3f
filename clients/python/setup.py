"""Build hooks of meeplemind-client (metadata is in pyproject.toml).

The distribution holds ``meeplemind.client`` and ``meeplemind.v1`` (namespace package
``meeplemind``): ``build_py`` copies the client's sources from ``app/client/`` of the
repository and generates the gRPC code of ``proto/meeplemind/v1/*.proto`` with grpcio-tools,
so that both stay written once. Build it from a checkout: ``pip install clients/python``.
"""

from __future__ import annotations

import pathlib
import shutil
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
CLIENT_SOURCES = REPOSITORY / "app" / "client"
PROTO_ROOT = REPOSITORY / "proto"
V1_INIT = REPOSITORY / "app" / "v1" / "__init__.py"


def generate_protos(into: pathlib.Path) -> None:
    """protoc (grpcio-tools) on every .proto of meeplemind.v1, the code into ``into``."""
    from grpc_tools import protoc

    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / "meeplemind" / "v1").glob("*.proto"))
    with tempfile.TemporaryDirectory() as out:
        args = ["grpc_tools.protoc", f"-I{PROTO_ROOT}", f"--python_out={out}", f"--pyi_out={out}",
                f"--grpc_python_out={out}", *protos]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {', '.join(protos)}")
        for path in sorted((pathlib.Path(out) / "meeplemind" / "v1").iterdir()):
            shutil.copyfile(path, into / path.name)


class BuildClient(build_py):
    """``build_py`` writing ``meeplemind/client`` and ``meeplemind/v1`` into the build tree."""

    def run(self) -> None:
        super().run()
        package = pathlib.Path(self.build_lib) / "meeplemind"
        client, v1 = package / "client", package / "v1"
        for directory in (client, v1):
            directory.mkdir(parents=True, exist_ok=True)
        for source in CLIENT_SOURCES.glob("*.py"):
            shutil.copyfile(source, client / source.name)
        shutil.copyfile(V1_INIT, v1 / "__init__.py")
        generate_protos(v1)


class ClientDistribution(Distribution):
    """Has pure modules, though ``packages`` is empty: ``build_py`` writes them."""

    def has_pure_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildClient}, distclass=ClientDistribution)
