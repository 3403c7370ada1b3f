"""The per-game schemas (engine/<game>/schema.py), the header the build generates from
them, proto3 JSON positions read by protobuf, and the positions the probe found that
legal play turned into rejected ones."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from google.protobuf import json_format

import meeplemind.native
from meeplemind.positions import accept
from meeplemind.positions import vector_codec
from meeplemind.engine import PositionError, Rng, game_ids, get_game
from meeplemind.engine.castles_of_burgundy import schema as cob_schema
from meeplemind.positions.messages import read_json, state_from_dict, to_position
from meeplemind.engine.puerto_rico import schema as pr_schema
from meeplemind.engine.puerto_rico.data import ROLES
from meeplemind.engine.traders_of_genoa import schema as tog_schema
from meeplemind.engine.schema import Ref, Schema, c_header
from meeplemind.native import NativeDecodeError, NativeGame
from meeplemind.server.convert import read_position
from meeplemind.server.errors import ServiceError
from meeplemind.v1 import position_pb2

SCHEMAS = {"puerto-rico": pr_schema, "castles-of-burgundy": cob_schema, "traders-of-genoa": tog_schema}


def test_every_game_has_a_schema_naming_its_layouts() -> None:
    assert sorted(SCHEMAS) == sorted(game_ids())
    assert pr_schema.V1.names() == get_game("puerto-rico").LAYOUT
    assert pr_schema.V2.names() == get_game("puerto-rico").LAYOUT_V2
    assert cob_schema.V1.names() == get_game("castles-of-burgundy").LAYOUT
    assert tog_schema.V2.names() == get_game("traders-of-genoa").LAYOUT


@pytest.mark.parametrize("schema", [*pr_schema.SCHEMAS, *cob_schema.SCHEMAS, *tog_schema.SCHEMAS],
                         ids=lambda s: f"{s.game}-v{s.version}")
def test_ranges_are_well_formed(schema: Schema) -> None:
    first, last = schema.players
    for n in range(first, last + 1):
        table = schema.ranges(n)
        assert len(table) == schema.length
        for i, (lo, hi, bound) in enumerate(table):
            assert bound < i and (bound >= 0 or lo <= hi), (schema.cells[i].path, lo, hi)
    for c in schema.cells:
        if isinstance(c.hi, Ref):
            assert schema.index(c.hi.path.format(seat=c.seat)) < schema.index(c.path)


def test_the_build_generated_each_header_from_its_schema() -> None:
    native = pathlib.Path(meeplemind.native.__file__).parent
    for game, module in (("puerto_rico", pr_schema), ("castles_of_burgundy", cob_schema),
                         ("traders_of_genoa", tog_schema)):
        text = (native / f"schema_{game}.h").read_text()
        assert text == c_header(module.C_PREFIX, module.SCHEMAS, f"engine/{game}/schema.py",
                                getattr(module, "C_CONSTANTS", None), getattr(module, "C_NAMES", None))


def test_a_range_failure_names_the_cell_and_the_seat() -> None:
    game = get_game("puerto-rico")
    v = game.new_game(3, seed=1).encode().tolist()
    v[pr_schema.V1.index("players[4].doubloons")] = 2
    with pytest.raises(PositionError) as e:
        accept(game, v)
    assert (e.value.path, e.value.problem) == ("players[4].doubloons", "2 is above 0 (seat 4 is not in a 3-player game)")


# ----------------------------------------------------------- proto3 JSON positions
def _forms(state: Any) -> dict[str, str]:
    """The same position written the ways a proto3 JSON writer may write it."""
    snake = to_position(state)
    message = json_format.ParseDict(snake, position_pb2.Position())
    camel = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    return {"snake_case": json.dumps(snake), "camelCase": json.dumps(camel),
            "defaults omitted": json_format.MessageToJson(message),
            "proto names, defaults omitted": json_format.MessageToJson(message, preserving_proto_field_name=True)}


@pytest.mark.parametrize("game_id,options", [("puerto-rico", {}), ("puerto-rico", {"expansion": "new-buildings"}),
                                             ("castles-of-burgundy", {}), ("traders-of-genoa", {})])
def test_every_json_form_reads_to_the_same_vector(tmp_path: pathlib.Path, game_id: str,
                                                  options: dict[str, str]) -> None:
    game = get_game(game_id)
    state, rng = game.new_game(4, seed=3, **options), Rng(5)
    for _ in range(40):
        state = state.apply(state.legal_moves()[rng.below(len(state.legal_moves()))], rng)
    path = tmp_path / "p.json"
    seen = state.encode()  # what to_position writes: the state as it is (full information)
    for form, text in _forms(state).items():
        path.write_text(text)
        data = read_json(str(path))
        read = state_from_dict(game_id, data[game_id.replace("-", "_")])
        assert np.array_equal(read.encode(), seen), form
        served = read_position(json_format.Parse(text, position_pb2.Position())).state()
        assert np.array_equal(served.encode(), seen), form


def _verdicts(tmp_path: pathlib.Path, data: dict[str, Any]) -> tuple[str, str]:
    """(the command line's error, the service's field violation) for a position."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PositionError) as local:
        state_from_dict(data["game"], read_json(str(path))[data["game"].replace("-", "_")])
    message = position_pb2.Position()
    try:
        json_format.ParseDict(data, message)
    except json_format.ParseError:
        return str(local.value), "refused by the parser"
    with pytest.raises(ServiceError) as served:
        read_position(message)
    return str(local.value), str(served.value)


def test_misspelt_and_ill_typed_fields_are_named(tmp_path: pathlib.Path) -> None:
    data = to_position(get_game("puerto-rico").new_game(3, seed=1))
    data["puerto_rico"]["players"][1]["dubloons"] = 3
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PositionError, match=r"^puerto_rico\.players\[1\]\.dubloons: unknown field"):
        read_json(str(path))
    del data["puerto_rico"]["players"][1]["dubloons"]
    data["puerto_rico"]["players"][2]["goods"] = {"corn": 1.5}
    path.write_text(json.dumps(data))
    with pytest.raises(PositionError, match=r"^puerto_rico\.players\[2\]\.goods\.corn: .*1\.5"):
        read_json(str(path))


@pytest.mark.parametrize("where,field", [("players", "forests"), ("progress", "privilege_left"),
                                         ("building_supply", "church"), ("", "new_buildings")])
def test_a_base_game_refuses_expansion_fields(tmp_path: pathlib.Path, where: str, field: str) -> None:
    data = to_position(get_game("puerto-rico").new_game(3, seed=1))
    state = data["puerto_rico"]
    part = state["players"][1] if where == "players" else state[where] if where else state
    part[field] = {"forest_supply": 12, "violet_buildings": []} if field == "new_buildings" else 0
    local, served = _verdicts(tmp_path, data)
    path = f"{where}[1].{field}" if where == "players" else f"{where}.{field}" if where else field
    assert local.startswith(f"{path}: only in an Expansion I game")
    assert f"position.puerto_rico.{path}" in served and "only in an Expansion I game" in served


# -------------------------------------------------- positions play keeps accepted
def _plays_accepted(game_id: str, vector: np.ndarray, moves: int, seed: int) -> int:
    """Play up to ``moves`` random moves in C from an accepted vector; every position
    reached must be accepted by the C decoder, and the reference State built from it.
    Returns the moves played."""
    native, engine = NativeGame(game_id), get_game(game_id)
    buf, rng = native.decode(vector), seed
    played = 0
    while played < moves and native.current_player(buf) >= 0:
        action, rng = native.rollout_move(buf, rng, 1)
        rng = native.apply(buf, action, rng)
        native.decode(native.encode(buf))
        engine.decode(native.encode(buf))
        played += 1
    return played


def test_role_card_doubloons_stay_within_the_limit() -> None:
    """Taking a role card of 768 doubloons with 256 in hand: 1,000 (gains past LIMIT are lost)."""
    game = get_game("puerto-rico")
    state = game.new_game(4, seed=2)
    role = state.role_doubloons.index(0)
    v = state.encode()
    v[pr_schema.V1.index(f"roles[{role}].doubloons")] = 768
    v[pr_schema.V1.index(f"players[{state.current}].doubloons")] = 256
    take = game.Move.parse(f"role:{ROLES[role]}")
    after = accept(game, v).state().apply(take, Rng(1))
    assert max(p.doubloons for p in after.players) == pr_schema.LIMIT
    accept(game, after.encode())
    native = NativeGame("puerto-rico")
    buf = native.decode(v)
    native.apply(buf, take.id, Rng(1).state)
    assert native.encode(buf).tolist() == after.encode().tolist()
    assert _plays_accepted("puerto-rico", v, 400, 3) > 0


@pytest.mark.parametrize(("players", "options"), [(4, {}), (3, {"expansion": "new-buildings"})])
def test_doubloons_at_the_limit_agree_move_by_move(players: int, options: dict[str, str]) -> None:
    """Every player and role card a few doubloons below LIMIT: the C engine caps each gain
    where it is made, the reference after each move; both give the same positions."""
    game, native = get_game("puerto-rico"), NativeGame("puerto-rico")
    state = game.new_game(players, seed=5, **options)
    v = state.encode()
    layout = pr_schema.V2 if options else pr_schema.V1
    for p in range(players):
        v[layout.index(f"players[{p}].doubloons")] = pr_schema.LIMIT - 2
    for r, doubloons in enumerate(state.role_doubloons):
        if doubloons >= 0:
            v[layout.index(f"roles[{r}].doubloons")] = pr_schema.LIMIT - 1
    state, buf, rng, choose, capped = game.decode(v), native.decode(v), Rng(7), Rng(8), 0
    for _ in range(400):
        if state.is_terminal:
            break
        legal = state.legal_action_ids()
        move = legal[choose.below(len(legal))]
        after = native.apply(buf, move, rng.state)
        state = state.apply(state.move_from_id(move), rng)
        assert native.encode(buf).tolist() == state.encode().tolist() and after == rng.state
        capped += any(p.doubloons == pr_schema.LIMIT for p in state.players)
    assert capped > 0


def test_castles_of_burgundy_refuses_a_phase_its_hidden_goods_cannot_fill() -> None:
    game = get_game("castles-of-burgundy")
    state, rng = game.new_game(2, seed=4), Rng(4)
    while state.phase < 4:
        state = state.apply(state.legal_moves()[rng.below(len(state.legal_moves()))], rng)
    v = state.encode()
    v[cob_schema.V1.index("phase")] = 0
    with pytest.raises(PositionError, match=r"^hidden\.goods\[0\]: \d+ goods tiles hidden, the phases to come show 20"):
        accept(game, v)
    with pytest.raises(NativeDecodeError) as e:
        NativeGame("castles-of-burgundy").decode(v)
    assert e.value.index == cob_schema.V1.index("hidden.goods[0]")


@pytest.mark.parametrize("game_id,options", [("puerto-rico", {}), ("puerto-rico", {"expansion": "new-buildings"}),
                                             ("castles-of-burgundy", {})])
def test_every_position_play_reaches_is_accepted(game_id: str, options: dict[str, str]) -> None:
    game = get_game(game_id)
    for players in game.PLAYER_COUNTS:
        start = game.new_game(players, seed=players, **options).encode()
        assert _plays_accepted(game_id, start, 100_000, players) > 50


def test_games_register_themselves_in_both_languages() -> None:
    """A package under engine/ with a GAME_ID is a game; its schema's C_GAME is its C engine."""
    from meeplemind.engine.game import Game

    for game_id in game_ids():
        game = get_game(game_id)
        for name in Game.__annotations__:
            assert hasattr(game, name), (game_id, name)
        for name in ("new_game", "schema_of", "decode", "layout_for"):
            assert callable(getattr(game, name)), (game_id, name)
        assert NativeGame(game_id).vector_len == max(s.length for s in game.SCHEMAS)


# ------------------------------------------------------------ writing a message
@pytest.mark.parametrize("game_id,options", [(g, o) for g in game_ids() for o in get_game(g).VARIANTS])
def test_write_inverts_read_on_played_positions(game_id: str, options: dict[str, str]) -> None:
    game = get_game(game_id)
    for players in game.PLAYER_COUNTS:
        state, rng = game.new_game(players, seed=players, **options), Rng(players)
        for step in range(60):
            for seen in [state, *(state.observation(p) for p in range(players))]:
                vector = seen.encode().tolist()
                schema = next(s for s in game.SCHEMAS if s.version == vector[0])
                message = vector_codec.write(schema, vector)
                assert vector_codec.read(schema, message) == vector
                assert vector_codec.write(schema, vector_codec.read(schema, message)) == message
            if state.is_terminal:
                break
            state = state.apply(state.legal_moves()[rng.below(len(state.legal_moves()))], rng)


def test_written_lists_and_maps_print_as_positions_do() -> None:
    cob = get_game("castles-of-burgundy").new_game(2, seed=1)
    data = json_format.MessageToDict(vector_codec.write(cob_schema.V1, cob.encode()),
                                     preserving_proto_field_name=True, always_print_fields_with_no_presence=True)
    assert len(data["black_depot"]) == 8 and all(len(d["tiles"]) == 4 for d in data["depots"])  # every slot
    assert len(data["turn_order"]) == 2 and len(data["players"]) == 2  # the seats of the game
    assert all("" not in p["storage"] for p in data["players"])  # packed
    assert all(tile for p in data["players"] for tile in p["estate"].values())  # only the tiles laid
    base = vector_codec.write(pr_schema.V1, get_game("puerto-rico").new_game(3, seed=1).encode())
    assert not base.options.HasField("expansion") and not base.HasField("new_buildings")
    assert [r.role for r in base.roles] == list(ROLES[:6])
    expansion = get_game("puerto-rico").new_game(3, seed=1, expansion="new-buildings")
    written = vector_codec.write(pr_schema.V2, expansion.encode())
    assert written.options.expansion == "new-buildings" and written.HasField("new_buildings")
