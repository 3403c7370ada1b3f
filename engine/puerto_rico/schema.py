"""The Puerto Rico state vector: layout 1 (base game) and 2 (Expansion I), as tables.

The format is ``engine/schema.py``'s.  Layout 2 widens a few of layout 1's fields
(phases ``draft`` and ``guests``, turn ``players`` for the settler's Library tile) and
adds the expansion's globals after layout 1's twenty, ``in_game`` flags after the
building supply and two player fields before the buildings.
"""

from __future__ import annotations

from ..schema import Cell, Ref, Rule, Schema, by_players, cell, counts, per_seat
from .data import BUILDINGS, FORESTS, GOODS, ISLAND_SPACES, LIMIT, NUM_BASE_BUILDINGS, NUM_BUILDINGS, ROLES, \
    SETUPS, building_count
from ..errors import PositionError
from .expansion import EXPANSION, GIVE_CATEGORIES
from .moves import SLOT_BUILDING, SLOT_NAMES
from .state import PHASES

C_GAME = "mm_puerto_rico_game"  # the C engine's mm_game: its registration in C
C_PREFIX = "MM_PR"  # of the names in the generated native/schema_puerto_rico.h
GAME_ID = "puerto-rico"
#: Constants of the rules the C engine reads from the generated header (``MM_PR_<NAME>``).
C_CONSTANTS = {"LIMIT": LIMIT}
#: Names the C decoder's rejections quote (``MM_PR_NAMES_<NAME>``).
C_NAMES = {"GOODS": GOODS, "BUILDINGS": tuple(b.name for b in BUILDINGS), "ROLES": ROLES}
#: State attributes the C state keeps in another form (``engine/layout.py``): a bit set.
C_COMPUTED = ("in_game",)
MAX_PLAYERS, MAX_SHIPS, MAX_ROLES = max(SETUPS), 3, len(ROLES)
FIRST, LAST = min(SETUPS), max(SETUPS)
HOUSE_SPACES = 4
END, GUESTS = PHASES.index("end"), PHASES.index("guests")


def _n(value: object) -> tuple[int, ...]:
    """A bound by player count from a function of the Setup and the count."""
    return by_players(FIRST, LAST, lambda n: value(SETUPS[n], n))  # type: ignore[operator]


_COLONISTS = _n(lambda s, n: s.colonists + s.ship_colonists)
_SEATS = _n(lambda s, n: n - 1)


def _globals(v2: bool, buildings: int) -> list[Cell]:
    slots = SLOT_BUILDING + buildings
    cells = [
        cell("version", 2 if v2 else 1, 2 if v2 else 1, "fixed"),
        cell("players", FIRST, LAST, "length"),
        cell("options.university_factory_swap", 0, 1, "bool", attr="options"),
        cell("governor", 0, _SEATS),
        cell("phase", 0, GUESTS if v2 else END, "enum", names=PHASES),
        cell("current_player", -1, _SEATS, attr="current"),
        cell("chooser", 0, _SEATS),
        cell("turn", 0, _n(lambda s, n: n) if v2 else _SEATS),
        cell("picks", 0, _n(lambda s, n: (6 if n == 2 else n) - 1)),
        cell("end_triggered", 0, 1, "bool"),
        cell("colonist_supply", 0, _COLONISTS),
        cell("colonist_ship", 0, _COLONISTS),
        cell("vp_supply", _n(lambda s, n: s.vp_chips - n * LIMIT), _n(lambda s, n: s.vp_chips)),
        cell("progress.hacienda_done", 0, 1, "bool", attr="hacienda_done"),
        cell("progress.to_place", 0, _COLONISTS, attr="to_place"),
        cell("progress.last_slot", 0, slots - 1, "enum", names=SLOT_NAMES[:slots], attr="last_slot"),
        cell("progress.produced", 0, 31, "mask", names=GOODS, attr="produced"),
        cell("progress.captain_loaded", 0, 1, "bool", attr="captain_loaded"),
        cell("progress.warehoused", 0, 31, "mask", names=GOODS, attr="store_mask"),
        cell("quarry_supply", 0, _n(lambda s, n: s.quarries)),
    ]
    if v2:
        cells += [
            cell("new_buildings.forest_supply", 0, FORESTS, attr="forest_supply"),
            cell("progress.hacienda_tile", -1, len(GOODS) - 1, "enum", names=("",) + GOODS, first=-1,
                 attr="hacienda_tile"),
            cell("progress.window", -1, END, "enum", names=("",) + PHASES[:END + 1], first=-1, attr="window"),
            cell("progress.privilege_left", 0, 2, attr="privilege_left"),
            cell("progress.black_market.building", -1, NUM_BUILDINGS - 1, "enum",
                 names=("",) + tuple(b.name for b in BUILDINGS), first=-1, attr="bm_building"),
            cell("progress.black_market.due", 0, 3, attr="bm_due"),
            cell("progress.black_market.given", 0, len(GIVE_CATEGORIES) - 1, "enum", names=GIVE_CATEGORIES,
                 attr="bm_given"),
            cell("progress.small_wharf_barrels", 0, _n(lambda s, n: sum(s.goods)), attr="wharf_barrels"),
            *counts("progress.made", GOODS, 0, lambda k: _n(lambda s, n: s.goods[k]), attr="made"),
            *counts("progress.kept", GOODS, 0, HOUSE_SPACES, attr="kept"),
            cell("progress.black_market.colonist_declined", 0, 1, "bool", attr="bm_declined"),
        ]
    return cells


def _board(v2: bool, buildings: int) -> list[Cell]:
    names = tuple(b.name for b in BUILDINGS[:buildings])
    cells = counts("goods_supply", GOODS, 0, lambda k: _n(lambda s, n: s.goods[k]))
    cells += counts("trading_house", GOODS, 0, HOUSE_SPACES, attr="house")
    for pile, attr in (("plantation_stack", "deck"), ("faceup_plantations", "faceup"),
                       ("discarded_plantations", "discard")):
        cells += counts(pile, GOODS, 0, lambda k: _n(lambda s, n: s.plantations[k]), attr=attr)
    cells += counts("building_supply", names, 0, lambda b: _n(lambda s, n: building_count(b, n)))
    if v2:  # production buildings are always in the game
        cells += [cell(f"new_buildings.violet_buildings.{b.name}", 0, 1, "member", attr="in_game") if b.violet
                  else cell(f"new_buildings.violet_buildings.{b.name}", 1, 1, "fixed", attr="in_game")
                  for b in BUILDINGS[:buildings]]
    cells += [cell(f"roles[{r}].doubloons", _n(lambda s, n: 0 if r < s.roles else -1),
                   _n(lambda s, n: LIMIT if r < s.roles else -1), empty=-1, attr="role_doubloons")
              for r in range(MAX_ROLES)]
    cells += [cell(f"roles[{r}].taken", 0, _n(lambda s, n: int(r < s.roles)), "bool", attr="role_taken")
              for r in range(MAX_ROLES)]
    for i in range(MAX_SHIPS):
        capacity = _n(lambda s, n: s.ships[i] if i < len(s.ships) else 0)
        cells += [cell(f"ships[{i}].capacity", capacity, capacity, attr="ship_capacity"),
                  cell(f"ships[{i}].good", -1, tuple(len(GOODS) - 1 if c else -1 for c in capacity),
                       "enum", names=("",) + GOODS, first=-1, empty=-1, attr="ship_kind"),
                  cell(f"ships[{i}].count", 0, capacity, attr="ship_count")]
    return cells


def _player(v2: bool, buildings: int) -> list[Cell]:
    cells = [cell("doubloons", 0, LIMIT), cell("vp_chips", 0, LIMIT)]
    cells += counts("goods", GOODS, 0, lambda k: _n(lambda s, n: s.goods[k]))
    cells += counts("plantations", GOODS, 0, ISLAND_SPACES)
    cells += [cell(f"plantation_colonists.{g}", 0, Ref(f"plantations.{g}"), "count") for g in GOODS]
    cells += [cell("quarries", 0, _n(lambda s, n: s.quarries)),
              cell("quarry_colonists", 0, Ref("quarries")),
              cell("san_juan", 0, _COLONISTS), cell("wharf_done", 0, 1, "bool")]
    if v2:
        cells += [cell("forests", 0, FORESTS), cell("small_wharf_done", 0, 1, "bool")]
    cells += [cell(f"buildings.{b.name}", -1, b.circles, "entry", empty=-1) for b in BUILDINGS[:buildings]]
    return cells


RULES = (
    Rule("game_over", "current_player", "nobody is to move exactly when the game is over"),
    Rule("island", "players[0].plantations.corn", "plantations, quarries and forests fit the island"),
    Rule("city", "players[0].buildings.small_indigo_plant", "buildings fit the city (and are in the game)"),
    Rule("ships", "ships[0].good", "a ship carries one kind exactly when loaded; kinds differ between ships"),
    Rule("trading_house", "trading_house.corn", "at most 4 barrels"),
    Rule("faceup", "faceup_plantations.corn", "at most players + 1 face-up plantations"),
    Rule("conservation", "goods_supply.corn",
         "every barrel, plantation, quarry, forest, building, colonist and VP chip of the setup is somewhere"),
    Rule("draft", "phase", "the drafted violet buildings fill their cost slots; the next seat drafts"),
    Rule("progress", "picks", "roles taken, the player to move and every phase field agree with the phase"),
    Rule("has_move", "current_player", "the player to move has a legal move"),
)


#: The fields of an Expansion I game a base game leaves unset.
EXPANSION_ONLY = ("new_buildings", *(f"progress.{f}" for f in (
    "hacienda_tile", "window", "privilege_left", "black_market", "small_wharf_barrels", "made", "kept")),
    "players[*].forests", "players[*].small_wharf_done",
    *(f"building_supply.{b.name}" for b in BUILDINGS[NUM_BASE_BUILDINGS:]))


def _schema(v2: bool) -> Schema:
    buildings = NUM_BUILDINGS if v2 else NUM_BASE_BUILDINGS
    cells = _globals(v2, buildings) + _board(v2, buildings) + per_seat(MAX_PLAYERS,
                                                                       lambda: _player(v2, buildings))
    return Schema(GAME_ID, 2 if v2 else 1, (FIRST, LAST), tuple(cells), RULES,
                  labels=tuple((f"roles[{r}].role", role) for r, role in enumerate(ROLES))
                  + ((("options.expansion", EXPANSION),) if v2 else ()),
                  foreign=() if v2 else EXPANSION_ONLY,
                  foreign_note='only in an Expansion I game (options.expansion: "new-buildings")')


def schema_of(message: object) -> Schema:
    """The layout of a PuertoRicoState message: v2 for an Expansion I game."""
    expansion = message.options.expansion  # type: ignore[attr-defined]
    if expansion not in ("", "none", EXPANSION):
        raise PositionError("options.expansion", f"{expansion!r} is not one of 'none', {EXPANSION!r}")
    return V2 if expansion == EXPANSION else V1


V1, V2 = _schema(False), _schema(True)
SCHEMAS = (V1, V2)
