"""Puerto Rico states as the int32 state vector (``encode``/``decode``).

A position's message is read into and written from the vector by the generic codec
(``positions/vector_codec.py``) through schema.py; the C decoder checks the
whole position (``positions/check.py``: every range, conservation of every component
against the setup for the player count, phase bookkeeping) and raises ``PositionError``
naming the field path.

State vector, layout version 1 for base games (``VECTOR_LEN`` int32, mirrored by
native/mm_puerto_rico.c, which checks every field on decode)::

    0 version  1 players  2 options (bit 0: university_factory_swap)  3 governor
    4 phase (role settler mayor builder craftsman trader captain storage end = 0..8)
    5 current (-1 at the end)  6 chooser  7 turn  8 picks  9 end_triggered
    10 colonist_supply  11 colonist_ship  12 vp_supply (may be < 0)  13 hacienda_done
    14 to_place  15 last_slot  16 produced (bitmask)  17 captain_loaded  18 store_mask
    19 quarry_supply  20 goods_supply[5]  25 house[5]  30 deck[5]  35 faceup[5]
    40 discard[5]  45 building_supply[23]  68 role_doubloons[8] (-1: card not in play)
    76 role_taken[8]  84 ships[3] x (capacity, kind, count) (absent: 0, -1, 0)
    93 players[5] x 44: doubloons, vp, goods[5], plantations[5], plantation_colonists[5],
       quarries, quarry_colonists, san_juan, wharf_done, buildings[23] (-1: not owned)
       (absent seats: all 0, buildings -1)

Layout version 2 for Expansion I games (``VECTOR_LEN_V2`` = 463 int32): the 20 globals of
v1 with their meaning widened, 19 new globals, then v1's blocks with 37 buildings::

    0..19 as v1, except: 4 phase also draft = 9, guests = 10 (a Guest House window);
       7 turn 0..players (players: the settler's Library tile); 15 last_slot is also the
       lowest slot or kind of the next Guest House move, Small Wharf barrel or Library
       craftsman barrel
    20 new_buildings.forest_supply (0..12)  21 hacienda_tile (-1 none, or the drawn kind waiting)
    22 window (-1, or the phase the Guest House window comes before: 4 6 5 8)
    23 privilege_left (craftsman barrels still to take, 0..2)
    24 black_market.building (-1 or a building id)  25 black_market.due (0..3)
    26 black_market.given (last category given: 0 none, 1 colonist, 2 barrel, 3 vp)
    27 small_wharf_barrels (in the Small Wharf action under way)
    28 made[5] (the craftsman's barrels this phase)  33 kept[5] (storage: free barrels kept)
    38 black_market.colonist_declined (the build goes without the University colonist)
    39 goods_supply[5]  44 house[5]  49 deck[5]  54 faceup[5]  59 discard[5]
    64 building_supply[37]  101 in_game[37] (new_buildings.violet_buildings; 1: the type is in this game;
        production: 1)
    138 role_doubloons[8]  146 role_taken[8]  154 ships[3] x (capacity, kind, count)
    163 players[5] x 60: doubloons, vp, goods[5], plantations[5], plantation_colonists[5],
        quarries, quarry_colonists, san_juan, wharf_done, forests, small_wharf_done,
        buildings[37]

Every field's path, kind and range is in the table of schema.py (checked in vector order),
then the consistency rules of native/mm_puerto_rico.c; the action ids of v2 games are
``moves.NUM_ACTIONS_V2``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .data import GOODS, NUM_BASE_BUILDINGS, NUM_BUILDINGS, ROLES, SETUPS
from .expansion import EXPANSION, ExpansionState
from .state import NK, Player, State
from .schema import V1 as SCHEMA_V1
from .schema import V2 as SCHEMA_V2

LAYOUT_VERSION = 1
MAX_PLAYERS, MAX_SHIPS, MAX_ROLES = 5, 3, len(ROLES)
_PLAYER = (["doubloons", "vp_chips"] + [f"goods.{g}" for g in GOODS] + [f"plantations.{g}" for g in GOODS]
           + [f"plantation_colonists.{g}" for g in GOODS]
           + ["quarries", "quarry_colonists", "san_juan", "wharf_done"])


#: Field path of every state-vector index (used to name the field the C decoder rejects).
LAYOUT = SCHEMA_V1.names()
VECTOR_LEN = len(LAYOUT)
LAYOUT_V2 = SCHEMA_V2.names()
VECTOR_LEN_V2 = len(LAYOUT_V2)
#: Where the piles start: after the globals of each layout.
_PILES = {1: SCHEMA_V1.index("goods_supply.corn"), 2: SCHEMA_V2.index("goods_supply.corn")}


def layout_for(v: Any) -> tuple[str, ...]:
    """The field names of ``v``'s entries: the layout its version names (or, for an
    unknown version, its length names)."""
    v2 = len(v) > 0 and (v[0] == 2 or (v[0] != 1 and len(v) == VECTOR_LEN_V2))
    return LAYOUT_V2 if v2 else LAYOUT


def encode(s: State) -> np.ndarray:
    """The state vector: layout v2 for expansion games, v1 otherwise."""
    v2 = isinstance(s, ExpansionState)
    nb = NUM_BUILDINGS if v2 else NUM_BASE_BUILDINGS
    v: list[int] = [2 if v2 else LAYOUT_VERSION, s.num_players,
                    int(s.options.get("university_factory_swap", False)), s.governor, s.phase,
                    s.current, s.chooser, s.turn, s.picks, int(s.end_triggered), s.colonist_supply,
                    s.colonist_ship, s.vp_supply, int(s.hacienda_done), s.to_place, s.last_slot,
                    s.produced, int(s.captain_loaded), s.store_mask, s.quarry_supply]
    if isinstance(s, ExpansionState):
        v += [s.forest_supply, s.hacienda_tile, s.window, s.privilege_left, s.bm_building, s.bm_due,
              s.bm_given, s.wharf_barrels, *s.made, *s.kept, int(s.bm_declined)]
    for pile in (s.goods_supply, s.house, s.deck, s.faceup, s.discard):
        v += pile
    v += s.building_supply[:nb]
    if isinstance(s, ExpansionState):
        v += [int(x) for x in s.in_game]
    v += s.role_doubloons + [-1] * (MAX_ROLES - len(s.role_doubloons))
    v += [int(t) for t in s.role_taken] + [0] * (MAX_ROLES - len(s.role_taken))
    for i in range(MAX_SHIPS):
        present = i < len(s.ship_capacity)
        v += [s.ship_capacity[i], s.ship_kind[i], s.ship_count[i]] if present else [0, -1, 0]
    for i in range(MAX_PLAYERS):
        if i < s.num_players:
            p = s.players[i]
            v += [p.doubloons, p.vp, *p.goods, *p.plantations, *p.plantation_colonists,
                  p.quarries, p.quarry_colonists, p.san_juan, int(p.wharf_done)]
            v += [p.forests, int(p.small_wharf_done)] if v2 else []
            v += p.buildings[:nb]
        else:
            v += [0] * (len(_PLAYER) + (2 if v2 else 0)) + [-1] * nb
    return np.asarray(v, dtype=np.int32)


def decode(vec: Any) -> State:
    """The State of a vector written by ``encode`` (either layout, by its version field):
    a vector the C decoder accepted (``positions.check``), which is the one check of positions."""
    v = [int(x) for x in np.asarray(vec).ravel()]
    v2 = v[0] == 2
    n, nb = v[1], NUM_BUILDINGS if v2 else NUM_BASE_BUILDINGS
    pos = _PILES[v[0]]

    def take(k: int) -> list[int]:
        nonlocal pos
        pos += k
        return v[pos - k:pos]

    piles = [take(NK) for _ in range(5)]
    supply = take(nb) + [0] * (NUM_BUILDINGS - nb)
    in_game = [bool(x) for x in take(nb)] if v2 else []
    roles = SETUPS[n].roles
    doubloons, taken = take(MAX_ROLES)[:roles], [bool(t) for t in take(MAX_ROLES)[:roles]]
    ships = [take(3) for _ in range(MAX_SHIPS)][:len(SETUPS[n].ships)]
    players = []
    for _ in range(n):
        f = take(len(_PLAYER) + (2 if v2 else 0) + nb)
        extra = f[len(_PLAYER):len(_PLAYER) + 2] if v2 else [0, 0]
        players.append(Player(doubloons=f[0], vp=f[1], goods=f[2:7], plantations=f[7:12],
                              plantation_colonists=f[12:17], quarries=f[17], quarry_colonists=f[18],
                              san_juan=f[19], wharf_done=bool(f[20]), forests=extra[0],
                              small_wharf_done=bool(extra[1]),
                              buildings=f[-nb:] + [-1] * (NUM_BUILDINGS - nb)))
    fields: dict[str, Any] = dict(
        players=players, options={"university_factory_swap": bool(v[2] & 1)}, governor=v[3],
        phase=v[4], current=v[5], chooser=v[6], turn=v[7], picks=v[8], end_triggered=bool(v[9]),
        colonist_supply=v[10], colonist_ship=v[11], vp_supply=v[12], hacienda_done=bool(v[13]),
        to_place=v[14], last_slot=v[15], produced=v[16], captain_loaded=bool(v[17]),
        store_mask=v[18], quarry_supply=v[19], goods_supply=piles[0], house=piles[1], deck=piles[2],
        faceup=piles[3], discard=piles[4], building_supply=supply, role_doubloons=doubloons,
        role_taken=taken, ship_capacity=[x[0] for x in ships], ship_kind=[x[1] for x in ships],
        ship_count=[x[2] for x in ships])
    if not v2:
        s = State(**fields)
    else:
        fields["options"]["expansion"] = EXPANSION
        s = ExpansionState(**fields, forest_supply=v[20], in_game=in_game, hacienda_tile=v[21],
                           window=v[22], privilege_left=v[23], bm_building=v[24], bm_due=v[25],
                           bm_given=v[26], wharf_barrels=v[27], made=v[28:33], kept=v[33:38],
                           bm_declined=bool(v[38]))
    return s


# ------------------------------------------------------------------------ dicts
