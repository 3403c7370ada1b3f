"""A rule-based Puerto Rico player that a casual human would find sensible.

Each legal move gets a score from simple rules (grow production chains, build
what pays, ship and sell what is worth most) and the best one is played, ties
broken by the rng.  It is the arena's baseline, not a search.

Expansion I: it drafts by a fixed preference, takes forests in pairs toward the Forest
House discount, gives up to the Black Market what costs least (San Juan colonists,
cheap barrels, a VP chip last), moves guests where a colonist works, sells to the Trading
Post when the house will not take the barrel, and ships through the Small Wharf the
barrels storage would lose.  Base games score exactly as before.
"""

from __future__ import annotations

from ..rng import Rng
from .data import (
    AQUEDUCT, BLACK_MARKET, BUILDER, BUILDINGS, CAPTAIN, CHURCH, CLOISTER, CORN, CRAFTSMAN,
    FACTORY, FOREST_HOUSE, GUEST_HOUSE, GUILD_HALL, HARBOR, HOSPICE, LARGE_MARKET, LIBRARY,
    LIGHTHOUSE, MAYOR, NUM_BUILDINGS, PRICES, PROSPECTOR, PROSPECTOR2, RESIDENCE, SETTLER,
    SMALL_MARKET, SMALL_WHARF, SPECIALTY_FACTORY, STATUE, STOREHOUSE, TRADER, TRADING_POST,
    UNION_HALL, UNIVERSITY, WHARF,
)
from .moves import GIVE_VP, NUM_SLOTS, SLOT_BUILDING, SLOT_QUARRY, SLOT_SAN_JUAN, Move
from .expansion import ExpansionState
from .state import NK, Player, State

#: Extra value of violet buildings beyond their VP (how much they tend to earn).
_VIOLET_BONUS = {SMALL_MARKET: 1.5, LARGE_MARKET: 2.0, FACTORY: 3.0, HARBOR: 2.5, WHARF: 2.5,
                 AQUEDUCT: 1.0, FOREST_HOUSE: 1.0, BLACK_MARKET: 0.8, STOREHOUSE: 1.2,
                 GUEST_HOUSE: 1.2, TRADING_POST: 1.8, CHURCH: 1.5, SMALL_WHARF: 1.5,
                 LIGHTHOUSE: 2.0, SPECIALTY_FACTORY: 2.0, LIBRARY: 3.0, UNION_HALL: 2.0,
                 CLOISTER: 1.5, STATUE: 0.0}
#: Draft preference (higher first): what tends to win games with the expansion.
_DRAFT_VALUE = {LIBRARY: 9, FACTORY: 8, HARBOR: 8, GUILD_HALL: 8, RESIDENCE: 7, WHARF: 7,
                LARGE_MARKET: 7, HOSPICE: 6, UNIVERSITY: 6, LIGHTHOUSE: 6, UNION_HALL: 6,
                SPECIALTY_FACTORY: 6, TRADING_POST: 6, CHURCH: 5, STATUE: 5, GUEST_HOUSE: 4}


def choose_move(state: State, rng: Rng) -> Move:
    moves: list[Move] = state.legal_moves()
    if state.phase == 2:  # mayor: follow the best whole allocation, lowest slot first
        return _mayor_move(state, moves)
    can_load = any(m.kind == "load" for m in moves)
    scored = [(_score(state, m, can_load) - m.declined, rng.next64(), m) for m in moves]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def _score(s: State, m: Move, can_load: bool) -> float:
    p = s.players[s.current]
    k = m.kind
    if k == "role":
        return _role_value(s, p, m.arg)
    if k == "settle":
        return 2.0 + PRICES[m.arg] * 0.8 + (1.5 if _free_building_circles(p, m.arg) else 0.0)
    if k == "quarry":
        return 4.0 - p.quarries
    if k == "hacienda":
        return 3.0 if sum(p.plantations) + p.quarries <= 9 else 0.0
    if k == "build":
        return _building_value(s, p, m.arg)
    if k in ("craft", "sell"):
        return 1.0 + PRICES[m.arg]
    if k == "load":
        return 1.0 + min(p.goods[m.arg], m.capacity) + 0.1 * PRICES[m.arg]
    if k == "wharf":
        return 0.5 + p.goods[m.arg] - (1.5 if can_load else 0)
    if k in ("store", "keep"):
        return p.goods[m.arg] * (1 + PRICES[m.arg]) if k == "store" else 1.0 + PRICES[m.arg]
    if k in _EXPANSION_SCORES:
        assert isinstance(s, ExpansionState)
        return _EXPANSION_SCORES[k](s, p, m, can_load)
    return 0.5  # pass


def _forest_value(p: Player) -> float:
    """A forest is worth most when it completes a pair (one more doubloon off every build)."""
    return 2.2 + (1.2 if p.forests % 2 else 0.3)


def _hacienda_tile_value(s: ExpansionState, p: Player, m: Move, can_load: bool) -> float:
    tile = s.hacienda_tile
    if m.arg:  # forest
        return _forest_value(p)
    return 2.0 + PRICES[tile] * 0.8 + (1.5 if _free_building_circles(p, tile) else 0.0)


def _give_value(s: ExpansionState, p: Player, m: Move, can_load: bool) -> float:
    """Black Market give-ups: the cheaper the loss, the higher the score."""
    if m.kind == "give_colonist":
        if m.arg == SLOT_SAN_JUAN:
            return 3.0
        return 1.5 if m.arg < SLOT_BUILDING else 1.0
    return 0.3 if m.arg == GIVE_VP else 2.5 - PRICES[m.arg] * 0.5


def _guest_value(s: ExpansionState, p: Player, m: Move, can_load: bool) -> float:
    filled = [p.slot_filled(x) for x in range(NUM_SLOTS)]
    return _slot_value(p, filled, m.arg)


def _post_value(s: ExpansionState, p: Player, m: Move, can_load: bool) -> float:
    return 0.9 + PRICES[m.arg]  # a little below a sale to the house (markets pay there)


def _small_wharf_value(s: ExpansionState, p: Player, m: Move, can_load: bool) -> float:
    """Ship the barrels storage would throw away; start only when no cargo ship takes a load."""
    if s.wharf_barrels:
        return 1.0 if sum(p.goods) > 4 or p.goods[m.arg] > 1 else 0.3
    return 0.5 + sum(p.goods) // 2 * 0.6 - (2.0 if can_load else 0.0)


_EXPANSION_SCORES = {
    "draft": lambda s, p, m, c: float(_DRAFT_VALUE.get(m.arg, BUILDINGS[m.arg].vp)),
    "forest": lambda s, p, m, c: _forest_value(p),
    "hacienda_tile": _hacienda_tile_value, "give": _give_value, "give_colonist": _give_value,
    "guest": _guest_value, "post": _post_value, "small_wharf": _small_wharf_value,
}


def _role_value(s: State, p: Player, r: int) -> float:
    value = float(s.role_doubloons[r])
    production = p.production()
    if r == SETTLER:
        value += 1.5 if sum(p.plantations) + p.quarries < 12 else -2
    elif r == MAYOR:
        value += 1.0 + 0.3 * s.colonist_ship
    elif r == BUILDER:
        best = max((_building_value(s, p, b) for b in range(NUM_BUILDINGS)
                    if s.building_supply[b] and not p.owns(b)
                    and s._price(s.current, b) - 1 <= p.doubloons), default=0.0)
        value += best * 0.6
    elif r == CRAFTSMAN:
        value += 0.8 * sum(production) + 0.4 * max(PRICES[k] for k in range(NK)) * (sum(production) > 0)
    elif r == TRADER:
        value += max((PRICES[k] + 1 for k in range(NK) if p.goods[k] and s.house[k] == 0), default=-1)
    elif r == CAPTAIN:
        value += 0.8 * sum(p.goods) - 0.5
    elif r in (PROSPECTOR, PROSPECTOR2):
        value += 1.0
    return value


def _free_building_circles(p: Player, kind: int) -> int:
    if kind == CORN:
        return 0
    circles = sum(BUILDINGS[b].circles for b in range(NUM_BUILDINGS)
                  if p.owns(b) and BUILDINGS[b].good == kind)
    return max(0, circles - p.plantations[kind])


def _building_value(s: State, p: Player, b: int) -> float:
    spec = BUILDINGS[b]
    value = float(spec.vp)
    if spec.good is not None:
        value += 1.0 + min(p.plantations[spec.good], spec.circles) * 0.8
        if any(p.owns(x) and BUILDINGS[x].good == spec.good for x in range(NUM_BUILDINGS)):
            value -= 1.5
    else:
        value += _VIOLET_BONUS.get(b, 0.5)
    return value


def _mayor_move(s: State, moves: list[Move]) -> Move:
    """The lowest slot of a greedy allocation of the colonists still to place."""
    p = s.players[s.current]
    filled = [p.slot_filled(x) for x in range(NUM_SLOTS)]
    free = [p.slot_capacity(x) - filled[x] if x >= s.last_slot else 0 for x in range(NUM_SLOTS)]
    chosen: list[int] = []
    for _ in range(s.to_place):
        best = max((x for x in range(NUM_SLOTS) if free[x] > 0),
                   key=lambda x: (_slot_value(p, filled, x), -x))
        free[best] -= 1
        filled[best] += 1
        chosen.append(best)
    target = min(chosen)
    return next(m for m in moves if m.arg == target)


def _slot_value(p: Player, filled: list[int], slot: int) -> float:
    if slot == CORN:
        return 2.0
    if slot < NK:  # pays only if a building circle of the kind is staffed
        circles = sum(filled[SLOT_BUILDING + b] for b in range(NUM_BUILDINGS) if BUILDINGS[b].good == slot)
        return 2.0 + PRICES[slot] if filled[slot] < circles else 0.8
    if slot == SLOT_QUARRY:
        return 1.6
    b = slot - SLOT_BUILDING
    good = BUILDINGS[b].good
    if good is None:
        return 1.5 if b == GUEST_HOUSE else 3.0 + BUILDINGS[b].spaces
    staffed = sum(filled[SLOT_BUILDING + x] for x in range(NUM_BUILDINGS) if BUILDINGS[x].good == good)
    return 2.0 + PRICES[good] if staffed < filled[good] else 1.0
