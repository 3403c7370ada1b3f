"""Traders of Genoa's fixed facts the page draws with (``/facts.json``, web/facts.py), read
from the engine's own tables."""

from __future__ import annotations

from typing import Any

from ...engine.traders_of_genoa import board as tog_board, data as tog_data


def facts() -> dict[str, Any]:
    """What the page needs besides a position to draw one: the town, goods, decks, cards."""
    names, goods = tog_data.BUILDING_NAMES, tog_data.GOODS
    kind = {tog_data.STREET: "street", tog_data.MARKET: "market"}
    return {
        "side": tog_board.SIDE,
        "squares": [{"square": tog_board.square_name(s), "what": kind.get(b) or names[b]}
                    for s, b in enumerate(tog_board.SQUARE)],
        "goods": list(goods),
        "decks": list(tog_data.DECKS),
        "cards": {  # what each card asks or pays for, by card name
            **{f"large_{i + 1}": f"{', '.join(goods[g] for g in want)} at {names[villa]}"
               for i, (villa, want) in enumerate(tog_data.LARGE_ORDERS)},
            **{f"small_{i + 1}": f"{goods[g]} to {names[b]}" for i, (g, b) in enumerate(tog_data.SMALL_ORDERS)},
            **{f"message_{i + 1}": f"{names[a]} and {names[b]}" for i, (a, b) in enumerate(tog_data.MESSAGES)},
            **{f"privilege_{i + 1}": names[b] for i, b in enumerate(tog_data.PRIVILEGES)},
        },
    }
