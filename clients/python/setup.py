"""Build hooks of meeplemind-client (metadata is in pyproject.toml).

The distribution holds ``meeplemind.client`` and ``meeplemind.v1`` (namespace package
``meeplemind``): ``build_py`` copies the client's sources from ``app/client/`` of the
repository and generates the gRPC code of ``proto/meeplemind/v1/*.proto``, with type stubs,
by the server distribution's own generator ``proto/generate.py``, so that both stay written
once. Both packages are marked typed (``py.typed``, PEP 561). Build it from a checkout:
``pip install clients/python``.
"""

from __future__ import annotations

import pathlib
import runpy
import shutil

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
CLIENT_SOURCES = REPOSITORY / "app" / "client"
GENERATOR = REPOSITORY / "proto" / "generate.py"
V1_INIT = REPOSITORY / "app" / "v1" / "__init__.py"


class BuildClient(build_py):
    """``build_py`` writing ``meeplemind/client`` and ``meeplemind/v1`` into the build tree."""

    def run(self) -> None:
        super().run()
        package = pathlib.Path(self.build_lib) / "meeplemind"
        client, v1 = package / "client", package / "v1"
        for directory in (client, v1):
            directory.mkdir(parents=True, exist_ok=True)
            (directory / "py.typed").touch()
        for source in CLIENT_SOURCES.glob("*.py"):
            shutil.copyfile(source, client / source.name)
        shutil.copyfile(V1_INIT, v1 / "__init__.py")
        runpy.run_path(str(GENERATOR))["generate_protos"](v1)


class ClientDistribution(Distribution):
    """Has pure modules, though ``packages`` is empty: ``build_py`` writes them."""

    def has_pure_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildClient}, distclass=ClientDistribution)
