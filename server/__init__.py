"""The gRPC service (``meeplemind.v1.Rules`` and ``meeplemind.v1.Analysis``).

``app.create_server`` builds a server (tests bind port 0), ``serving.serve`` runs one
until SIGTERM/SIGINT with its HTTP port (``http_gateway``); ``workers`` runs several
processes on one port (``--workers``). ``meeplemind serve`` is ``options.add_serve_arguments``
(cheap to import) and ``command.run_serve``. Clients use ``meeplemind.client``.
"""

from .options import add_serve_arguments

__all__ = ["add_serve_arguments"]
