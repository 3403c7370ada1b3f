"""Components and setup tables of The Castles of Burgundy (2011 base game, rules §1-§11).

Every index is 0-based inside the engine: tile colours, tile kinds, goods (goods ``g`` is
the goods colour of die number ``g + 1``), depots (depot ``d`` is numbered ``d + 1``),
depot slots, estate cells (cell ``c`` is space ``c + 1`` of board No. 1).  Notation and
JSON show the printed numbers.
"""

from __future__ import annotations

#: Tile colours (the colour of a tile's face and of the estate spaces it fits).
COLOURS = ("castle", "mine", "ship", "building", "animal", "knowledge")
CASTLE, MINE, SHIP, BUILDING, ANIMAL, KNOWLEDGE = range(6)
NUM_COLOURS = len(COLOURS)

BUILDINGS = ("warehouse", "carpenter", "church", "market", "boarding_house", "bank", "city_hall",
             "watchtower")
ANIMALS = ("cows", "pigs", "sheep", "chickens")

# Tile kinds: castle, mine, ship, 8 buildings, 12 animal tiles (4 types x 2-4 animals),
# knowledge tiles #1-#26.  Kinds of one colour are contiguous.
T_CASTLE, T_MINE, T_SHIP = 0, 1, 2
T_BUILDING = 3
T_WAREHOUSE, T_CARPENTER, T_CHURCH, T_MARKET, T_BOARDING_HOUSE, T_BANK, T_CITY_HALL, T_WATCHTOWER = (
    range(T_BUILDING, T_BUILDING + 8))
T_ANIMAL = T_BUILDING + len(BUILDINGS)
T_KNOWLEDGE = T_ANIMAL + 3 * len(ANIMALS)
NUM_TILES = T_KNOWLEDGE + 26

TILE_NAMES = (("castle", "mine", "ship") + BUILDINGS
              + tuple(f"{a}{n}" for a in ANIMALS for n in (2, 3, 4))
              + tuple(f"knowledge{k}" for k in range(1, 27)))
TILE_IDS = {name: t for t, name in enumerate(TILE_NAMES)}
TILE_COLOUR = ((CASTLE, MINE, SHIP) + (BUILDING,) * len(BUILDINGS) + (ANIMAL,) * 12
               + (KNOWLEDGE,) * 26)
#: First and one-past-last tile kind of every colour.
COLOUR_KINDS = tuple((TILE_COLOUR.index(c), len(TILE_COLOUR) - TILE_COLOUR[::-1].index(c))
                     for c in range(NUM_COLOURS))


def knowledge(k: int) -> int:
    """The tile kind of knowledge tile #k (1-26)."""
    return T_KNOWLEDGE + k - 1


def animal_type(t: int) -> int:
    return (t - T_ANIMAL) // 3


def animal_count(t: int) -> int:
    return (t - T_ANIMAL) % 3 + 2


_BLACK_KNOWLEDGE = (7, 12, 14, 15, 24, 25)
#: Tiles per kind with a colour back (start castles included) and with a black back.
COLOUR_BACKED = ((14, 10, 20) + (5,) * len(BUILDINGS) + (2, 2, 1) * len(ANIMALS)
                 + tuple(0 if k in _BLACK_KNOWLEDGE else 1 for k in range(1, 27)))
BLACK_BACKED = ((2, 2, 6) + (2,) * len(BUILDINGS) + (0, 1, 1) * len(ANIMALS)
                + tuple(1 if k in _BLACK_KNOWLEDGE else 0 for k in range(1, 27)))
TILE_TOTAL = tuple(a + b for a, b in zip(COLOUR_BACKED, BLACK_BACKED))

# Knowledge tiles with a rule effect (rules §8), as tile kinds.
K_DUPLICATE_BUILDINGS = knowledge(1)
K_MINE_WORKER = knowledge(2)
K_SALE_SILVERLING = knowledge(3)
K_SALE_WORKER = knowledge(4)
K_TWO_DEPOT_SHIP = knowledge(5)
K_BUY_ANY_DEPOT = knowledge(6)
K_ANIMAL_BONUS = knowledge(7)
K_WORKER_TWO_STEPS = knowledge(8)
K_FREE_BUILDING = knowledge(9)
K_FREE_SHIP_ANIMAL = knowledge(10)
K_FREE_CASTLE_MINE_KNOWLEDGE = knowledge(11)
K_FREE_TAKE = knowledge(12)
K_WORKERS_SILVERLING = knowledge(13)
K_FOUR_WORKERS = knowledge(14)
K_SOLD_COLOURS = knowledge(15)
#: Knowledge #16-#23: 4 VP per building of this kind at the end.
K_BUILDING_VP = {knowledge(16): T_WAREHOUSE, knowledge(17): T_WATCHTOWER,
                 knowledge(18): T_CARPENTER, knowledge(19): T_CHURCH, knowledge(20): T_MARKET,
                 knowledge(21): T_BOARDING_HOUSE, knowledge(22): T_BANK, knowledge(23): T_CITY_HALL}
K_ANIMAL_TYPES = knowledge(24)
K_SOLD_TILES = knowledge(25)
K_BONUS_TILES = knowledge(26)
#: The colours whose placement knowledge #9, #10, #11 adjust for free.
FREE_PLACE_KNOWLEDGE = {BUILDING: K_FREE_BUILDING, SHIP: K_FREE_SHIP_ANIMAL,
                        ANIMAL: K_FREE_SHIP_ANIMAL, CASTLE: K_FREE_CASTLE_MINE_KNOWLEDGE,
                        MINE: K_FREE_CASTLE_MINE_KNOWLEDGE, KNOWLEDGE: K_FREE_CASTLE_MINE_KNOWLEDGE}

# The main board.
NUM_DEPOTS, DEPOT_SLOTS, BLACK_SLOTS = 6, 4, 8
#: Printed colour of every slot of depots 1-6; slots 0-1 are used from 2 players on,
#: slot 2 from 3, slot 3 with 4.
DEPOT_LAYOUT = (
    (BUILDING, SHIP, KNOWLEDGE, ANIMAL),
    (KNOWLEDGE, CASTLE, BUILDING, BUILDING),
    (ANIMAL, BUILDING, SHIP, KNOWLEDGE),
    (SHIP, BUILDING, ANIMAL, MINE),
    (MINE, KNOWLEDGE, BUILDING, BUILDING),
    (BUILDING, ANIMAL, CASTLE, SHIP),
)
#: 3 players (2011 rulebook, page 3): the castle space of depot 6 (slot 2) takes a mine in
#: phases B and D (a castle in A, C and E).
THREE_PLAYER_MINE_SPACE, THREE_PLAYER_MINE_PHASES = (5, 2), (1, 3)


def depot_colour(players: int, phase: int, depot: int, slot: int) -> int:
    """The colour of tile a depot space takes in ``phase``: its printed colour, except the
    3-player mine space in phases B and D."""
    if (players == 3 and (depot, slot) == THREE_PLAYER_MINE_SPACE
            and phase in THREE_PLAYER_MINE_PHASES):
        return MINE
    return DEPOT_LAYOUT[depot][slot]


#: Depot pairs a ship takes goods from with knowledge #5: the ring 1-2-3-4-5-6-1.
DEPOT_PAIRS = tuple((d, (d + 1) % NUM_DEPOTS) for d in range(NUM_DEPOTS))

NUM_GOODS, GOODS_PER_COLOUR = 6, 7
PHASES, ROUNDS = 5, 5
PHASE_NAMES = "ABCDE"
PHASE_BONUS = (10, 8, 6, 4, 2)
#: Region completion VP by region size.
REGION_VP = (0, 1, 3, 6, 10, 15, 21, 28, 36)
STORAGE, GOODS_SPACES = 3, 3
BUY_PRICE = 2
WATCHTOWER_VP, BOARDING_HOUSE_WORKERS, BANK_SILVERLINGS = 4, 4, 2
#: A player's silverlings, workers and VP count up to this (gains beyond it are lost): every
#: position play reaches stays one a position check accepts.
LIMIT = 1000
KNOWLEDGE_END_VP = 4  # per building (#16-#23) and per animal type (#24)
SOLD_COLOUR_VP, BONUS_TILE_VP = 3, 2  # knowledge #15 and #26 (2011 values)


class Setup:
    """Numbers that depend on the player count."""

    def __init__(self, players: int, black: int, large_bonus: int, small_bonus: int) -> None:
        self.players = players
        self.depot_slots = players  # 2, 3 or 4 slots of every numbered depot
        self.black_slots = black
        self.sale_vp = players  # VP per goods tile sold
        self.bonus_vp = (large_bonus, small_bonus)
        self.start_workers = tuple(range(1, players + 1))  # by turn order
        self.start_silverlings = 1
        self.start_goods = 3


SETUPS = {2: Setup(2, 4, 5, 2), 3: Setup(3, 6, 6, 3), 4: Setup(4, 8, 7, 4)}
PLAYER_COUNTS = tuple(SETUPS)
