"""JSON positions and the state vector: round trips and errors that name the field."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

from meeplemind.engine import PositionError
from meeplemind.engine.castles_of_burgundy import LAYOUT, VECTOR_LEN, State, decode, new_game

from .helpers import check, fresh, give, put


def base() -> dict[str, Any]:
    s = fresh(3, seed=2)
    put(s, 0, {18: "ship", 12: "bank"})
    give(s, 1, "k4")
    s.ranking = [0, 1, 2]
    return check(s).to_dict()


def reject(data: dict[str, Any], path: str, problem: str = "") -> None:
    with pytest.raises(PositionError) as e:
        State.from_dict(data)
    assert e.value.path == path and problem in e.value.problem, str(e.value)
    assert str(e.value).startswith(path + ": ")


def test_round_trip_and_json_is_plain() -> None:
    s = new_game(4, 9)
    data = s.to_dict()
    assert State.from_dict(json.loads(json.dumps(data))) == s
    assert data["phase"] == "A" and data["round"] == 1 and data["players"][0]["estate"] == {"19": "castle"}
    assert decode(s.encode()) == s and s.encode().dtype == np.int32 and s.encode().shape == (VECTOR_LEN,)


@pytest.mark.parametrize("change, path, problem", [
    (lambda d: d["players"][1].__setitem__("workers", -1), "players[1].workers", "-1 is below 0"),
    (lambda d: d["players"][0]["estate"].__setitem__("17", "castle"), "players[0].estate[17]",
     "a castle tile on a ship space"),
    (lambda d: d["players"][0]["estate"].__setitem__("38", "ship"), "players[0].estate[38]",
     "unknown key"),
    (lambda d: d["players"][0]["estate"].__setitem__("16", "ship"), "players[0].estate[1]",
     "joined to the start castle"),
    (lambda d: d["players"][0]["estate"].pop("19"), "players[0].estate[19]", "start castle"),
    (lambda d: d["players"][2]["storage"].append("dragon"), "players[2].storage[0]", "'dragon' is not one of"),
    (lambda d: d["players"][1]["storage"].append("knowledge4"), "hidden.tiles.knowledge4",
     "2 knowledge4 tiles in play, the game has 1"),
    (lambda d: d["players"][0]["goods"].__setitem__(2, 1), "hidden.goods[2]",
     "8 goods 3 tiles in play, the game has 7"),
    (lambda d: d["players"][0]["goods"].__setitem__(2, "x"), "players[0].goods", "'x'"),
    (lambda d: d.__setitem__("turn_order", [1, 0, 2]), "turn_order[1]", "ordered by ships"),
    (lambda d: d.__setitem__("turn_order", [0, 0, 2]), "turn_order[1]", "appears twice"),
    (lambda d: d.__setitem__("phase", "F"), "phase", "'F' is not one of"),
    (lambda d: d.__setitem__("stage", "tile"), "pending.cell", "must be set at this stage"),
    (lambda d: (d["pending"].__setitem__("tile", "mine"), d["hidden"]["tiles"].__setitem__(
        "mine", d["hidden"]["tiles"]["mine"] - 1)), "pending.tile", "must be -1 at this stage"),
    (lambda d: d.__setitem__("colour", 1), "colour", "unknown field"),
    (lambda d: d["players"][1]["bonus_tiles"].__setitem__("mine", "first"), "players[1].bonus_tiles.mine",
     "every space of its colour filled"),
    (lambda d: d["depots"][0]["tiles"].__setitem__(3, "mine"), "depots[0].tiles[3]", "is above -1"),
    (lambda d: d["depots"][0]["tiles"].__setitem__(0, "mine"), "depots[0].tiles[0]",
     "a mine tile on a building space"),
    (lambda d: d["black_depot"].__setitem__(0, "knowledge1"), "black_depot[0]",
     "no knowledge1 tile has a black back"),
    (lambda d: d["round_goods"].__setitem__(1, 0), "round_goods[1]", "later round"),
    (lambda d: d.__setitem__("current_player", 2), "current_player", "player 0 is to move, not 2"),
    (lambda d: d["players"][2].__setitem__("dice", [0, 3]), "players[2].dice[0]", "still to move"),
    (lambda d: d.__setitem__("players", d["players"][:1]), "players", "1 players is not supported"),
])
def test_errors_name_the_field(change, path: str, problem: str) -> None:  # type: ignore[no-untyped-def]
    data = base()
    change(data)
    reject(data, path, problem)


def test_two_buildings_of_a_kind_in_a_city_need_knowledge_1() -> None:
    s = fresh(2)
    put(s, 0, {26: "bank", 27: "bank"})
    reject(s.to_dict(), "players[0].estate[27]", "a second bank in one city needs knowledge #1")
    put(s, 0, {13: "k1"})
    check(s)


def test_a_position_without_a_legal_move_is_rejected() -> None:
    s = fresh(2)
    s.players[0].dice = [0, 0]  # turn over, but no buy possible
    reject(s.to_dict(), "current_player", "no legal move")


def test_vector_errors_name_the_field() -> None:
    v = new_game(2, 1).encode()
    with pytest.raises(PositionError, match=r"^state: vector has 3 entries"):
        decode(v[:3])
    bad = v.copy()
    bad[0] = 2
    with pytest.raises(PositionError, match=r"^version: layout version 2 is not 1"):
        decode(bad)
    bad = v.copy()
    bad[LAYOUT.index("players[2].silverlings")] = 5  # of seat 2 in a 2-player game
    with pytest.raises(PositionError, match=r"^players\[2\]\.silverlings: 5 is above 0 \(seat 2 is not"):
        decode(bad)
    bad = v.copy()
    bad[LAYOUT.index("players[0].estate[19]")] = -1
    with pytest.raises(PositionError, match=r"^players\[0\]\.estate\[19\]: the start castle"):
        decode(bad)


def test_layout_keeps_its_offsets() -> None:
    """Layout version 1 is a wire format: its tables start where they always did."""
    assert LAYOUT[12] == "turn_order[0]" and LAYOUT[20] == "depots[0].tiles[0]"
    assert LAYOUT[44] == "black_depot[0]" and LAYOUT[52] == "depots[0].goods[0]"
    assert LAYOUT[88] == "round_goods[0]" and LAYOUT[93] == "hidden.goods[0]"
    assert LAYOUT[99] == "hidden.tiles.castle" and LAYOUT[148] == "hidden.black_tiles.castle"
    assert LAYOUT[197] == "discarded.castle" and LAYOUT[246] == "players[0].silverlings"
    assert LAYOUT[246 + 26] == "players[0].estate[1]" and LAYOUT[-1] == "players[3].estate[37]"


def test_from_dict_does_not_keep_references_to_its_input() -> None:
    data = base()
    s = State.from_dict(copy.deepcopy(data))
    data["players"][0]["goods"][0] = 99
    assert s.to_dict() == State.from_dict(base()).to_dict()
