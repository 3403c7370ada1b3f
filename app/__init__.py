"""meeplemind: search-based AI opponents for Euro board games."""

__version__ = "0.1.0"
