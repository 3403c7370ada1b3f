"""The board geometry derived from ``data.BOARD``: squares, buildings, neighbours.

Square ``s`` is row ``s // 8`` and column ``s % 8`` (0-based; printed ``r.c`` 1-based,
red die = row, blue die = column).  Everything here is computed once from the layout.
"""

from __future__ import annotations

from .data import BOARD, BOARD_CODES, DIE_SIDES, MARKET, NUM_BUILDINGS, STREET

SIDE = DIE_SIDES
NUM_SQUARES = SIDE * SIDE
#: Directions of a tower move: north (row - 1), east, south, west.
DIRECTIONS = ("n", "e", "s", "w")
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _squares() -> tuple[int, ...]:
    out = []
    for row in BOARD:
        for code in row.split():
            out.append(STREET if code == ".." else MARKET if code == "MK" else BOARD_CODES[code])
    assert len(out) == NUM_SQUARES
    return tuple(out)


#: What every square is: a building id, STREET or MARKET.
SQUARE = _squares()


def step(square: int, direction: int) -> int:
    """The square one step from ``square`` in ``direction``, or -1 off the board."""
    r, c = divmod(square, SIDE)
    dr, dc = _STEPS[direction]
    r, c = r + dr, c + dc
    return r * SIDE + c if 0 <= r < SIDE and 0 <= c < SIDE else -1


#: Orthogonal neighbour squares of every square, by direction (-1: off the board).
NEIGHBOUR = tuple(tuple(step(s, d) for d in range(4)) for s in range(NUM_SQUARES))
BUILDING_SQUARES = tuple(tuple(s for s in range(NUM_SQUARES) if SQUARE[s] == b) for b in range(NUM_BUILDINGS))
#: Buildings orthogonally next to each street square (ascending), where markers go from it.
STREET_BUILDINGS = {s: tuple(sorted({SQUARE[n] for n in NEIGHBOUR[s] if n >= 0 and SQUARE[n] >= 0}))
                    for s in range(NUM_SQUARES) if SQUARE[s] == STREET}
#: Buildings sharing an edge with each building (privileges pay by connected groups).
ADJACENT = tuple(
    frozenset(SQUARE[n] for s in BUILDING_SQUARES[b] for n in NEIGHBOUR[s]
              if n >= 0 and SQUARE[n] >= 0 and SQUARE[n] != b)
    for b in range(NUM_BUILDINGS))


def square_name(square: int) -> str:
    r, c = divmod(square, SIDE)
    return f"{r + 1}.{c + 1}"


def group_size(owned: int, building: int) -> int:
    """The size of the connected group of buildings in the bitmask ``owned`` that holds
    ``building`` (0 when it is not owned)."""
    if not owned >> building & 1:
        return 0
    seen, todo = 1 << building, [building]
    while todo:
        for nb in ADJACENT[todo.pop()]:
            if owned >> nb & 1 and not seen >> nb & 1:
                seen |= 1 << nb
                todo.append(nb)
    return bin(seen).count("1")
