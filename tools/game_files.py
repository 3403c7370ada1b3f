"""Which tracked files name each game outside the game's own files (issue 32: a game lives
in its own files, found through the registry).

A game's names come from the registry (``meeplemind.engine``): each word of its title but
"the" and "of", and its schema's C prefix without ``MM_`` (its short name), each a whole word
in any case, camelCase and CamelCase split into words (``drawBoardGame`` reads "draw board
game"), ``_`` and ``-`` separating words.  A file whose path names a game is that game's own
(``engine/<game>/``, ``web/games/<game>.js``, ``native/mm_<game>.c``); it still counts for
any other game it names.  The documentation (``docs/``, every ``*.md``), the examples
(``examples/``) and the tests (``tests/``, ``clients/*/test/``), which choose the games
they show or play, are not counted::

    .venv/bin/python tools/game_files.py     # per game: how many files name it, and which
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from meeplemind.engine import game_ids, game_key, get_game

ROOT = Path(__file__).resolve().parents[1]
#: Title words that name no game.
COMMON_WORDS = frozenset({"the", "of"})
#: Folders and files that are not counted (see the module's docstring).
NOT_COUNTED = re.compile(r"^(docs|examples|tests)/|^clients/[^/]+/test/|\.md$")


def words(text: str) -> str:
    """``text`` in lower case, camelCase split into words: "drawBoardGame" → "draw board game"."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).lower()


def names(game_id: str) -> re.Pattern[str]:
    """The pattern that finds a game's names in ``words(text)``."""
    game = get_game(game_id)
    prefix: str = importlib.import_module(f"meeplemind.engine.{game_key(game_id)}.schema").C_PREFIX
    found = {w for w in words(game.TITLE).split() if w not in COMMON_WORDS}
    found.add(prefix.removeprefix("MM_").lower())
    return re.compile(r"(?<![a-z0-9])(" + "|".join(sorted(map(re.escape, found))) + r")(?![a-z0-9])")


def tracked_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [path for path in listed.splitlines() if (ROOT / path).is_file()]


def naming(paths: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Per game id, the counted files (see the module's docstring) that name the game
    outside its own files, in path order."""
    counted = [p for p in (tracked_files() if paths is None else paths) if not NOT_COUNTED.search(p)]
    texts = {p: words((ROOT / p).read_text(encoding="utf-8", errors="replace")) for p in counted}
    found: dict[str, list[str]] = {}
    for game_id in game_ids():
        pattern = names(game_id)
        found[game_id] = [p for p in counted if not pattern.search(words(p)) and pattern.search(texts[p])]
    return found


def main() -> int:
    for game_id, paths in naming().items():
        print(f"{game_id}: {len(paths)} files")
        for path in paths:
            print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
