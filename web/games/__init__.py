"""Each game's page files, named after the game's field in a Position (its engine package's
name): ``<game>.js`` (its drawing, move labels and hooks, web/games.js), ``<game>.css`` and
``<game>.py`` (its fixed facts: a ``facts()``, web/facts.py)."""
