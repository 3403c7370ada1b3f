"""The native position readers (``mm_read_checked``): what one accepts, the general path
accepts with the same state vector, for every position of played games and thousands of
mutants of their messages and bytes (``wire_support``); hostile bytes are refused, also
under the sanitizer build."""

from __future__ import annotations

import pytest

from meeplemind.engine import castles_of_burgundy, puerto_rico
from meeplemind.engine.castles_of_burgundy.data import COLOURS, PHASE_NAMES, TILE_NAMES
from meeplemind.engine.puerto_rico.data import BUILDINGS, GOODS, ROLES
from meeplemind.engine.puerto_rico.expansion import GIVE_CATEGORIES
from meeplemind.engine.puerto_rico.state import PHASES
from meeplemind.native import NativeGame, load
from meeplemind.server.convert import position_to_proto

from . import native_support as support
from . import wire_support as wire

MUTANTS, BYTE_MUTANTS = 6000, 20_000


def test_names_match_the_reference() -> None:
    ffi, lib = load()

    def names(table: object, count: int) -> tuple[str, ...]:
        return tuple(ffi.string(table[i]).decode() for i in range(count))  # type: ignore[index]

    assert names(lib.mm_pr_good_names, len(GOODS)) == GOODS
    assert names(lib.mm_pr_phase_names, len(PHASES)) == PHASES
    assert names(lib.mm_pr_role_names, len(ROLES)) == ROLES
    assert names(lib.mm_pr_building_names, len(BUILDINGS)) == tuple(b.name for b in BUILDINGS)
    assert names(lib.mm_pr_given_names, len(GIVE_CATEGORIES)) == GIVE_CATEGORIES
    assert names(lib.mm_cob_tile_names, len(TILE_NAMES)) == TILE_NAMES
    assert names(lib.mm_cob_phase_names, len(PHASE_NAMES)) == tuple(PHASE_NAMES)
    assert names(lib.mm_cob_stage_names, len(castles_of_burgundy.state.STAGES)) == castles_of_burgundy.state.STAGES
    assert names(lib.mm_cob_colour_names, len(COLOURS)) == COLOURS


@pytest.mark.parametrize("name", wire.READ_NATIVELY)
def test_reads_what_the_general_path_reads(name: str) -> None:
    counts = wire.run(name, games=3, mutants=MUTANTS, byte_mutants_count=BYTE_MUTANTS)
    assert counts["positions"] > 2000  # every one read natively, to the same vector
    # mutants that stay valid and mutants that do not, both in numbers
    assert counts.get("mutant_both", 0) > 150 and counts.get("mutant_neither", 0) > MUTANTS // 2
    assert counts.get("bytes_read", 0) > 200 and counts.get("bytes_refused", 0) > BYTE_MUTANTS // 2


@pytest.mark.parametrize("game", [puerto_rico, castles_of_burgundy])
def test_hostile_bytes_are_refused(game: object) -> None:
    native = NativeGame(game.GAME_ID)  # type: ignore[attr-defined]
    position = position_to_proto(game.new_game(3, 1))  # type: ignore[attr-defined]
    valid = getattr(position, position.WhichOneof("state")).SerializeToString()
    assert native.read_checked(valid) is not None
    for data in (b"", b"\xff" * 20, b"\x08" + b"\x80" * 11, b"\x0a\xff\xff\xff\xff\x0f", bytes(range(256)),
                 valid[:-1], valid + b"\x08", valid + b"\x07", b"\xb2\x01\x05" + valid, b"\x7a\x00" + valid):
        assert native.read_checked(data) is None, data


def test_a_reader_refuses_the_other_games_messages() -> None:
    pr = position_to_proto(puerto_rico.new_game(3, 1)).puerto_rico.SerializeToString()
    cob = position_to_proto(castles_of_burgundy.new_game(3, 1)).castles_of_burgundy.SerializeToString()
    assert NativeGame("castles-of-burgundy").read_checked(pr) is None
    assert NativeGame("puerto-rico").read_checked(cob) is None


@pytest.mark.sanitizer
@pytest.mark.parametrize("name", wire.READ_NATIVELY)
def test_sanitizer_build(name: str) -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized(["--game", name, "--games", "2", "--mutants", "2000", "--bytes", "20000"],
                                   timeout=600, module="tests.native.wire_support")
    assert result["positions"] > 500 and result.get("bytes_refused", 0) > 10_000
