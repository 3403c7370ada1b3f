"""Rules of one player's estate (rules §6 placement, §7 animals, §9 regions and colours).

Functions of an estate: a list of 37 tile kinds by cell, -1 for an empty space.
"""

from __future__ import annotations

from .board import CELL_COLOUR, COLOUR_CELLS, NEIGHBOURS, NUM_CELLS, REGION_OF, REGIONS
from .data import (
    ANIMAL, BUILDING, K_ANIMAL_BONUS, K_DUPLICATE_BUILDINGS, PHASE_BONUS, REGION_VP, TILE_COLOUR,
    animal_count, animal_type,
)


def fits(estate: list[int], cell: int, tile: int) -> bool:
    """Whether ``tile`` may go onto the empty frontier ``cell`` (colour, one building of each
    kind per city unless knowledge #1)."""
    colour = CELL_COLOUR[cell]
    if TILE_COLOUR[tile] != colour:
        return False
    if colour == BUILDING and K_DUPLICATE_BUILDINGS not in estate:
        return all(estate[c] != tile for c in REGIONS[REGION_OF[cell]])
    return True


def fitting_tiles(estate: list[int], storage: list[int], cell: int) -> list[int]:
    """The distinct stored tile kinds that may go onto ``cell``, ascending."""
    return sorted({t for t in storage if t >= 0 and fits(estate, cell, t)})


def placements(estate: list[int], storage: list[int]) -> list[int]:
    """The cells some stored tile may be added to, ascending."""
    tiles = {t for t in storage if t >= 0}
    colours = {TILE_COLOUR[t] for t in tiles}
    cells = {n for c in range(NUM_CELLS) if estate[c] >= 0 for n in NEIGHBOURS[c]
             if estate[n] < 0 and CELL_COLOUR[n] in colours}
    return sorted(c for c in cells if any(fits(estate, c, t) for t in tiles))


def region_points(estate: list[int], cell: int, phase: int) -> int:
    """VP for the tile just placed on ``cell`` completing its region (0 if it does not)."""
    region = REGIONS[REGION_OF[cell]]
    if any(estate[c] < 0 for c in region):
        return 0
    return REGION_VP[len(region)] + PHASE_BONUS[phase]


def colour_complete(estate: list[int], colour: int) -> bool:
    return all(estate[c] >= 0 for c in COLOUR_CELLS[colour])


def animal_points(estate: list[int], cell: int) -> int:
    """VP of the animal tile just placed on ``cell``: the animals of its type on every tile of
    its pasture (this one included), plus 1 per such tile with knowledge #7."""
    kind = animal_type(estate[cell])
    bonus = 1 if K_ANIMAL_BONUS in estate else 0
    return sum(animal_count(estate[c]) + bonus for c in REGIONS[REGION_OF[cell]]
               if estate[c] >= 0 and TILE_COLOUR[estate[c]] == ANIMAL and animal_type(estate[c]) == kind)


def connected(estate: list[int], start: int) -> bool:
    """Whether every placed tile is joined to ``start`` through placed tiles."""
    seen, todo = {start}, [start]
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if estate[n] >= 0 and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == sum(1 for t in estate if t >= 0)
