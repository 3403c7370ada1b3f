"""The Traders of Genoa state vector (layout 2) as a table in ``engine/schema.py``'s format.

Each cell's path is its field in ``meeplemind.v1.TradersOfGenoaState``; numbers a position
names (buildings, squares, goods) are 0-based in the vector (``first=-1``: "" is -1).  The
C decoder checks the ranges from this table and the rules in their order.  A cell's
attribute (``engine/layout.py``) is its path's first field, as both twins name it, but
for the offers: seat p's ``offers[p].goods`` are row p of ``offer_goods`` (and so on).
"""

from __future__ import annotations

from ..schema import Cell, Rule, Schema, by_players, cell, counts, per_seat
from .board import NUM_SQUARES, square_name
from .data import (
    BUILDING_NAMES, CARD_NAMES, DECK_SIZES, DECKS, GOODS, GOODS_PER_KIND, LIMIT, MARKERS_PER_PLAYER, MAX_ACTIONS,
    LOCATIONS, MAX_PLAYERS, PLAYER_COUNTS, ROUNDS, SPECIAL_COUNTS, SPECIALS, TOWER_DISCS, UNSEEN,
)
from .state import STAGES

C_GAME = "mm_traders_of_genoa_game"  # the C engine's mm_game: its registration in C
C_PREFIX = "MM_TOG"  # of the names in the generated native/schema_traders_of_genoa.h
GAME_ID = "traders-of-genoa"
C_CONSTANTS = {"LIMIT": LIMIT, "MAX_ACTIONS": MAX_ACTIONS}
#: Names the C decoder's rejections quote (``MM_TOG_NAMES_<NAME>``).
C_NAMES = {"GOODS": GOODS, "SPECIALS": SPECIALS, "DECKS": DECKS, "STAGES": STAGES}
FIRST, LAST = min(PLAYER_COUNTS), max(PLAYER_COUNTS)
BUILDINGS = ("",) + BUILDING_NAMES
SQUARES = ("",) + tuple(square_name(s) for s in range(NUM_SQUARES))
SEATS = by_players(FIRST, LAST, lambda n: n - 1)
VERSION = 2  # layout 2: offers are bundles (issue 28); layout 1's single good per offer is gone


def _globals() -> list[Cell]:
    return [
        cell("version", VERSION, VERSION, "fixed"),
        cell("players", FIRST, LAST, "length"),
        cell("start_player", 0, SEATS),
        cell("owner", 0, SEATS),
        cell("round", 0, by_players(FIRST, LAST, lambda n: ROUNDS[n])),
        cell("stage", 0, len(STAGES) - 1, "enum", names=STAGES),
        cell("to_move", -1, SEATS),
        cell("site", -1, len(BUILDING_NAMES) - 1, "enum", names=BUILDINGS, first=-1),
        cell("actor", -1, SEATS),
        cell("delivered", 0, 1, "bool"),
        cell("base", -1, NUM_SQUARES - 1, "enum", names=SQUARES, first=-1),
        cell("last_mark", -1, len(BUILDING_NAMES) - 1, "enum", names=BUILDINGS, first=-1),
        cell("used_discs", 0, (1 << TOWER_DISCS) - 1, "mask", names=tuple(str(i + 1) for i in range(TOWER_DISCS))),
        cell("acquirer", 0, SEATS),
        cell("ousted", 0, 1, "bool"),
    ]


def _upto(here: tuple[int, ...], hi: int) -> tuple[int, ...]:
    """``hi`` for the player counts that seat a player (``here``), 0 for the others."""
    return tuple(hi if h else 0 for h in here)


def _table() -> list[Cell]:
    cells = [cell(f"path[{i}]", -1, NUM_SQUARES - 1, "enum", names=SQUARES, first=-1, empty=-1)
             for i in range(TOWER_DISCS)]
    for p in range(MAX_PLAYERS):
        here = by_players(FIRST, LAST, lambda n: p < n)
        cells += [cell(f"offers[{p}].ducats", -1, tuple(LIMIT if h else -1 for h in here), empty=-1,
                       attr="offer_ducats")]
        cells += counts(f"offers[{p}].goods", GOODS, 0, _upto(here, GOODS_PER_KIND), attr="offer_goods")
        cells += counts(f"offers[{p}].specials", SPECIALS, 0, [_upto(here, n) for n in SPECIAL_COUNTS].__getitem__,
                        attr="offer_specials")
        cells += [cell(f"offers[{p}].markers", 0, _upto(here, MARKERS_PER_PLAYER), attr="offer_markers")]
        cells += [cell(f"offers[{p}].target", -1, tuple(NUM_SQUARES - 1 if h else -1 for h in here), "enum",
                       names=SQUARES, first=-1, empty=-1, attr="offer_target")]
    cells += counts("supply", GOODS, 0, GOODS_PER_KIND)
    cells += counts("special_supply", SPECIALS, 0, lambda k: SPECIAL_COUNTS[k])
    cells += counts("marks", BUILDING_NAMES, 0, by_players(FIRST, LAST, lambda n: (1 << n) - 1), "mask",
                    names=tuple(str(p) for p in range(MAX_PLAYERS)))
    cells += counts("cards", CARD_NAMES, 0, len(LOCATIONS) - 1, "entry", names=LOCATIONS, empty=UNSEEN)
    cells += counts("offered_cards", CARD_NAMES, 0, 1, "member")
    cells += counts("piles", DECKS, 0, lambda d: DECK_SIZES[d])
    return cells


def _player() -> list[Cell]:
    cells = [cell("ducats", 0, LIMIT)]
    cells += counts("goods", GOODS, 0, GOODS_PER_KIND)
    cells += counts("specials", SPECIALS, 0, lambda k: SPECIAL_COUNTS[k])
    cells += [cell("markers", 0, MARKERS_PER_PLAYER), cell("reserve", 0, MARKERS_PER_PLAYER)]
    cells += counts("hand", DECKS, 0, lambda d: DECK_SIZES[d])
    cells += [cell("actions", 0, MAX_ACTIONS)]
    return cells


RULES = (
    Rule("path", "path[0]", "the tower's squares first then -1, no market, no square twice, one orthogonal step "
                            "apart; used discs are street squares of the path"),
    Rule("progress", "to_move", "the stage, the player to move, the action's site and actor, the base and the "
                                "acquirer agree; the bidder to move may still act this turn; steering offers "
                                "are made while the tower has a disc left"),
    Rule("offers", "offers[0].ducats", "offers are made to the owner during a negotiation by players who may "
                                       "still act, in multiples of 5 the bidder has, with goods, cards, special "
                                       "cards (not the extra-action card he needs to act) and markers he holds "
                                       "(an offered card is his, listed in "
                                       "offered_cards, and nothing but an open offer holds items); a 2-player "
                                       "offer holds something besides ducats; a steering offer (stages steer and "
                                       "heed) targets the square of an unvisited building next to the tower, an "
                                       "offer for the action on offer none"),
    Rule("conservation", "supply.silver", "every good, special card and marker of the game is somewhere"),
    Rule("cards", "piles.large", "every card's location agrees with the public counts of hands and piles"),
)

V2 = Schema(GAME_ID, VERSION, (FIRST, LAST), tuple(_globals() + _table() + per_seat(MAX_PLAYERS, _player)), RULES)
SCHEMAS = (V2,)


def schema_of(message: object) -> Schema:
    """The layout of a TradersOfGenoaState message (there is one)."""
    return V2
