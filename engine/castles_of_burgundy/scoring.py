"""Final scoring (rules §10) and the tie-break."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import (
    ANIMALS, BONUS_TILE_VP, K_ANIMAL_TYPES, K_BONUS_TILES, K_BUILDING_VP, K_SOLD_COLOURS, K_SOLD_TILES,
    KNOWLEDGE_END_VP, PLAYER_COUNTS, SOLD_COLOUR_VP, T_ANIMAL, animal_type,
)

if TYPE_CHECKING:
    from .state import Player


def end_points(p: Player) -> int:
    """VP scored at the end: 1 per unsold goods tile and per silverling, 1 per 2 workers,
    and the knowledge tiles #15-#26."""
    estate = p.estate
    points = sum(p.goods) + p.silverlings + p.workers // 2
    if K_SOLD_COLOURS in estate:
        points += SOLD_COLOUR_VP * sum(1 for n in p.sold if n)
    for k, building in K_BUILDING_VP.items():
        if k in estate:
            points += KNOWLEDGE_END_VP * estate.count(building)
    if K_ANIMAL_TYPES in estate:
        types = {animal_type(t) for t in estate if T_ANIMAL <= t < T_ANIMAL + 3 * len(ANIMALS)}
        points += KNOWLEDGE_END_VP * len(types)
    if K_SOLD_TILES in estate:
        points += sum(p.sold)
    if K_BONUS_TILES in estate:
        points += BONUS_TILE_VP * sum(1 for b in p.bonus if b)
    return points


def final_score(p: Player) -> int:
    return p.vp + end_points(p)


def empty_spaces(p: Player) -> int:
    return sum(1 for t in p.estate if t < 0)


#: Places on the turn-order track: the tie-break's second key is below this.
_TRACK = max(PLAYER_COUNTS)


def tiebreak(p: Player, track_position: int) -> int:
    """The tie-break as one number, higher is better: fewer empty estate spaces, then
    further back on the turn-order track (``track_position`` 0 is the front)."""
    return -_TRACK * empty_spaces(p) + track_position
