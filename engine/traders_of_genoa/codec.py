"""Traders of Genoa positions as the int32 state vector.

Layout version 2 (``VECTOR_LEN`` int32), engine indices 0-based, -1 for none.  The C
decoder (native/mm_traders_of_genoa.c) is the one validator (``positions/check.py``):
the player count, every field's range in vector order (schema.py's table), then the
consistency rules in schema.py's order::

      0 version   1 players   2 start_player   3 owner (tower)   4 round (marker)
      5 stage (start offer decide villa reward extras walk base mark end)   6 to_move
      7 site (building)   8 actor   9 delivered   10 base (square)   11 last_mark
     12 used_discs (bitmask over path)   13 acquirer   14 ousted
     15 path[5] (squares, -1 after the last)
     20 offers[5] x 15: ducats (-1: no offer, else a multiple of 5), goods[8], specials[5],
        markers
     95 supply[8] goods   103 special_supply[5]   108 marks[18] (bitmask of seats)
    126 cards[60]: every card's location (seat 0-4, 5 pile, 6 used, 7 unseen)
    186 offered_cards[60]: 1 when the card is in its holder's offer   246 piles[4]
    250 players[5] x 21: ducats, goods[8], specials[5], markers, reserve, hand[4] (cards per
        deck), actions
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .data import BUILDING_NAMES, CARD_NAMES, DECKS, GOODS, MAX_PLAYERS, SPECIALS, TOWER_DISCS
from .schema import V2 as SCHEMA
from .state import Player, State

LAYOUT_VERSION = SCHEMA.version
#: Offsets of the globals and blocks, from the schema's table.
(G_PLAYERS, G_START, G_OWNER, G_ROUND, G_STAGE, G_TO_MOVE, G_SITE, G_ACTOR, G_DELIVERED, G_BASE, G_LAST_MARK,
 G_USED_DISCS, G_ACQUIRER, G_OUSTED) = (SCHEMA.index(path) for path in (
    "players", "start_player", "owner", "round", "stage", "to_move", "site", "actor", "delivered", "base",
    "last_mark", "used_discs", "acquirer", "ousted"))
O_PATH, O_OFFERS, O_SUPPLY, O_SPECIAL_SUPPLY, O_MARKS, O_LOCATION, O_OFFERED, O_PILES, O_PLAYERS = (
    SCHEMA.index(path) for path in ("path[0]", "offers[0].ducats", f"supply.{GOODS[0]}",
                                    f"special_supply.{SPECIALS[0]}", f"marks.{BUILDING_NAMES[0]}",
                                    f"cards.{CARD_NAMES[0]}", f"offered_cards.{CARD_NAMES[0]}", f"piles.{DECKS[0]}",
                                    "players[0].ducats"))
OFFER_LEN = SCHEMA.index("offers[1].ducats") - O_OFFERS
F_DUCATS, F_GOODS, F_SPECIALS, F_MARKERS = (SCHEMA.index(f"offers[0].{path}") - O_OFFERS for path in (
    "ducats", f"goods.{GOODS[0]}", f"specials.{SPECIALS[0]}", "markers"))
PLAYER_LEN = SCHEMA.index("players[1].ducats") - O_PLAYERS
P_DUCATS, P_GOODS, P_SPECIALS, P_MARKERS, P_RESERVE, P_CARDS, P_ACTIONS = (
    SCHEMA.index(f"players[0].{path}") - O_PLAYERS for path in (
        "ducats", f"goods.{GOODS[0]}", f"specials.{SPECIALS[0]}", "markers", "reserve", f"hand.{DECKS[0]}",
        "actions"))
VECTOR_LEN = SCHEMA.length


#: Field path of every state-vector index (names the field a decoder rejects).
LAYOUT = SCHEMA.names()


def layout_for(vec: Any) -> tuple[str, ...]:
    return LAYOUT


def encode(s: State) -> np.ndarray:
    n = s.num_players
    v = [LAYOUT_VERSION, n, s.start_player, s.owner, s.round, s.stage, s.to_move, s.site, s.actor,
         int(s.delivered), s.base, s.last_mark, s.used_discs, s.acquirer, int(s.ousted)]
    v += s.path + [-1] * (TOWER_DISCS - len(s.path))
    for seat in range(MAX_PLAYERS):
        v += ([s.offer_ducats[seat], *s.offer_goods[seat], *s.offer_specials[seat], s.offer_markers[seat]]
              if seat < n else [-1] + [0] * (OFFER_LEN - 1))
    v += s.supply + s.special_supply + s.marks + s.location + s.offered + s.piles
    for p in s.players:
        v += [p.ducats, *p.goods, *p.specials, p.markers, p.reserve, *p.cards, p.actions]
    v += [0] * (PLAYER_LEN * (MAX_PLAYERS - n))
    return np.asarray(v, dtype=np.int32)


def decode(vec: Any) -> State:
    """The State of a vector written by ``encode``: a vector the C decoder accepted
    (``positions.check``), which is the one check of positions."""
    v = np.asarray(vec).ravel().tolist()
    n = v[G_PLAYERS]
    offers = [v[O_OFFERS + seat * OFFER_LEN:O_OFFERS + (seat + 1) * OFFER_LEN] for seat in range(n)]
    players = []
    for seat in range(n):
        f = v[O_PLAYERS + seat * PLAYER_LEN:O_PLAYERS + (seat + 1) * PLAYER_LEN]
        players.append(Player(ducats=f[P_DUCATS], goods=f[P_GOODS:P_SPECIALS], specials=f[P_SPECIALS:P_MARKERS],
                              markers=f[P_MARKERS], reserve=f[P_RESERVE], cards=f[P_CARDS:P_ACTIONS],
                              actions=f[P_ACTIONS]))
    return State(players=players, start_player=v[G_START], owner=v[G_OWNER], round=v[G_ROUND],
                 stage=v[G_STAGE], to_move=v[G_TO_MOVE], site=v[G_SITE], actor=v[G_ACTOR],
                 delivered=bool(v[G_DELIVERED]), base=v[G_BASE], last_mark=v[G_LAST_MARK],
                 used_discs=v[G_USED_DISCS], acquirer=v[G_ACQUIRER], ousted=bool(v[G_OUSTED]),
                 path=[s for s in v[O_PATH:O_OFFERS] if s >= 0], offer_ducats=[o[F_DUCATS] for o in offers],
                 offer_goods=[o[F_GOODS:F_SPECIALS] for o in offers],
                 offer_specials=[o[F_SPECIALS:F_MARKERS] for o in offers], offer_markers=[o[F_MARKERS] for o in offers],
                 supply=v[O_SUPPLY:O_SPECIAL_SUPPLY], special_supply=v[O_SPECIAL_SUPPLY:O_MARKS],
                 marks=v[O_MARKS:O_LOCATION], location=v[O_LOCATION:O_OFFERED], offered=v[O_OFFERED:O_PILES],
                 piles=v[O_PILES:O_PLAYERS])

