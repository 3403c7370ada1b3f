"""The gRPC code of ``meeplemind.v1``, generated at build time by both distributions
(``setup.py`` of ``meeplemind`` and ``clients/python/setup.py`` of ``meeplemind-client``).

protoc (grpcio-tools) on every ``proto/meeplemind/v1/*.proto``: the messages and the gRPC
stubs and servicers, with mypy-protobuf's type stubs of both (a build requirement of each).
The setup scripts load this file by path (``runpy``): it is a build script, in no package.
"""

from __future__ import annotations

import pathlib
import shutil
import tempfile

PROTO_ROOT = pathlib.Path(__file__).resolve().parent
PROTO_PACKAGE = pathlib.Path("meeplemind", "v1")


def _plugin(name: str) -> str:
    """``--plugin=`` for the protoc plugin ``name`` (a build requirement's script)."""
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"{name} (mypy-protobuf, a build requirement) is not on PATH")
    return f"--plugin={name}={path}"


def generate_protos(into: pathlib.Path) -> None:
    """The generated modules and stubs of meeplemind.v1 into ``into``, replacing the old ones."""
    from grpc_tools import protoc

    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / PROTO_PACKAGE).glob("*.proto"))
    with tempfile.TemporaryDirectory() as out:
        args = ["grpc_tools.protoc", f"-I{PROTO_ROOT}", _plugin("protoc-gen-mypy"), _plugin("protoc-gen-mypy_grpc"),
                f"--python_out={out}", f"--mypy_out={out}", f"--grpc_python_out={out}", f"--mypy_grpc_out={out}",
                *protos]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {', '.join(protos)}")
        for old in into.glob("*_pb2*.py*"):
            old.unlink()
        for path in sorted((pathlib.Path(out) / PROTO_PACKAGE).iterdir()):
            shutil.copyfile(path, into / path.name)
