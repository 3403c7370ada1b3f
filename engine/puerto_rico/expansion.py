"""Expansion I, *The New Buildings* (rules §5 and the decision table), as a subclass
of the base ``State`` that overrides its phase methods and hooks.

The setup drafts the 17 violet slots (``draft:B`` moves, governor first, clockwise) unless
``draft=random`` or ``buildings=…`` fills them.  Decisions follow the base conventions:
one simple move at a time, canonical orders so that no outcome is reachable twice
(Black Market give-ups colonist, barrel, VP; Small Wharf barrels, Library craftsman
barrels and Guest House moves in non-decreasing kind or slot order), a lone legal
move played automatically, chance only from the ``rng``.

Details the decision table leaves open, and what this engine does:

* Guest House windows come before anything else of their phase (before the Captain's
  Union Hall and Lighthouse income); the one before the final scoring runs from the
  governor.  A guest may move to any empty circle of a plantation, quarry or building.
* Black Market: the University's colonist is in use in every build; a quarry's colonist
  may go only while more quarries are occupied than the building's column (the discount
  stays); the Forest House's not with 2 forests or more, the Library's not when its owner
  is the builder, the Church's not when the building earns chips.  The University colonist
  comes after the give-ups; ``build:B/decline`` declines it where, with the supply as it is or
  one given-up colonist more, it could trigger the game end (``bm_declined`` keeps the choice).
* A Captain-phase ``pass`` without a load declines the Wharf and the Small Wharf for the
  rest of the phase (the base game's rule for the Wharf).
* The Lighthouse's captain doubloon is not a privilege: the Library does not double it.
* Like the base game's, a position hides nothing but the stack order: the drawn Hacienda
  tile and the discarded plantations are public.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rng import Rng
from .data import (
    AQUEDUCT, BLACK_MARKET, BUILDING_IDS, BUILDINGS, CHURCH, CHURCH_VP, CITY_SPACES, CLOISTER,
    CLOISTER_VP, CONSTRUCTION_HUT, DRAFT_PICKS, DRAFT_SLOTS, FOREST_HOUSE, FORESTS, GUEST_HOUSE, HARBOR,
    INDIGO, INDIGO_PLANT, ISLAND_SPACES, LIBRARY, LIGHTHOUSE, NUM_BUILDINGS, PRICES, SMALL_WHARF,
    SPECIALTY_FACTORY, STOREHOUSE, STOREHOUSE_BARRELS, SUGAR, SUGAR_MILL, TRADING_POST, UNION_HALL, UNIVERSITY, VIOLET,
    building_cost, building_count,
)
from .moves import GIVE_VP, NUM_SLOTS, SLOT_BUILDING, SLOT_QUARRY, SLOT_SAN_JUAN, Move
from .state import (
    END, NK, PH_CAPTAIN, PH_CRAFTSMAN, PH_DRAFT, PH_GUESTS, PH_TRADER, ROLE, Player, State, _score,
    _setup,
)

EXPANSION = "new-buildings"
#: Setup options of ``new_game``: allowed values (``None``: comma-separated building names).
SETUP_OPTIONS: dict[str, tuple[str, ...] | None] = {
    "expansion": ("none", EXPANSION), "draft": ("players", "random"), "buildings": None}
#: The phases a Guest House window comes before.
WINDOWS = (PH_CRAFTSMAN, PH_TRADER, PH_CAPTAIN, END)
#: Black Market give-up categories, in the order they are given (``bm_given``: the last one).
GIVE_CATEGORIES = ("", "colonist", "barrel", "vp")
GIVE_COLONIST, GIVE_BARREL, GIVE_CHIP = 1, 2, 3
_GUEST_SLOT = SLOT_BUILDING + GUEST_HOUSE


def _production_buildings() -> list[bool]:
    return [not BUILDINGS[b].violet for b in range(NUM_BUILDINGS)]


@dataclass
class ExpansionState(State):
    """A position of a game with Expansion I."""

    forest_supply: int = FORESTS
    in_game: list[bool] = field(default_factory=_production_buildings)  # building types in play
    hacienda_tile: int = -1  # settler: the drawn Hacienda tile, waiting to be planted or a forest
    window: int = -1  # guests: the phase this Guest House window comes before
    privilege_left: int = 0  # craftsman: privilege barrels still to take
    bm_building: int = -1  # builder: the building being paid with the Black Market
    bm_due: int = 0  # builder: give-ups still owed
    bm_given: int = 0  # builder: the last give-up category given (0: none yet)
    bm_declined: bool = False  # builder: the Black Market build goes without the University colonist
    wharf_barrels: int = 0  # captain: barrels shipped by the Small Wharf action under way
    made: list[int] = field(default_factory=lambda: [0] * NK)  # craftsman: the craftsman's barrels

    def _privilege_size(self, seat: int) -> int:
        """The Library doubles every privilege of its owner."""
        return 2 if self.players[seat].occupied(LIBRARY) else 1

    # ------------------------------------------------------------------ draft
    def free_slots(self, cost: int) -> int:
        """Violet slots of ``cost`` the draft has not filled yet."""
        taken = sum(1 for b in VIOLET if self.in_game[b] and self._cost(b) == cost)
        return DRAFT_SLOTS.get(cost, 0) - taken

    def drafted(self) -> int:
        return sum(1 for b in VIOLET if self.in_game[b])

    def _draft_moves(self) -> list[Move]:
        return [Move("draft", b) for b in VIOLET if not self.in_game[b] and self.free_slots(self._cost(b))]

    def _do_draft(self, move: Move, rng: Rng) -> None:
        self._put_in_game(move.arg)
        picks = self.drafted()
        if picks == DRAFT_PICKS:
            self.phase, self.current = ROLE, self.governor
        else:
            self.current = (self.governor + picks) % self.num_players

    def _put_in_game(self, b: int) -> None:
        self.in_game[b] = True
        self.building_supply[b] = building_count(b, self.num_players)

    # ---------------------------------------------------------------- settler
    def _library_turn(self) -> bool:
        """The settler's extra tile (Library), after every other player has settled."""
        return self.turn == self.num_players

    def _library_quarry(self) -> bool:
        """Whether the settler's first tile was a quarry (never two in one Settler phase):
        ``last_slot`` is ``SLOT_QUARRY`` from that tile to his Library tile."""
        return self.last_slot == SLOT_QUARRY

    def _settler_options(self) -> list[Move]:
        if self.hacienda_tile >= 0:
            return [Move("hacienda_tile", 0), Move("hacienda_tile", 1)]
        p = self.players[self.current]
        moves = super()._settler_options()
        if self._library_turn():  # a face-up tile; a quarry only through a Construction Hut,
            moves = [m for m in moves if m.kind != "hacienda"  # and only if the first was none
                     and (m.kind != "quarry" or (p.occupied(CONSTRUCTION_HUT) and not self._library_quarry()))]
        if self._may_take_forest(p):
            moves += [Move("forest", k) for k in range(NK) if self.faceup[k] > 0]
        return moves

    def _may_take_forest(self, p: Player) -> bool:
        return p.occupied(FOREST_HOUSE) and self.forest_supply > 0 and p.island_used() < ISLAND_SPACES

    def _do_settler(self, move: Move, rng: Rng) -> None:
        p = self.players[self.current]
        if move.kind == "quarry" and self.turn == 0 and p.occupied(LIBRARY):
            self.last_slot = SLOT_QUARRY  # the Library tile will not be a second quarry
        if move.kind == "hacienda" and self._may_take_forest(p):
            self.hacienda_tile, self.hacienda_done = self._draw_plantation(rng), True
        elif move.kind == "hacienda_tile":
            tile, self.hacienda_tile = self.hacienda_tile, -1
            if move.arg:
                self.discard[tile] += 1
                self._take_forest(p)
            else:
                p.plantations[tile] += 1
        elif move.kind == "forest":
            self.faceup[move.arg] -= 1
            self.discard[move.arg] += 1
            self._take_forest(p)
            if self._hospice_colonist(p, move):
                p.san_juan += 1  # a forest has no circle
            self.hacienda_done = False
            self._next_turn(lambda: self._finish_settler(rng))
        else:
            super()._do_settler(move, rng)

    def _take_forest(self, p: Player) -> None:
        self.forest_supply -= 1
        p.forests += 1

    def _gets_hospice_colonist(self, p: Player) -> bool:
        """None for the Library tile."""
        return not self._library_turn() and super()._gets_hospice_colonist(p)

    def _finish_settler(self, rng: Rng) -> None:
        if self.turn == self.num_players and self.players[self.chooser].occupied(LIBRARY):
            self.current = self.chooser
            return
        self.last_slot = 0
        super()._finish_settler(rng)

    # ---------------------------------------------------------------- builder
    def _discount(self, player: int, b: int) -> int:
        """Every 2 forests take 1 more doubloon off (no column cap)."""
        p = self.players[player]
        return super()._discount(player, b) + (p.forests // 2 if p.occupied(FOREST_HOUSE) else 0)

    def _builder_moves(self) -> list[Move]:
        if self.bm_due:
            return self._give_moves()
        moves = super()._builder_moves()
        p = self.players[self.current]
        if not p.occupied(BLACK_MARKET):
            return moves
        free = CITY_SPACES - p.city_used()
        for b in range(NUM_BUILDINGS):
            if self.building_supply[b] > 0 and not p.owns(b) and BUILDINGS[b].spaces <= free:
                short = self._price(self.current, b) - p.doubloons
                cats = self._give_categories(b)
                if 0 < short <= len(cats):
                    moves.append(Move("build", b))
                    if self._university_may_end(b, cats):
                        moves.append(Move("build", b, declined=True))
        return moves

    def _university_may_end(self, b: int, cats: list[tuple[int, list[Move]]]) -> bool:
        """Whether the University colonist of a Black Market build of ``b`` could trigger the
        game end once the give-ups are made: they may return one colonist to the supply first."""
        if not (self.players[self.current].occupied(UNIVERSITY) and BUILDINGS[b].circles):
            return False
        returned = any(c == GIVE_COLONIST for c, _ in cats)
        return self._colonist_may_end() or (returned and self._colonist_may_end(returned=1))

    def _give_categories(self, b: int) -> list[tuple[int, list[Move]]]:
        """(category, moves) of every give-up the builder of ``b`` can make, in order."""
        p = self.players[self.current]
        cats = [(GIVE_COLONIST, [Move("give_colonist", s) for s in self._colonist_sources(b)]),
                (GIVE_BARREL, [Move("give", k) for k in range(NK) if p.goods[k]]),
                (GIVE_CHIP, [Move("give", GIVE_VP)] if p.vp_chips > 0 else [])]
        return [(c, moves) for c, moves in cats if moves]

    def _colonist_sources(self, b: int) -> list[int]:
        """Where the builder of ``b`` may take a colonist from: not the Black Market, nor a
        building or quarry whose builder function this build uses."""
        p = self.players[self.current]
        sources = [SLOT_SAN_JUAN] if p.san_juan else []
        sources += [k for k in range(NK) if p.plantation_colonists[k]]
        if p.quarry_colonists > BUILDINGS[b].column:
            sources.append(SLOT_QUARRY)
        in_use = {BLACK_MARKET, UNIVERSITY}
        if CHURCH_VP[BUILDINGS[b].column]:
            in_use.add(CHURCH)
        if self.current == self.chooser:
            in_use.add(LIBRARY)
        if p.forests >= 2:
            in_use.add(FOREST_HOUSE)
        sources += [SLOT_BUILDING + x for x in range(NUM_BUILDINGS) if p.buildings[x] > 0 and x not in in_use]
        return sources

    def _give_moves(self) -> list[Move]:
        cats = [(c, moves) for c, moves in self._give_categories(self.bm_building) if c > self.bm_given]
        return [m for i, (_, moves) in enumerate(cats) if len(cats) - i >= self.bm_due for m in moves]

    def _do_builder(self, move: Move, rng: Rng) -> None:
        p = self.players[self.current]
        if move.kind == "build" and self._price(self.current, move.arg) > p.doubloons:
            self.bm_building = move.arg
            self.bm_due = self._price(self.current, move.arg) - p.doubloons
            self.bm_declined = move.declined  # the colonist comes after the give-ups
            return
        if move.kind not in ("give", "give_colonist"):
            super()._do_builder(move, rng)
            return
        self._give(p, move)
        self.bm_due -= 1
        if self.bm_due == 0:
            b, self.bm_building, self.bm_given = self.bm_building, -1, 0
            colonist, self.bm_declined = not self.bm_declined, False
            self._build(b, p.doubloons, colonist)  # the Black Market covers a shortfall only
            self._next_turn(self._end_phase)

    def _give(self, p: Player, move: Move) -> None:
        """One Black Market give-up, back to its supply."""
        s = move.arg
        if move.kind == "give_colonist":
            self.bm_given = GIVE_COLONIST
            self.colonist_supply += 1
            if s == SLOT_SAN_JUAN:
                p.san_juan -= 1
            else:
                p.staff(s, -1)
        elif s == GIVE_VP:
            self.bm_given = GIVE_CHIP
            self._give_vp(p, -1)
        else:
            self.bm_given = GIVE_BARREL
            p.goods[s] -= 1
            self.goods_supply[s] += 1

    def _build(self, b: int, price: int, colonist: bool = True) -> None:
        """The Church pays chips by the column (they never end the game)."""
        p = self.players[self.current]
        chips = CHURCH_VP[BUILDINGS[b].column] if p.occupied(CHURCH) else 0
        super()._build(b, price, colonist)
        self._give_vp(p, chips)

    # ------------------------------------------------------ guest house windows
    def _open_window(self, before: int) -> None:
        self.window, self.turn = before, 0
        self._next_guest_owner()

    def _guest_slots(self, seat: int, lowest: int) -> list[int]:
        p = self.players[seat]
        if p.buildings[GUEST_HOUSE] <= 0:
            return []
        return [s for s in range(lowest, NUM_SLOTS)
                if s != _GUEST_SLOT and p.slot_capacity(s) > p.slot_filled(s)]

    def _next_guest_owner(self) -> None:
        while self.turn < self.num_players:
            seat = self._seat(self.turn)
            if self._guest_slots(seat, 0):
                self.phase, self.current, self.last_slot = PH_GUESTS, seat, 0
                return
            self.turn += 1
        before, self.window, self.turn, self.last_slot = self.window, -1, 0, 0
        if before == PH_CRAFTSMAN:
            self._produce()
        elif before == PH_TRADER:
            self.phase, self.current = PH_TRADER, self.chooser
        elif before == PH_CAPTAIN:
            self._captain_income()
        else:
            super()._finish_game()

    def _guest_moves(self) -> list[Move]:
        return [Move("guest", s) for s in self._guest_slots(self.current, self.last_slot)] + [Move("pass")]

    def _do_guests(self, move: Move, rng: Rng) -> None:
        if move.kind == "pass":
            self.turn += 1
            self._next_guest_owner()
            return
        p, s = self.players[self.current], move.arg
        p.buildings[GUEST_HOUSE] -= 1
        p.staff(s, 1)
        self.last_slot = s

    def _finish_game(self) -> None:
        self.chooser = self.governor
        self._open_window(END)

    # -------------------------------------------------------------- craftsman
    def _start_craftsman(self, rng: Rng) -> None:
        self._open_window(PH_CRAFTSMAN)

    def _produce(self) -> None:
        self.privilege_left = self._privilege(self.chooser)
        super()._produce()

    def _production(self, seat: int) -> list[int]:
        """Aqueduct barrels, then the Specialty Factory (the craftsman's after his privilege)."""
        got = super()._production(seat)
        p = self.players[seat]
        if p.occupied(AQUEDUCT):
            for k, plant in ((INDIGO, INDIGO_PLANT), (SUGAR, SUGAR_MILL)):
                if got[k] and p.occupied(plant) and self.goods_supply[k] > 0:
                    got[k] += 1
                    self.goods_supply[k] -= 1
                    p.goods[k] += 1
        if seat == self.chooser:
            self.made = got[:]
        elif p.occupied(SPECIALTY_FACTORY):
            p.doubloons += _specialty_income(got)
        return got

    def _craftsman_moves(self) -> list[Move]:
        """Privilege barrels (two with a Library) in non-decreasing kind order, as many as possible."""
        avail = [self.goods_supply[k] if self.produced >> k & 1 and k >= self.last_slot else 0
                 for k in range(NK)]
        need = min(self.privilege_left, sum(avail))
        return [Move("craft", k) for k in range(NK) if need and avail[k] and sum(avail[k:]) >= need]

    def _do_craftsman(self, move: Move, rng: Rng) -> None:
        k = move.arg
        self.goods_supply[k] -= 1
        self.players[self.current].goods[k] += 1
        self.made[k] += 1
        self.privilege_left -= 1
        self.last_slot = k
        if not self._craftsman_moves():
            self._finish_craftsman()

    def _finish_craftsman(self) -> None:
        p = self.players[self.chooser]
        if p.occupied(SPECIALTY_FACTORY):
            p.doubloons += _specialty_income(self.made)
        self.made, self.privilege_left, self.last_slot = [0] * NK, 0, 0
        super()._finish_craftsman()

    # ----------------------------------------------------------------- trader
    def _start_trader(self, rng: Rng) -> None:
        self._open_window(PH_TRADER)

    def _trader_moves(self) -> list[Move]:
        moves = super()._trader_moves()
        p = self.players[self.current]
        if p.occupied(TRADING_POST):
            moves += [Move("post", k) for k in range(NK) if p.goods[k] > 0]
        return moves

    def _do_trader(self, move: Move, rng: Rng) -> None:
        if move.kind != "post":
            super()._do_trader(move, rng)
            return
        k, p = move.arg, self.players[self.current]  # the privilege counts, the markets do not
        p.goods[k] -= 1
        self.goods_supply[k] += 1
        p.doubloons += PRICES[k] + self._privilege(self.current)
        self._next_turn(self._finish_trader)

    # ---------------------------------------------------------------- captain
    def _start_captain(self, rng: Rng) -> None:
        self._open_window(PH_CAPTAIN)

    def _captain_income(self) -> None:
        """Union Hall chips and the captain's Lighthouse doubloon, then the loading."""
        self.phase = PH_CAPTAIN
        paid = 0
        for i in range(self.num_players):
            p = self.players[self._seat(i)]
            if p.occupied(UNION_HALL):
                vp = sum(g // 2 for g in p.goods)
                self._give_vp(p, vp)
                paid += vp
        if paid and self.vp_supply <= 0:
            self.end_triggered = True
        if self.players[self.chooser].occupied(LIGHTHOUSE):
            self.players[self.chooser].doubloons += 1
        self._next_captain_turn(self.chooser)

    def _captain_options(self, player: int) -> list[Move]:
        if self.wharf_barrels and player == self.current:
            p = self.players[player]
            return [Move("small_wharf", k) for k in range(self.last_slot, NK) if p.goods[k]] + [Move("pass")]
        return super()._captain_options(player)

    def _first_load_vp(self, player: int) -> set[int]:
        """Also a Small Wharf load of any size (none while one is under way)."""
        if self.wharf_barrels and player == self.current:
            return set()
        vp, p = super()._first_load_vp(player), self.players[player]
        if any(m.kind == "small_wharf" for m in self._captain_options(player)):
            vp |= {barrels // 2 + p.occupied(HARBOR) for barrels in range(1, sum(p.goods) + 1)}
        return vp

    def _captain_alternatives(self, player: int) -> list[Move]:
        moves = super()._captain_alternatives(player)
        p = self.players[player]
        if p.occupied(SMALL_WHARF) and not p.small_wharf_done and sum(p.goods) > 0:
            moves += [Move("small_wharf", k) for k in range(NK) if p.goods[k] > 0]
        return moves

    def _do_captain(self, move: Move, rng: Rng) -> None:
        seat, p = self.current, self.players[self.current]
        if move.kind == "small_wharf":
            k = move.arg
            p.goods[k] -= 1
            self.goods_supply[k] += 1
            p.small_wharf_done = True
            self.wharf_barrels += 1
            self.last_slot = k
        elif move.kind == "pass" and self.wharf_barrels:  # the Small Wharf load is complete
            barrels, self.wharf_barrels, self.last_slot = self.wharf_barrels, 0, 0
            self._loaded(seat, barrels // 2)
            self._next_captain_turn(self._next_seat(seat))
        else:
            if move.kind == "pass":
                p.small_wharf_done = True
            super()._do_captain(move, rng)

    def _loaded(self, seat: int, vp: int) -> None:
        super()._loaded(seat, vp)
        if self.players[seat].occupied(LIGHTHOUSE):
            self.players[seat].doubloons += 1

    def _storage_allowance(self, p: Player) -> tuple[int, int]:
        w, free = super()._storage_allowance(p)
        return w, free + STOREHOUSE_BARRELS * p.occupied(STOREHOUSE)

    def _finish_captain(self) -> None:
        for p in self.players:
            p.small_wharf_done = False
        super()._finish_captain()

    # ---------------------------------------------------------------- scoring
    def scores(self) -> list[int]:
        return [_score(p) + (_cloister_bonus(p) if p.occupied(CLOISTER) else 0) for p in self.players]


def _specialty_income(got: list[int]) -> int:
    """The largest number of barrels of one kind (corn excluded), minus 1."""
    return max(0, max(got[1:]) - 1)


def _cloister_bonus(p: Player) -> int:
    sets = sum(n // 3 for n in p.plantations) + p.quarries // 3 + p.forests // 3
    return CLOISTER_VP[min(sets, len(CLOISTER_VP) - 1)]


def new_expansion_game(players: int, seed: int, options: dict[str, bool | str]) -> ExpansionState:
    """A game with Expansion I: the base setup from ``seed``, then the violet buildings by the
    draft (``draft=players``, default: moves), at random (``draft=random``, from the same rng)
    or from ``buildings`` (17 names, comma-separated).  Raises ValueError naming the option."""
    expansion, draft = options.get("expansion"), options.get("draft", "players")
    kinds, drafts = SETUP_OPTIONS["expansion"] or (), SETUP_OPTIONS["draft"] or ()
    if expansion != EXPANSION:
        raise ValueError(f"expansion: {expansion!r} is not one of {', '.join(map(repr, kinds))} "
                         "(draft and buildings need expansion=new-buildings)")
    if draft not in drafts:
        raise ValueError(f"draft: {draft!r} is not one of {', '.join(map(repr, drafts))}")
    listed = options.get("buildings")
    if listed is not None and draft == "random":
        raise ValueError("buildings: a fixed list cannot be combined with draft=random")
    swap = bool(options.get("university_factory_swap", False))
    state, rng = _setup(ExpansionState, players, seed, swap, lambda b: not BUILDINGS[b].violet)
    assert isinstance(state, ExpansionState)
    state.options["expansion"] = EXPANSION
    if listed is not None:
        chosen = parse_buildings(listed, swap)
    elif draft == "random":
        chosen = _random_buildings(rng, swap)
    else:
        state.phase = PH_DRAFT
        return state
    for b in chosen:
        state._put_in_game(b)
    return state


def _random_buildings(rng: Rng, swap: bool) -> list[int]:
    """Each cost's slots filled uniformly from its candidates, cheapest cost first."""
    chosen = []
    for cost, slots in sorted(DRAFT_SLOTS.items()):
        candidates = [b for b in VIOLET if building_cost(b, swap) == cost]
        for _ in range(slots):
            chosen.append(candidates.pop(rng.below(len(candidates))))
    return chosen


def parse_buildings(listed: object, swap: bool = False) -> list[int]:
    """The 17 violet building ids of a ``buildings`` option (names, comma-separated);
    raises ValueError naming what is wrong."""
    if not isinstance(listed, str):
        raise ValueError(f"buildings: expected comma-separated building names, got {listed!r}")
    names = [n.strip() for n in listed.split(",") if n.strip()]
    chosen: list[int] = []
    for name in names:
        if name not in BUILDING_IDS:
            raise ValueError(f"buildings: {name!r} is not a building")
        b = BUILDING_IDS[name]
        if b not in VIOLET:
            raise ValueError(f"buildings: {name} is a production building (list violet buildings only)")
        if b in chosen:
            raise ValueError(f"buildings: {name} is listed twice")
        chosen.append(b)
    for cost, slots in sorted(DRAFT_SLOTS.items()):
        at_cost = [BUILDINGS[b].name for b in chosen if building_cost(b, swap) == cost]
        if len(at_cost) != slots:
            candidates = [BUILDINGS[b].name for b in VIOLET if building_cost(b, swap) == cost]
            raise ValueError(f"buildings: {len(at_cost)} of cost {cost} listed "
                             f"({', '.join(at_cost) or 'none'}), the game has {slots} slot(s) of cost "
                             f"{cost} (candidates: {', '.join(candidates)})")
    return chosen
