"""A rule-based Castles of Burgundy player that a casual human would find sensible.

Each legal move gets a score from simple rules (add tiles that complete regions and
colours, keep tiles that fit the estate, ship and sell goods, keep a few workers) and the
best one is played, ties broken by the rng.  It is the arena's baseline and the model of
the C rollout policy, not a search: everything is a table lookup or a short loop.
"""

from __future__ import annotations

from ..rng import Rng
from .board import CELL_COLOUR, COLOUR_CELLS, NEIGHBOURS, REGION_OF, REGIONS
from .data import (
    ANIMAL, BUILDING, CASTLE, DEPOT_PAIRS, KNOWLEDGE, MINE, NUM_DEPOTS, NUM_GOODS, PHASE_BONUS, PHASES,
    REGION_VP, SETUPS, SHIP, T_BANK, T_BOARDING_HOUSE, T_CITY_HALL, T_KNOWLEDGE, T_WAREHOUSE,
    T_WATCHTOWER, TILE_COLOUR, animal_count, animal_type,
)
from .estate import fits
from .moves import Move
from .state import Player, State, move_cost

#: Worth of a tile's effect by colour (buildings and knowledge by kind below).
_COLOUR_VALUE = {CASTLE: 5.0, MINE: 2.0, SHIP: 3.0, BUILDING: 2.5, ANIMAL: 1.0, KNOWLEDGE: 3.0}
_BUILDING_VALUE = {T_WAREHOUSE: 3.0, T_BOARDING_HOUSE: 2.0, T_BANK: 2.0, T_CITY_HALL: 3.5,
                   T_WATCHTOWER: 4.0}
#: Knowledge tiles worth more than the default (by number): rule changers and end-game VP tiles.
_KNOWLEDGE_VALUE = {1: 3.5, 6: 4.0, 7: 4.0, 8: 4.0, 12: 4.0, 14: 4.0, 15: 5.0, 24: 5.0, 25: 4.5, 26: 4.0}
WORKER_VALUE = 1.2  # per worker spent to turn a die


def choose_move(state: State, rng: Rng) -> Move:
    p = state.players[state.current]
    scored = [(_score(state, p, Move.from_id(a)), rng.next64(), a) for a in state.legal_action_ids()]
    return Move.from_id(max(scored)[2])


def _score(s: State, p: Player, m: Move) -> float:
    k = m.kind
    value = -WORKER_VALUE * move_cost(p, m)
    if k == "workers":
        return value + (2.5 if p.workers < 2 else 1.0 if p.workers < 6 else 0.3)
    if k == "sell":
        return value + 1.0 + p.goods[m.arg] * SETUPS[s.num_players].sale_vp
    if k == "take":
        return value + 0.7 * tile_value(s, p, s.depots[m.arg]) - _storage_pressure(s, p)
    if k in ("buy", "buy_black"):
        tile = (s.depots if k == "buy" else s.black)[m.arg]
        return 0.7 * tile_value(s, p, tile) - 2.5 - _storage_pressure(s, p)
    if k == "place":
        tiles = [t for t in set(p.storage) if t >= 0 and fits(p.estate, m.arg, t)]
        return value + max(place_value(s, p, m.arg, t) for t in tiles)
    if k == "tile":
        return place_value(s, p, s.pending_cell, m.arg)
    if k == "discard":
        return -tile_value(s, p, m.arg)
    if k in ("ship", "ship_pair"):
        depots = DEPOT_PAIRS[m.arg] if k == "ship_pair" else (m.arg,)
        return sum(s.depot_goods[d * NUM_GOODS + g] for d in depots for g in range(NUM_GOODS)
                   if p.goods[g] or sum(1 for x in p.goods if x) < 3)
    if k == "goods":
        return sum(s.depot_goods[d * NUM_GOODS + m.arg] for d in range(NUM_DEPOTS) if s.ship_mask >> d & 1)
    return 0.5  # pass


def _storage_pressure(s: State, p: Player) -> float:
    """What a full storage costs: the least valuable stored tile is lost."""
    if p.storage[-1] < 0:
        return 0.0
    return min(tile_value(s, p, t) for t in p.storage)


def tile_value(s: State, p: Player, t: int) -> float:
    """How much holding tile ``t`` is worth: its effect if an empty space takes it, half as
    much while no such space is next to a placed tile."""
    colour = TILE_COLOUR[t]
    cells = [c for c in COLOUR_CELLS[colour] if p.estate[c] < 0 and fits(p.estate, c, t)]
    if not cells:
        return 0.2
    reach = 1.0 if any(p.estate[n] >= 0 for c in cells for n in NEIGHBOURS[c]) else 0.5
    return reach * _effect_value(s, p, t)


def _effect_value(s: State, p: Player, t: int) -> float:
    colour = TILE_COLOUR[t]
    value = 3.0 + _COLOUR_VALUE[colour]
    if colour == MINE:
        value += PHASES - 1 - s.phase
    elif colour == BUILDING:
        value += _BUILDING_VALUE.get(t, 0.0)
    elif colour == KNOWLEDGE:
        value += _KNOWLEDGE_VALUE.get(t - T_KNOWLEDGE + 1, 0.0)
    elif colour == ANIMAL:
        value += animal_count(t) + sum(animal_count(x) for x in p.estate
                                       if x >= 0 and TILE_COLOUR[x] == ANIMAL
                                       and animal_type(x) == animal_type(t))
    return value


def place_value(s: State, p: Player, cell: int, t: int) -> float:
    """What adding ``t`` to ``cell`` is worth now: region and colour completion, the effect."""
    value = _effect_value(s, p, t)
    region = REGIONS[REGION_OF[cell]]
    empty = sum(1 for c in region if p.estate[c] < 0)
    if empty == 1:
        value += REGION_VP[len(region)] + PHASE_BONUS[s.phase]
    else:
        value += (len(region) - empty) * 0.5
    colour = CELL_COLOUR[cell]
    if sum(1 for c in COLOUR_CELLS[colour] if p.estate[c] < 0) == 1:
        taken = sum(1 for q in s.players if q.bonus[colour])
        if taken < 2:
            value += SETUPS[s.num_players].bonus_vp[taken]
    return value
