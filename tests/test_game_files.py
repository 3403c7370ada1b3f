"""A game lives in its own files (issue 32): outside them only the ``Position`` oneof names a
game (and Puerto Rico, the default game, where it is the default or a comment's example),
every game of the registry has its page files and its folder of rule tests, and the count of
tools/game_files.py finds the names it looks for."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from meeplemind.engine import game_ids, game_key

ROOT = Path(__file__).resolve().parents[1]
TOOL = runpy.run_path(str(ROOT / "tools" / "game_files.py"))
#: The file of the ``Position`` oneof, which names every game's state message.
ONEOF = "proto/meeplemind/v1/position.proto"
#: Puerto Rico is the default game: the command line's default, the example a docstring,
#: help text or error message gives (a game id, a field path), and the game a measurement
#: quoted in a comment was made on.
DEFAULT_GAME = "puerto-rico"
DEFAULT_GAME_FILES = {
    "app/cli.py", "app/client/__init__.py", "app/client/errors.py", "engine/position.py", "loadtest/locustfile.py",
    "loadtest/run.py", "proto/meeplemind/v1/analysis.proto", "proto/meeplemind/v1/rules.proto", "search/ismcts.py",
    "search/review.py", "server/convert.py", "server/http_gateway.py", "tools/api_reference.py"}


def test_outside_its_own_files_a_game_is_named_only_by_the_position_oneof() -> None:
    found = TOOL["naming"]()
    assert set(found) == set(game_ids())
    for game_id, paths in found.items():
        allowed = {ONEOF} | (DEFAULT_GAME_FILES if game_id == DEFAULT_GAME else set())
        assert set(paths) <= allowed, f"{game_id} is named outside its own files in {sorted(set(paths) - allowed)}"
    assert all(len(paths) <= 1 for game_id, paths in found.items() if game_id != DEFAULT_GAME)


@pytest.mark.parametrize(("text", "game_id"), [
    ('import { drawCastlesOfBurgundy } from "./castles_of_burgundy.js";', "castles-of-burgundy"),
    (".cob-tile { display: inline-block; }", "castles-of-burgundy"),
    ('"prefix": "MM_COB_EVAL",', "castles-of-burgundy"),
    ('if (game !== "traders-of-genoa") return "";', "traders-of-genoa"),
    (".genoa-town rect { stroke: #fff; }", "traders-of-genoa"),
    ("from ..engine.traders_of_genoa import board as tog_board", "traders-of-genoa"),
    ("#: What each Puerto Rico building does", "puerto-rico"),
    ("const pr = final.game;", "puerto-rico"),
    ("function puertoRico(move) {", "puerto-rico"),
])
def test_the_count_finds_a_games_names_in_any_form(text: str, game_id: str) -> None:
    assert [g for g in game_ids() if TOOL["names"](g).search(TOOL["words"](text))] == [game_id]


@pytest.mark.parametrize("text", ["a cobalt tile", "jacobian", "the Trader role", "prices and producers", "a toggle"])
def test_the_count_finds_no_game_in_other_words(text: str) -> None:
    assert not [g for g in game_ids() if TOOL["names"](g).search(TOOL["words"](text))]


def test_the_count_leaves_out_a_games_own_files_the_docs_and_the_tests() -> None:
    paths = ["web/games/traders_of_genoa.js", "native/mm_castles_of_burgundy.c", "docs/search.md",
             "tests/web/test_page.py", "README.md", ONEOF]
    assert TOOL["naming"](paths) == {game_id: [ONEOF] for game_id in game_ids()}


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_its_page_files_and_its_rule_tests_folder(game_id: str) -> None:
    key = game_key(game_id)
    for path in (f"web/games/{key}.js", f"web/games/{key}.css", f"web/games/{key}.py", f"tests/engine/{key}/__init__.py"):
        assert (ROOT / path).is_file(), f"{game_id}: no {path}"
    flat = [p.name for p in (ROOT / "tests" / "engine").glob("*.py") if TOOL["names"](game_id).search(TOOL["words"](p.name))]
    assert not flat, f"{game_id}: rule tests outside tests/engine/{key}/: {flat}"
