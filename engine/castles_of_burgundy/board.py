"""Estate board No. 1 (rules §12; ``castles_of_burgundy_board1.json``) and what follows from it.

Cells are listed by printed number (cell ``c`` is space ``c + 1``) with axial hex
coordinates (q, r), colour and die number.  Neighbours are the six axial directions;
regions are the maximal groups of connected cells of one colour.
"""

from __future__ import annotations

from .data import ANIMAL, BUILDING, CASTLE, KNOWLEDGE, MINE, NUM_COLOURS, SHIP

_CELLS = (
    (0, -3, ANIMAL, 6),  # 1
    (1, -3, CASTLE, 5),  # 2
    (2, -3, CASTLE, 4),  # 3
    (3, -3, KNOWLEDGE, 3),  # 4
    (-1, -2, ANIMAL, 2),  # 5
    (0, -2, ANIMAL, 1),  # 6
    (1, -2, CASTLE, 6),  # 7
    (2, -2, KNOWLEDGE, 5),  # 8
    (3, -2, BUILDING, 4),  # 9
    (-2, -1, ANIMAL, 5),  # 10
    (-1, -1, ANIMAL, 4),  # 11
    (0, -1, BUILDING, 3),  # 12
    (1, -1, KNOWLEDGE, 1),  # 13
    (2, -1, BUILDING, 2),  # 14
    (3, -1, BUILDING, 3),  # 15
    (-3, 0, SHIP, 6),  # 16
    (-2, 0, SHIP, 1),  # 17
    (-1, 0, SHIP, 2),  # 18
    (0, 0, CASTLE, 6),  # 19
    (1, 0, SHIP, 5),  # 20
    (2, 0, SHIP, 4),  # 21
    (3, 0, SHIP, 1),  # 22
    (-3, 1, BUILDING, 2),  # 23
    (-2, 1, BUILDING, 5),  # 24
    (-1, 1, MINE, 4),  # 25
    (0, 1, BUILDING, 3),  # 26
    (1, 1, BUILDING, 1),  # 27
    (2, 1, ANIMAL, 2),  # 28
    (-3, 2, BUILDING, 6),  # 29
    (-2, 2, MINE, 1),  # 30
    (-1, 2, KNOWLEDGE, 2),  # 31
    (0, 2, BUILDING, 5),  # 32
    (1, 2, BUILDING, 6),  # 33
    (-3, 3, MINE, 3),  # 34
    (-2, 3, KNOWLEDGE, 4),  # 35
    (-1, 3, KNOWLEDGE, 1),  # 36
    (0, 3, BUILDING, 3),  # 37
)
NUM_CELLS = len(_CELLS)
START_CELL = 18  # space 19: the start castle
CELL_AXIAL = tuple((q, r) for q, r, _, _ in _CELLS)
CELL_COLOUR = tuple(colour for _, _, colour, _ in _CELLS)
CELL_DIE = tuple(die for _, _, _, die in _CELLS)
_AT = {qr: c for c, qr in enumerate(CELL_AXIAL)}
_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
NEIGHBOURS = tuple(tuple(sorted(_AT[(q + dq, r + dr)] for dq, dr in _DIRECTIONS if (q + dq, r + dr) in _AT))
                   for q, r in CELL_AXIAL)


def _regions() -> tuple[tuple[int, ...], ...]:
    seen: set[int] = set()
    regions = []
    for start in range(NUM_CELLS):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            c = todo.pop()
            for n in NEIGHBOURS[c]:
                if n not in group and CELL_COLOUR[n] == CELL_COLOUR[start]:
                    group.add(n)
                    todo.append(n)
        seen |= group
        regions.append(tuple(sorted(group)))
    return tuple(regions)


#: Regions in order of their lowest cell (R01-R13 of the rules).
REGIONS = _regions()
REGION_OF = tuple(next(i for i, g in enumerate(REGIONS) if c in g) for c in range(NUM_CELLS))
#: Cells of every colour.
COLOUR_CELLS = tuple(tuple(c for c in range(NUM_CELLS) if CELL_COLOUR[c] == colour)
                     for colour in range(NUM_COLOURS))
