"""The layouts generated from the schemas (engine/layout.py): the Python codecs and the C
twins read every offset from the one table, and the binding names real state attributes."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import re

import pytest

import meeplemind.engine
import meeplemind.native
from meeplemind.engine import get_game
from meeplemind.engine.castles_of_burgundy import schema as cob_schema
from meeplemind.engine.castles_of_burgundy.state import Player as CobPlayer
from meeplemind.engine.castles_of_burgundy.state import State as CobState
from meeplemind.engine.layout import Binding, blocks, c_layout
from meeplemind.engine.puerto_rico import schema as pr_schema
from meeplemind.engine.puerto_rico.codec import BINDINGS, decode, encode
from meeplemind.engine.puerto_rico.expansion import ExpansionState
from meeplemind.engine.puerto_rico.state import Player as PrPlayer
from meeplemind.engine.puerto_rico.state import State as PrState
from meeplemind.engine.schema import Schema, cell
from meeplemind.engine.traders_of_genoa import schema as tog_schema
from meeplemind.engine.traders_of_genoa.state import Player as TogPlayer
from meeplemind.engine.traders_of_genoa.state import State as TogState

ENGINE = pathlib.Path(meeplemind.engine.__file__).parent
NATIVE = pathlib.Path(meeplemind.native.__file__).parent
#: The codecs driven by the table, and the C twins whose encode and load expand it.
BOUND = {"puerto_rico": pr_schema, "castles_of_burgundy": cob_schema, "traders_of_genoa": tog_schema}
CLASSES = [(pr_schema.V1, PrState, PrPlayer), (pr_schema.V2, ExpansionState, PrPlayer),
           (cob_schema.V1, CobState, CobPlayer), (tog_schema.V2, TogState, TogPlayer)]


def _literal_indexes(source: str) -> list[str]:
    """Subscripts of a module indexed or sliced by an integer literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Subscript):
            continue
        parts = [node.slice.lower, node.slice.upper, node.slice.step] if isinstance(node.slice, ast.Slice) \
            else [node.slice]
        for part in parts:
            if isinstance(part, ast.UnaryOp):
                part = part.operand
            if isinstance(part, ast.Constant) and isinstance(part.value, int):
                found.append(ast.unparse(node))
    return found


def test_literal_indexes_are_found() -> None:
    assert sorted(_literal_indexes("x = v[20] + f[26:][0] + v[-1] + v[i]")) == ["f[26:]", "f[26:][0]", "v[-1]", "v[20]"]


@pytest.mark.parametrize("game", sorted(BOUND))
def test_the_codecs_hold_no_vector_index(game: str) -> None:
    assert _literal_indexes((ENGINE / game / "codec.py").read_text()) == []


@pytest.mark.parametrize("game", sorted(BOUND))
def test_the_c_twins_read_their_offsets_from_the_generated_header(game: str) -> None:
    source = (NATIVE / f"mm_{game}.c").read_text()
    assert f'#include "layout_{game}.h"' in source
    # no offset enum or number of its own: every G()/P() is a generated name
    assert not re.search(r"enum\s*{\s*G_VERSION|\b[GOP]_[A-Z]+\s*=\s*\d", source)
    assert not re.search(r"\b(v|f|vec)\[\d+\]", source)
    assert re.search(r"#define G\(NAME\) MM_[A-Z]+_O_##NAME", source)
    # and no second generation of them (a game's generated tables hold its numbers only)
    tables = NATIVE / f"{game}_tables.h"
    assert not tables.exists() or not re.search(r"#define \w+_([OPF]_\w+|LEN|VERSION) ", tables.read_text())


@pytest.mark.parametrize("game", sorted(BOUND))
def test_the_c_encode_and_load_expand_the_tables(game: str) -> None:
    source = (NATIVE / f"mm_{game}.c").read_text()
    prefix = BOUND[game].C_PREFIX
    for s in BOUND[game].SCHEMAS:
        for table in ("STATE", "PLAYER"):
            for use in ("STORE_ONE, STORE_MANY", "LOAD_ONE, LOAD_MANY"):
                assert f"{prefix}_V{s.version}_{table}({use})" in source


def test_the_build_generated_each_layout_header() -> None:
    for game, module in (("puerto_rico", pr_schema), ("castles_of_burgundy", cob_schema),
                         ("traders_of_genoa", tog_schema)):
        text = (NATIVE / f"layout_{game}.h").read_text()
        assert text == c_layout(module.C_PREFIX, module.SCHEMAS, f"engine/{game}/schema.py",
                                getattr(module, "C_COMPUTED", ()))
    text = (NATIVE / "layout_puerto_rico.h").read_text()
    assert "#define MM_PR_O_GOVERNOR 3\n" in text and "#define MM_PR_V2_O_KEPT 33\n" in text
    assert "#define MM_PR_V1_O_KEPT -1\n" in text and "#define MM_PR_STRIDE_SHIP_KIND 3\n" in text
    assert "MANY(ship_kind, 85, 3, 3)" in text and "ONE(vp_chips, 1)" in text


@pytest.mark.parametrize(("schema", "state", "player"), CLASSES, ids=lambda x: getattr(x, "__name__", ""))
def test_every_cell_is_bound_to_an_attribute_of_its_kind(schema: Schema, state: type, player: type) -> None:
    for record, cls in ((False, state), (True, player)):
        fields = {f.name: str(f.type) for f in dataclasses.fields(cls)}
        for b in blocks(schema, record):
            if b.attr in ("version", "players") and not record:
                continue
            assert hasattr(cls, b.attr) or b.attr in fields, (cls.__name__, b.attr)
            if b.attr in fields and b.attr != "options":
                assert fields[b.attr].startswith("list") == (len(b.at) > 1), (b.attr, fields[b.attr])
                assert fields[b.attr].startswith("list[list") == (b.cols < len(b.at)), (b.attr, fields[b.attr])


def test_a_cell_names_its_attribute() -> None:
    assert cell("goods_supply.corn", 0, 9).attr == "goods_supply"
    assert cell("players[0].buildings.wharf", 0, 1).attr == "players"
    assert cell("progress.warehoused", 0, 31, "mask", attr="store_mask").attr == "store_mask"
    assert pr_schema.V2.cells[pr_schema.V2.index("players[1].vp_chips")].attr == "vp_chips"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_decoding_keeps_what_the_position_holds(players: int) -> None:
    """Lists the State starts empty keep their present elements (roles in play, ships);
    a base game's building lists are filled up to the 37 types."""
    game = get_game("puerto-rico")
    s = game.new_game(players, players)
    binding = BINDINGS[pr_schema.V1.version]
    fields, seats = binding.decode(binding.encode(s))
    assert len(seats) == players and len(fields["role_doubloons"]) == len(s.role_doubloons)
    assert fields["ship_capacity"] == s.ship_capacity and fields["role_taken"] == s.role_taken
    assert len(fields["building_supply"]) == 37 and seats[0]["buildings"] == s.players[0].buildings
    assert all(type(x) is bool for x in fields["role_taken"]) and fields["end_triggered"] is False
    assert list(encode(decode(encode(s)))) == binding.encode(s)


def test_a_property_is_encoded_and_not_decoded() -> None:
    """Castles' player to move is a property of its State: written, never passed back."""
    s = get_game("castles-of-burgundy").new_game(3, 5)
    binding = Binding(cob_schema.V1, CobState, CobPlayer)
    v = binding.encode(s)
    assert v[cob_schema.V1.index("current_player")] == s.current == 1  # not the cell's empty 0
    assert "current" not in binding.decode(v)[0]


def test_a_grid_is_copied_a_row_at_a_time() -> None:
    """Seat p's offered goods are row p of ``offer_goods``: the C twin copies a row at a
    time, the codec reads a list of lists holding the rows of the seats in play."""
    goods = next(b for b in blocks(tog_schema.V2, False) if b.attr == "offer_goods")
    assert (goods.cols, goods.step, goods.stride) == (8, 1, 16)
    text = c_layout(tog_schema.C_PREFIX, tog_schema.SCHEMAS, "x")
    assert "MANY(offer_goods[1], 37, 8, 1)" in text and "MANY(offer_ducats, 20, 5, 16)" in text
    assert "#define MM_TOG_STRIDE_OFFER_GOODS 16\n" in text
    s = get_game("traders-of-genoa").new_game(3, 1)
    s.offer_goods[1][7] = 2
    fields, seats = Binding(tog_schema.V2, TogState, TogPlayer).decode(Binding(tog_schema.V2, TogState, TogPlayer).encode(s))
    assert fields["offer_goods"] == s.offer_goods and len(s.offer_goods) == 3 and fields["offer_goods"][1][7] == 2
    uneven = Schema("x", 1, (2, 2), (cell("version", 1, 1, "fixed"), cell("players", 2, 2, "length"),
                                     *(cell(f"a[{i}]", 0, 1, attr="a") for i in range(3)), cell("b", 0, 1),
                                     cell("a[3]", 0, 1, attr="a")))
    with pytest.raises(ValueError, match="neither evenly spaced nor rows"):
        c_layout("X", (uneven,), "x")
