"""The games' fixed facts the page draws with, read from the engines' own tables (served as
``/facts.json``): nothing about a board is written twice."""

from __future__ import annotations

import functools
from typing import Any

from ..engine.castles_of_burgundy import board as cob_board, data as cob_data
from ..engine.puerto_rico import data as pr_data
from ..engine.traders_of_genoa import board as tog_board, data as tog_data


def _puerto_rico() -> dict[str, Any]:
    return {
        "goods": list(pr_data.GOODS),
        "prices": list(pr_data.PRICES),
        "island_spaces": pr_data.ISLAND_SPACES,
        "city_spaces": pr_data.CITY_SPACES,
        "buildings": [{"name": b.name, "cost": b.cost, "vp": b.vp, "circles": b.circles, "spaces": b.spaces,
                       "good": None if b.good is None else pr_data.GOODS[b.good],
                       "expansion": i >= pr_data.NUM_BASE_BUILDINGS}
                      for i, b in enumerate(pr_data.BUILDINGS)],
    }


def _castles_of_burgundy() -> dict[str, Any]:
    colours = cob_data.COLOURS
    return {
        "colours": list(colours),
        "cells": [{"space": c + 1, "q": q, "r": r, "colour": colours[cob_board.CELL_COLOUR[c]],
                   "die": cob_board.CELL_DIE[c]} for c, (q, r) in enumerate(cob_board.CELL_AXIAL)],
        "depot_layout": [[colours[k] for k in depot] for depot in cob_data.DEPOT_LAYOUT],
        "tile_colours": {name: colours[cob_data.TILE_COLOUR[t]] for t, name in enumerate(cob_data.TILE_NAMES)},
        "phases": cob_data.PHASE_NAMES,
    }


def _traders_of_genoa() -> dict[str, Any]:
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


@functools.cache
def facts() -> dict[str, Any]:
    """Per game id: what the page needs besides a position to draw it."""
    return {"puerto-rico": _puerto_rico(), "castles-of-burgundy": _castles_of_burgundy(),
            "traders-of-genoa": _traders_of_genoa()}
