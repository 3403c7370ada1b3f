"""A compact human-readable view of a Traders of Genoa position (CLI logs, debugging).

The board is drawn from ``data.BOARD`` (two letters per square, ``..`` street, ``MK``
market) with the tower's discs as ``*1``..``*5`` in path order; then the turn, the offers
and every player's money, goods, special cards, markers and hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..seats import seat_name, seat_tag
from .board import SIDE, square_name
from .data import BOARD, BUILDING_NAMES, DECKS, GOODS, SPECIALS
from .state import STAGES

if TYPE_CHECKING:
    from .state import State


def _counts(names: tuple[str, ...], values: list[int]) -> str:
    return " ".join(f"{names[i]}:{n}" for i, n in enumerate(values) if n) or "-"


def render(s: State) -> str:
    rows = [row.split() for row in BOARD]
    for i, square in enumerate(s.path):
        rows[square // SIDE][square % SIDE] = f"*{i + 1}"
    lines = [" ".join(row) for row in rows]
    site = BUILDING_NAMES[s.site] if s.site >= 0 else "-"
    to_move = seat_name(s.to_move) if s.to_move >= 0 else "-"
    lines.append(f"round {s.round} owner {seat_name(s.owner)} stage {STAGES[s.stage]} to move {to_move} site {site} "
                 f"path {' '.join(square_name(q) for q in s.path) or '-'}")
    offers = [f"{seat_tag(q)} {s.offer_notation(q).removeprefix('offer:') or 0}"
              for q in range(s.num_players) if s.offer_ducats[q] >= 0]
    if offers:
        lines.append("offers " + ", ".join(offers))
    for q, p in enumerate(s.players):
        owned = [BUILDING_NAMES[b] for b in range(len(BUILDING_NAMES)) if s.marks[b] >> q & 1]
        lines.append(f"{seat_tag(q)} {p.ducats} ducats | goods {_counts(GOODS, p.goods)} | specials "
                     f"{_counts(SPECIALS, p.specials)} | markers {p.markers} hand, {p.reserve} supply, on "
                     f"{', '.join(owned) or '-'} | cards {_counts(DECKS, p.hand)}")
    return "\n".join(lines)
