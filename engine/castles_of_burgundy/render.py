"""A compact human-readable view of a Castles of Burgundy position (CLI logs).

Estates are drawn as the hexagon of board No. 1, one cell per 4 characters: an empty
space shows its colour letter and die number (``b3``: a building space for a 3), a placed
tile a short name (``Chu`` Church, ``Co3`` three cows, ``K12`` knowledge #12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..seats import seat_name, seat_tag
from .board import CELL_AXIAL, CELL_COLOUR, CELL_DIE, NUM_CELLS
from .data import (
    ANIMAL, BLACK_SLOTS, DEPOT_SLOTS, KNOWLEDGE, NUM_DEPOTS, NUM_GOODS, PHASE_NAMES, TILE_COLOUR,
    TILE_NAMES, T_KNOWLEDGE, animal_count,
)

if TYPE_CHECKING:
    from .state import Player, State

_COLOUR_LETTER = "cmsbak"  # castle mine ship building animal knowledge
_SHORT = {"castle": "Cas", "mine": "Min", "ship": "Shp", "warehouse": "War", "carpenter": "Car",
          "church": "Chu", "market": "Mkt", "boarding_house": "Brd", "bank": "Bnk",
          "city_hall": "CtH", "watchtower": "Wtc"}


def short(t: int) -> str:
    """A 3-character name of tile kind ``t`` ('---' for none)."""
    if t < 0:
        return "---"
    if TILE_COLOUR[t] == KNOWLEDGE:
        return f"K{t - T_KNOWLEDGE + 1:02d}"
    if TILE_COLOUR[t] == ANIMAL:
        return f"{TILE_NAMES[t][:2].title()}{animal_count(t)}"
    return _SHORT[TILE_NAMES[t]]


def _goods(counts: list[int]) -> str:
    return " ".join(f"{g + 1}x{n}" for g, n in enumerate(counts) if n) or "-"


def estate_lines(p: Player) -> list[str]:
    rows: dict[int, list[tuple[int, str]]] = {}
    for c in range(NUM_CELLS):
        q, r = CELL_AXIAL[c]
        t = p.estate[c]
        text = short(t) if t >= 0 else f"{_COLOUR_LETTER[CELL_COLOUR[c]]}{CELL_DIE[c]} "
        rows.setdefault(r, []).append((q, text))
    lines = []
    for r in sorted(rows):
        cells = [text for _, text in sorted(rows[r])]
        lines.append("  " * abs(r) + " ".join(cells))
    return lines


def render(s: State) -> str:
    from .state import STAGES

    head = (f"phase {PHASE_NAMES[s.phase]} round {s.round + 1}, stage {STAGES[s.stage]}"
            + ("" if s.is_terminal else f", {seat_name(s.current)} to move")
            + f"; turn order {' '.join(map(seat_tag, s.ranking))}")
    lines = [head]
    for d in range(NUM_DEPOTS):
        tiles = " ".join(short(t) for t in s.depots[d * DEPOT_SLOTS:(d + 1) * DEPOT_SLOTS])
        lines.append(f"  depot {d + 1}: {tiles} | goods {_goods(s.depot_goods[d * NUM_GOODS:(d + 1) * NUM_GOODS])}")
    lines.append("  black: " + " ".join(short(t) for t in s.black[:BLACK_SLOTS]))
    lines.append("  round goods: " + " ".join(str(g + 1) if g >= 0 else "-" for g in s.round_goods)
                 + f"; hidden goods {sum(s.goods_pool)}, tiles {sum(s.stack)} + black {sum(s.black_stack)}")
    for i, p in enumerate(s.players):
        dice = " ".join(str(d) for d in p.dice if d) or "-"
        lines.append(f"{seat_tag(i)}: {p.vp} VP, {p.silverlings} silverlings, {p.workers} workers, dice {dice}, "
                     f"goods {_goods(p.goods)}, sold {_goods(p.sold)}, "
                     f"storage {' '.join(short(t) for t in p.storage if t >= 0) or '-'}")
        lines += ["    " + line for line in estate_lines(p)]
    return "\n".join(lines)
