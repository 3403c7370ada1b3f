"""The gRPC service (``meeplemind.v1.Rules`` and ``meeplemind.v1.Analysis``).

``app.create_server`` builds a server (tests bind port 0) and ``app.serve`` runs one
until SIGTERM/SIGINT; ``workers`` runs several processes on one port (``--workers``);
``add_serve_arguments``/``run_serve`` are ``meeplemind serve`` (importing them is cheap).
Clients use ``meeplemind.client``.
"""

from .command import add_serve_arguments, run_serve

__all__ = ["add_serve_arguments", "run_serve"]
