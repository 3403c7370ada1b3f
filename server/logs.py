"""The server's logging: lines of text or JSON objects on standard error, and the access
log (one line per call) on or off."""

from __future__ import annotations

import logging

from pythonjsonlogger.json import JsonFormatter

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: JSON log keys: the record attributes logged, renamed as log collectors expect them.
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"
JSON_RENAMES = {"asctime": "time", "levelname": "level", "name": "logger"}
#: The logger of the one line per call that ``--access-log`` turns on.
ACCESS_LOGGER = "meeplemind.access"


def configure_logging(level: str, access_log: bool, worker: int | None = None,
                      log_format: str = "text") -> None:
    """Log at ``level`` to standard error as text or JSON (worker ``i`` names itself in
    each line, or in the JSON field ``worker``); the line per call only with
    ``access_log`` (it costs the request thread a formatted write)."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter(JSON_FIELDS, rename_fields=JSON_RENAMES,
                                           static_fields={} if worker is None else {"worker": worker}))
    else:
        name = "%(name)s" if worker is None else f"%(name)s[{worker}]"
        handler.setFormatter(logging.Formatter(LOG_FORMAT.replace("%(name)s", name)))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO if access_log else logging.WARNING)
