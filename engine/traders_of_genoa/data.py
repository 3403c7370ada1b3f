"""Traders of Genoa: every number of the rules and the board layout, as data.

The authority is ``../shared/rules/traders_of_genoa.md``; its decision table fixes the
defaults no source settled (rounds, payouts, the board geometry, structured offers).  A
correction is one edit here: the rules (``state.py``), the C twin's generated tables
(checked against these by the tests) and the README read these names.  Indices are
0-based inside the engine; notation shows printed names (squares ``r.c`` with the red die
as row and the blue die as column, 1-8).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

PLAYER_COUNTS = (2, 3, 4, 5)
MAX_PLAYERS = max(PLAYER_COUNTS)
#: Card locations besides a seat (0-4).
PILE, USED, UNSEEN = 5, 6, 7
LOCATIONS = ("0", "1", "2", "3", "4", "pile", "used", "unseen")  # as a position names them
#: Rounds by player count; a market start moves the round marker on one space.
ROUNDS = {2: 12, 3: 10, 4: 8, 5: 7}
START_DUCATS = 130
MARKERS_PER_PLAYER = 7
CATHEDRAL_MARKERS = 2  # markers the Cathedral hands out
OWNER_INCOME = 10  # to each other marker holder when a building's action is taken
MARKER_END_VALUE = 10  # per marker on the board at the end
SMALL_ORDER_PAY = 40
MESSAGE_PAY = 30
LARGE_ORDER_PAY = 100  # plus one special card of the player's choice
#: Privilege payout by the size of the holder's connected group of owned buildings (6+: last).
PRIVILEGE_PAY = (0, 10, 30, 60, 100, 150, 200)
TOWER_DISCS = 5  # the start square and up to 4 moves
DIE_SIDES = 8  # red die: row, blue die: column
#: Offers are bundles built item by item (``moves.py``): ducats from these coins, each added
#: only to a total it divides (so 100s, then a 50 or 20s, then 10s, then a 5: every multiple
#: of 5 one way), then goods, cards, special cards and ownership markers; in 2-player games an
#: offer must hold something besides ducats (seed: cards, special cards and markers count as
#: goods).
OFFER_COINS = (5, 10, 20, 50, 100)
OFFER_STEP = 5  # every offer's ducats are a multiple of this

GOODS = ("silver", "copper", "salt", "pepper", "wheat", "rice", "linen", "silk")
NUM_GOODS = len(GOODS)
GOODS_PER_KIND = 5

#: Special cards (name, count) in supply order.
SPECIALS = ("any_start", "trade", "any_good", "building_action", "extra_action")
SPECIAL_COUNTS = (5, 7, 5, 5, 5)
S_ANY_START, S_TRADE, S_ANY_GOOD, S_BUILDING_ACTION, S_EXTRA_ACTION = range(len(SPECIALS))
#: A player's ducats count up to this (gains beyond it are lost): every position play reaches
#: stays one a position check accepts.
LIMIT = 100_000
MAX_ACTIONS = 2 + SPECIAL_COUNTS[S_EXTRA_ACTION]  # of one player in one turn

#: Buildings: (name, action, argument), one class per action, tagged by ``action``.
class Draw(NamedTuple):
    """Draws cards: the argument is the deck's name and how many."""

    name: str
    action: Literal["draw"]
    arg: tuple[str, int]


class Markers(NamedTuple):
    """Hands out markers (the Cathedral): the argument is how many."""

    name: str
    action: Literal["markers"]
    arg: int


class Villa(NamedTuple):
    """A privilege or a large order; no argument."""

    name: str
    action: Literal["villa"]
    arg: None


class Goods(NamedTuple):
    """Two goods: the argument is both goods' indices."""

    name: str
    action: Literal["goods"]
    arg: tuple[int, int]


class Special(NamedTuple):
    """A special card: the argument is its index in SPECIALS."""

    name: str
    action: Literal["special"]
    arg: int


Building = Draw | Markers | Villa | Goods | Special
BUILDINGS: tuple[Building, ...] = (
    Draw("guild_hall", "draw", ("large", 1)),
    Draw("city_hall", "draw", ("small", 2)),
    Draw("post_office", "draw", ("message", 2)),
    Markers("cathedral", "markers", CATHEDRAL_MARKERS),
    Villa("villa_colini", "villa", None),
    Villa("villa_monetti", "villa", None),
    Villa("villa_ricci", "villa", None),
    Villa("villa_zasteri", "villa", None),
    Goods("metal_store", "goods", (0, 1)),
    Goods("spice_store", "goods", (2, 3)),
    Goods("grain_store", "goods", (4, 5)),
    Goods("cloth_store", "goods", (6, 7)),
    Special("harbor", "special", S_ANY_GOOD),
    Special("trattoria", "special", S_TRADE),
    Special("tavern", "special", S_TRADE),
    Special("coach_house", "special", S_ANY_START),
    Special("park", "special", S_EXTRA_ACTION),
    Special("palace", "special", S_BUILDING_ACTION),
)
BUILDING_NAMES = tuple(b.name for b in BUILDINGS)
NUM_BUILDINGS = len(BUILDINGS)

#: The 8x8 board, row 1 first (red die), column 1 first (blue die): ``..`` street,
#: ``MK`` market, otherwise the building's code (BOARD_CODES).  Centre: the market with
#: City Hall, Guild Hall, Cathedral and Post Office on its sides; villas in the corners.
BOARD = (
    "VC VC HA HA GR GR VM VM",
    "VC .. .. .. .. .. .. VM",
    "SP .. .. CI CI .. .. CO",
    "SP PA PO MK MK GU TR CO",
    "PK PA PO MK MK GU TR ME",
    "PK .. .. CA CA .. .. ME",
    "VZ .. .. .. .. .. .. VR",
    "VZ VZ CL CL TA TA VR VR",
)
BOARD_CODES = {"GU": 0, "CI": 1, "PO": 2, "CA": 3, "VC": 4, "VM": 5, "VR": 6, "VZ": 7, "ME": 8,
               "SP": 9, "GR": 10, "CL": 11, "HA": 12, "TR": 13, "TA": 14, "CO": 15, "PK": 16, "PA": 17}
STREET, MARKET = -1, -2

#: The four decks: (name, cards), each card's fields below.  Card ids run deck by deck.
DECKS = ("large", "small", "message", "privilege")
D_LARGE, D_SMALL, D_MESSAGE, D_PRIVILEGE = range(len(DECKS))
#: Large orders: (villa, three goods).
LARGE_ORDERS = (
    (4, (0, 2, 4)), (4, (1, 3, 6)), (4, (5, 6, 7)), (4, (0, 3, 5)),
    (5, (1, 2, 7)), (5, (0, 4, 6)), (5, (2, 5, 7)), (5, (1, 3, 4)),
    (6, (0, 1, 6)), (6, (2, 3, 5)), (6, (4, 6, 7)), (6, (0, 5, 7)),
    (7, (1, 4, 5)), (7, (2, 6, 7)), (7, (0, 1, 3)), (7, (3, 4, 7)),
)
#: Small orders: (good, the building it is delivered to).
SMALL_ORDERS = (
    (0, 12), (1, 13), (2, 14), (3, 15), (4, 16), (5, 17), (6, 1), (7, 2),
    (0, 15), (1, 16), (2, 17), (3, 12), (4, 13), (5, 14), (6, 0), (7, 3),
)
#: Messages: the two buildings the tower must visit in one turn.
MESSAGES = (
    (0, 12), (1, 13), (2, 14), (3, 15), (0, 16), (1, 17), (2, 8),
    (3, 9), (0, 10), (1, 11), (2, 16), (3, 12), (8, 11), (9, 10),
)
#: Privileges: the building each one pays for (the 14 outer buildings).
PRIVILEGES = tuple(range(4, NUM_BUILDINGS))
DECK_SIZES = (len(LARGE_ORDERS), len(SMALL_ORDERS), len(MESSAGES), len(PRIVILEGES))
DECK_FIRST = tuple(sum(DECK_SIZES[:d]) for d in range(len(DECKS)))
NUM_CARDS = sum(DECK_SIZES)
CARD_DECK = tuple(d for d in range(len(DECKS)) for _ in range(DECK_SIZES[d]))
#: Cards by name: the deck and the card's number in it (``large_1`` .. ``privilege_14``).
CARD_NAMES = tuple(f"{DECKS[d]}_{i + 1}" for d in range(len(DECKS)) for i in range(DECK_SIZES[d]))
