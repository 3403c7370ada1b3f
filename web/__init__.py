"""The web page served at ``/`` on the HTTP port: plain HTML, CSS and ES modules, no build step."""

from __future__ import annotations

import pathlib

#: The folder whose files are served as they are.
DIRECTORY = pathlib.Path(__file__).resolve().parent
