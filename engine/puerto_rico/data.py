"""Puerto Rico component tables (rules §1-§2, §5), as data.

Everything that differs between buildings is here: cost, VP, quarry column,
circles, city spaces, what a production building makes and how many copies
exist.  The rules module reads these tables instead of naming buildings in code,
except for the violet functions, which look up their building by id.
"""

from __future__ import annotations

from dataclasses import dataclass

GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
CORN, INDIGO, SUGAR, TOBACCO, COFFEE = range(5)
PRICES = (0, 1, 2, 3, 4)

ROLES = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector", "prospector2")
SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR, PROSPECTOR2 = range(8)

ISLAND_SPACES = 12
#: Doubloons a player holds or a role card carries count up to this (the bank is
#: unlimited; a gain beyond it is lost), and VP chips a player holds are at most this.
LIMIT = 1000
CITY_SPACES = 12
#: Barrels kept free after the Captain phase besides warehouses: 1, and 3 more with a Storehouse.
FREE_BARRELS, STOREHOUSE_BARRELS = 1, 3


@dataclass(frozen=True)
class Building:
    name: str
    cost: int
    vp: int
    column: int  # quarry discount cap
    circles: int
    spaces: int  # city spaces (large violet buildings take 2)
    good: int | None  # kind made by a production building
    count: int  # copies for 3-5 players
    count_2p: int

    @property
    def violet(self) -> bool:
        return self.good is None

    @property
    def large(self) -> bool:
        return self.spaces == 2


def _b(name: str, cost: int, vp: int, circles: int, count: int, count_2p: int,
       good: int | None = None, spaces: int = 1, column: int | None = None) -> Building:
    return Building(name, cost, vp, vp if column is None else column, circles, spaces, good, count,
                    count_2p)


BUILDINGS: tuple[Building, ...] = (
    _b("small_indigo_plant", 1, 1, 1, 4, 2, INDIGO),
    _b("small_sugar_mill", 2, 1, 1, 4, 2, SUGAR),
    _b("indigo_plant", 3, 2, 3, 3, 2, INDIGO),
    _b("sugar_mill", 4, 2, 3, 3, 2, SUGAR),
    _b("tobacco_storage", 5, 3, 3, 3, 2, TOBACCO),
    _b("coffee_roaster", 6, 3, 2, 3, 2, COFFEE),
    _b("small_market", 1, 1, 1, 2, 1),
    _b("hacienda", 2, 1, 1, 2, 1),
    _b("construction_hut", 2, 1, 1, 2, 1),
    _b("small_warehouse", 3, 1, 1, 2, 1),
    _b("hospice", 4, 2, 1, 2, 1),
    _b("office", 5, 2, 1, 2, 1),
    _b("large_market", 5, 2, 1, 2, 1),
    _b("large_warehouse", 6, 2, 1, 2, 1),
    _b("factory", 7, 3, 1, 2, 1),
    _b("university", 8, 3, 1, 2, 1),
    _b("harbor", 8, 3, 1, 2, 1),
    _b("wharf", 9, 3, 1, 2, 1),
    _b("guild_hall", 10, 4, 1, 1, 1, spaces=2),
    _b("residence", 10, 4, 1, 1, 1, spaces=2),
    _b("fortress", 10, 4, 1, 1, 1, spaces=2),
    _b("customs_house", 10, 4, 1, 1, 1, spaces=2),
    _b("city_hall", 10, 4, 1, 1, 1, spaces=2),
    # Expansion I, The New Buildings (§5a): only in games with expansion=new-buildings.
    _b("aqueduct", 1, 1, 1, 2, 1),
    _b("forest_house", 2, 1, 1, 2, 1),
    _b("black_market", 2, 1, 1, 2, 1),
    _b("storehouse", 3, 1, 1, 2, 1),
    _b("guest_house", 4, 2, 2, 2, 1),
    _b("trading_post", 5, 2, 1, 2, 1),
    _b("church", 5, 2, 1, 2, 1),
    _b("small_wharf", 6, 2, 1, 2, 1),
    _b("lighthouse", 7, 3, 1, 2, 1),
    _b("specialty_factory", 8, 3, 1, 2, 1),
    _b("library", 8, 3, 1, 2, 1),
    _b("union_hall", 9, 3, 1, 2, 1),
    _b("cloister", 10, 4, 1, 1, 1, spaces=2),
    _b("statue", 10, 8, 0, 1, 1, spaces=2, column=4),
)
BUILDING_IDS = {b.name: i for i, b in enumerate(BUILDINGS)}
NUM_BUILDINGS = len(BUILDINGS)
NUM_BASE_BUILDINGS = 23  # the base game's buildings are ids 0..22
(SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL, INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE, COFFEE_ROASTER,
 SMALL_MARKET, HACIENDA, CONSTRUCTION_HUT, SMALL_WAREHOUSE, HOSPICE, OFFICE, LARGE_MARKET,
 LARGE_WAREHOUSE, FACTORY, UNIVERSITY, HARBOR, WHARF, GUILD_HALL, RESIDENCE, FORTRESS,
 CUSTOMS_HOUSE, CITY_HALL, AQUEDUCT, FOREST_HOUSE, BLACK_MARKET, STOREHOUSE, GUEST_HOUSE,
 TRADING_POST, CHURCH, SMALL_WHARF, LIGHTHOUSE, SPECIALTY_FACTORY, LIBRARY, UNION_HALL, CLOISTER,
 STATUE) = range(NUM_BUILDINGS)
VIOLET = tuple(b for b in range(NUM_BUILDINGS) if BUILDINGS[b].violet)

#: Factory income by the number of kinds produced (0..5).
FACTORY_INCOME = (0, 0, 1, 2, 3, 5)

#: Expansion I: forest tiles in the game, Church VP by the built building's column (1..4),
#: Cloister VP by the number of sets of three identical island tiles (0..4).
FORESTS = 12
CHURCH_VP = (0, 0, 1, 1, 2)
CLOISTER_VP = (0, 1, 3, 6, 10)
#: The draft fills the violet slots of the base game: this many buildings of each cost.
DRAFT_SLOTS = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}
DRAFT_PICKS = sum(DRAFT_SLOTS.values())


@dataclass(frozen=True)
class Setup:
    doubloons: int
    start_plantations: tuple[int, ...]  # by seat from the governor
    colonists: int  # in the supply, ship excluded
    ship_colonists: int
    vp_chips: int
    ships: tuple[int, ...]  # capacities
    roles: int  # role cards in play: the first `roles` of ROLES
    quarries: int
    plantations: tuple[int, ...]  # tiles of each kind in the game, starting tiles included
    goods: tuple[int, ...]


_ALL_PLANTATIONS = (10, 12, 11, 9, 8)
_ALL_GOODS = (10, 11, 11, 9, 9)
SETUPS = {
    2: Setup(3, (INDIGO, CORN), 40, 2, 65, (4, 6), 7, 5, (7, 9, 8, 6, 5), (8, 9, 9, 7, 7)),
    3: Setup(2, (INDIGO, INDIGO, CORN), 55, 3, 75, (4, 5, 6), 6, 8, _ALL_PLANTATIONS, _ALL_GOODS),
    4: Setup(3, (INDIGO, INDIGO, CORN, CORN), 75, 4, 100, (5, 6, 7), 7, 8, _ALL_PLANTATIONS, _ALL_GOODS),
    5: Setup(4, (INDIGO, INDIGO, INDIGO, CORN, CORN), 95, 5, 122, (6, 7, 8), 8, 8,
             _ALL_PLANTATIONS, _ALL_GOODS),
}
PLAYER_COUNTS = tuple(SETUPS)


def building_count(b: int, players: int) -> int:
    return BUILDINGS[b].count_2p if players == 2 else BUILDINGS[b].count


def building_cost(b: int, university_factory_swap: bool) -> int:
    """Printed price, with the optional Factory 8 / University 7 swap."""
    if university_factory_swap and b in (FACTORY, UNIVERSITY):
        return 8 if b == FACTORY else 7
    return BUILDINGS[b].cost
