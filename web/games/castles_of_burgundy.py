"""The Castles of Burgundy's fixed facts the page draws with (``/facts.json``, web/facts.py),
read from the engine's own tables."""

from __future__ import annotations

from typing import Any

from ...engine.castles_of_burgundy import board as cob_board, data as cob_data


def facts() -> dict[str, Any]:
    """What the page needs besides a position to draw one: the estate's cells, depots, tiles."""
    colours = cob_data.COLOURS
    return {
        "colours": list(colours),
        "cells": [{"space": c + 1, "q": q, "r": r, "colour": colours[cob_board.CELL_COLOUR[c]],
                   "die": cob_board.CELL_DIE[c]} for c, (q, r) in enumerate(cob_board.CELL_AXIAL)],
        "depot_layout": [[colours[k] for k in depot] for depot in cob_data.DEPOT_LAYOUT],
        "tile_colours": {name: colours[cob_data.TILE_COLOUR[t]] for t, name in enumerate(cob_data.TILE_NAMES)},
        "phases": cob_data.PHASE_NAMES,
    }
