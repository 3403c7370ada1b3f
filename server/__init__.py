"""The gRPC service (``meeplemind.v1.Rules`` and ``meeplemind.v1.Analysis``).

``create_server`` builds a server (tests bind port 0), ``serve`` runs one until
SIGTERM/SIGINT, ``add_serve_arguments``/``run_serve`` are ``meeplemind serve``, and
``client`` holds the helpers behind the command line's ``--server``.
"""

from .app import Server, TlsFiles, create_server, serve
from .command import add_serve_arguments, run_serve
from .limits import Limits

__all__ = ["Limits", "Server", "TlsFiles", "add_serve_arguments", "create_server", "run_serve", "serve"]
