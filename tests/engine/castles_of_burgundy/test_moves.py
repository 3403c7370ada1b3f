"""Move notation and action ids."""

from __future__ import annotations

import pytest

from meeplemind.engine import InvalidMoveError
from meeplemind.engine.castles_of_burgundy import NUM_ACTIONS, Move
from meeplemind.engine.castles_of_burgundy.moves import (
    A_BUY, A_BUY_BLACK, A_DISCARD, A_GOODS, A_PLACE, A_SELL, A_SHIP, A_SHIP_PAIR, A_TAKE, A_TILE,
    A_WORKERS,
)

EXAMPLES = {
    "pass": 0, "workers": A_WORKERS, "workers@6": A_WORKERS + 6, "sell:4": A_SELL + 3,
    "sell:4@4": A_SELL + 4 * 6 + 3, "take:3.2": A_TAKE + 9, "take:3.2@5": A_TAKE + 5 * 24 + 9,
    "place:17": A_PLACE + 16, "place:17@1": A_PLACE + 37 + 16, "tile:church": A_TILE + 5,
    "discard:knowledge26": A_DISCARD + 48, "buy:black3": A_BUY_BLACK + 2, "buy:6.4": A_BUY + 23,
    "ship:4": A_SHIP + 3, "ship:1+2": A_SHIP_PAIR, "ship:1+6": A_SHIP_PAIR + 5, "goods:6": A_GOODS + 5,
}


def test_notation_examples_and_their_ids() -> None:
    for text, action in EXAMPLES.items():
        m = Move.parse(text)
        assert str(m) == text and m.id == action and Move.from_id(action) == m
    assert A_GOODS + 5 == NUM_ACTIONS - 1 == 624


@pytest.mark.parametrize("text", ["", "take", "take:7.1@2", "take:3.5", "take:3@2", "place:0", "place:38",
                                  "place:017", "ship:1+3", "ship:6+1", "buy:black9", "buy:black",
                                  "workers@7", "pass@1", "sell:3@", "sell:7", "tile:dragon", "tile:k4",
                                  "discard:", "goods:0", "buy:3.2@4", "tile:church@2", "role:builder"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)
