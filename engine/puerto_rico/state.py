"""Puerto Rico reference rules (``../shared/rules/puerto_rico.md``), written for clarity.

A ``State`` is a whole position.  ``apply`` returns a new state; the private
``_do_*`` methods mutate a fresh copy.  Conventions, the same in the C twin:

* A player is asked only when he has a real choice.  A decision with exactly one
  legal move is played automatically (``apply`` keeps resolving until a player has
  two or more moves, or the game is over), so ``legal_moves()`` never has length 1.
* Free gains are automatic: the privileges of builder, trader, captain and
  prospector, the mayor's extra colonist, the Hospice and University colonists and
  the Factory income.  Choices between alternatives are moves.  Every privilege is
  optional: where taking the mayor's colonists or the captain's VP could trigger the
  game end, a ``decline`` move is offered beside it (``_privilege_may_end``); where the
  Hospice or University colonist could, the settle or build move comes twice, the second
  time ``declined`` (``_colonist_may_end``).
* Storage keeps as much as allowed: a player chooses only which kinds go into his
  warehouses (``store:K``, ascending) and which kinds give the free barrels
  (``keep:K``, one barrel at a time, ascending; a position's choices made so far may be
  in any order, the order applies to the rest); a player who can keep everything
  keeps everything.
* The face-down plantations are a multiset (counts per kind); every draw is a chance
  event resolved by the ``rng`` (uniform over the tiles left), so their order is
  never part of a position.

Expansion I lives in ``expansion.py``: a subclass that overrides the phase methods
and the small hooks marked "hook" below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict, TypeVar

from ..game_state import GameState
from ..rng import Rng
from .data import (
    BUILDER, BUILDINGS, CAPTAIN, CITY_HALL, CITY_SPACES, CONSTRUCTION_HUT, CORN, CRAFTSMAN,
    CUSTOMS_HOUSE, FACTORY, FACTORY_INCOME, FREE_BARRELS, FORTRESS, GOODS, GUILD_HALL, HACIENDA, HARBOR,
    HOSPICE, ISLAND_SPACES, LARGE_MARKET, LIMIT, LARGE_WAREHOUSE, MAYOR, NUM_BUILDINGS,
    OFFICE, PRICES, PROSPECTOR, PROSPECTOR2, RESIDENCE, SETTLER, SETUPS, SMALL_MARKET,
    SMALL_WAREHOUSE, TRADER, UNIVERSITY, WHARF, building_cost, building_count,
)
from .moves import NUM_SLOTS, SLOT_BUILDING, SLOT_QUARRY, Move

NK = len(GOODS)
PHASES = ("role", "settler", "mayor", "builder", "craftsman", "trader", "captain", "storage", "end",
          "draft", "guests")
(ROLE, PH_SETTLER, PH_MAYOR, PH_BUILDER, PH_CRAFTSMAN, PH_TRADER, PH_CAPTAIN, PH_STORAGE, END,
 PH_DRAFT, PH_GUESTS) = range(11)  # the last two only in expansion games
_ROLE_PHASE = {SETTLER: PH_SETTLER, MAYOR: PH_MAYOR, BUILDER: PH_BUILDER, CRAFTSMAN: PH_CRAFTSMAN,
               TRADER: PH_TRADER, CAPTAIN: PH_CAPTAIN}
#: Rule switches (true/false).  The expansion's setup options are ``expansion.SETUP_OPTIONS``.
OPTIONS = ("university_factory_swap",)
_T = TypeVar("_T")


class Options(TypedDict, total=False):
    """A position's options: the rule switches, and ``expansion`` in Expansion I games."""

    university_factory_swap: bool
    expansion: str


@dataclass
class Player:
    doubloons: int
    vp_chips: int = 0
    goods: list[int] = field(default_factory=lambda: [0] * NK)
    plantations: list[int] = field(default_factory=lambda: [0] * NK)
    plantation_colonists: list[int] = field(default_factory=lambda: [0] * NK)
    quarries: int = 0
    quarry_colonists: int = 0
    buildings: list[int] = field(default_factory=lambda: [-1] * NUM_BUILDINGS)  # -1: not owned
    san_juan: int = 0
    wharf_done: bool = False  # Wharf used or declined this Captain phase
    forests: int = 0  # expansion: forest tiles on the island
    small_wharf_done: bool = False  # expansion: Small Wharf used or declined this Captain phase

    def copy(self) -> Player:
        return _copy_fields(self)

    def occupied(self, b: int) -> bool:
        return self.buildings[b] > 0

    def owns(self, b: int) -> bool:
        return self.buildings[b] >= 0

    def island_used(self) -> int:
        return sum(self.plantations) + self.quarries + self.forests

    def city_used(self) -> int:
        return sum(BUILDINGS[b].spaces for b in range(NUM_BUILDINGS) if self.buildings[b] >= 0)

    def colonists(self) -> int:
        return (self.san_juan + sum(self.plantation_colonists) + self.quarry_colonists
                + sum(c for c in self.buildings if c > 0))

    def slot_capacity(self, slot: int) -> int:
        if slot < NK:
            return self.plantations[slot]
        if slot == SLOT_QUARRY:
            return self.quarries
        b = slot - SLOT_BUILDING
        return BUILDINGS[b].circles if self.buildings[b] >= 0 else 0

    def slot_filled(self, slot: int) -> int:
        if slot < NK:
            return self.plantation_colonists[slot]
        if slot == SLOT_QUARRY:
            return self.quarry_colonists
        return max(self.buildings[slot - SLOT_BUILDING], 0)

    def staff(self, slot: int, delta: int) -> None:
        """Add ``delta`` colonists (negative: remove) on a Mayor slot."""
        if slot < NK:
            self.plantation_colonists[slot] += delta
        elif slot == SLOT_QUARRY:
            self.quarry_colonists += delta
        else:
            self.buildings[slot - SLOT_BUILDING] += delta

    def empty_building_circles(self) -> int:
        return sum(BUILDINGS[b].circles - c for b, c in enumerate(self.buildings) if c >= 0)

    def production(self) -> list[int]:
        """Barrels of each kind the player can produce (before supply limits)."""
        circles = [0] * NK
        for b, c in enumerate(self.buildings):
            g = BUILDINGS[b].good
            if g is not None and c > 0:
                circles[g] += c
        out = [self.plantation_colonists[CORN]] + [0] * (NK - 1)
        for k in range(1, NK):
            out[k] = min(self.plantation_colonists[k], circles[k])
        return out


@dataclass
class State(GameState):
    """A Puerto Rico position: everything on the table plus where the turn stands."""

    players: list[Player]
    options: Options
    governor: int
    phase: int = ROLE
    current: int = 0  # player to move; -1 when the game is over
    chooser: int = 0  # who picked the role being played
    turn: int = 0  # players done in this phase (seat offset from the chooser)
    picks: int = 0  # roles picked this round
    end_triggered: bool = False
    colonist_supply: int = 0
    colonist_ship: int = 0
    vp_supply: int = 0  # goes below 0 when the chips run out: scoring continues on paper
    goods_supply: list[int] = field(default_factory=lambda: [0] * NK)
    house: list[int] = field(default_factory=lambda: [0] * NK)
    ship_capacity: list[int] = field(default_factory=list)
    ship_kind: list[int] = field(default_factory=list)  # -1: empty
    ship_count: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=lambda: [0] * NK)  # face-down plantations
    faceup: list[int] = field(default_factory=lambda: [0] * NK)
    discard: list[int] = field(default_factory=lambda: [0] * NK)
    quarry_supply: int = 0
    building_supply: list[int] = field(default_factory=lambda: [0] * NUM_BUILDINGS)
    role_doubloons: list[int] = field(default_factory=list)  # per role card in play
    role_taken: list[bool] = field(default_factory=list)
    # Progress inside a phase.
    hacienda_done: bool = False  # settler: the current player drew his Hacienda tile
    to_place: int = 0  # mayor: colonists the current player still places
    last_slot: int = 0  # mayor: placements go in non-decreasing slot order
    produced: int = 0  # craftsman: bitmask of kinds the craftsman produced
    captain_loaded: bool = False  # captain: the captain's privilege VP was given
    store_mask: int = 0  # storage: kinds the current player put in warehouses
    kept: list[int] = field(default_factory=lambda: [0] * NK)  # storage: free barrels kept so far

    # ------------------------------------------------------------------ basics
    game_id = "puerto-rico"

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def current_player(self) -> int | None:
        return None if self.phase == END else self.current

    @property
    def is_terminal(self) -> bool:
        return self.phase == END

    def copy(self) -> State:
        c = _copy_fields(self)
        c.players = [p.copy() for p in self.players]
        c.options = self.options.copy()
        return c

    def _next_seat(self, p: int) -> int:
        return (p + 1) % self.num_players

    def _seat(self, offset: int) -> int:
        return (self.chooser + offset) % self.num_players

    def _cost(self, b: int) -> int:
        return building_cost(b, self.options.get("university_factory_swap", False))

    def _privilege(self, seat: int) -> int:
        """The size of ``seat``'s privilege in the role being played (0: not the chooser)."""
        return self._privilege_size(seat) if seat == self.chooser else 0

    def _privilege_size(self, seat: int) -> int:
        """Hook: the size of the privileges of the roles ``seat`` picks."""
        return 1

    @staticmethod
    def _privilege_may_end(gain: int, before: int, supply: int) -> bool:
        """Whether a privilege of ``gain`` could be what triggers the game end: ``supply``
        lasts after ``before`` is spent but not after ``before + gain`` more (the decline is
        then a move). Colonists: the ship's least refill, one per player, must be left."""
        return before < supply <= before + gain

    def _colonist_may_end(self, returned: int = 0) -> bool:
        """Whether one colonist from the supply (Hospice, University) could be what triggers
        the game end: it is among those the ship's least refill, one per player, needs (with
        ``returned`` more in the supply by then: a Black Market give-up)."""
        return self._privilege_may_end(1, self.num_players - 1, self.colonist_supply + returned)

    @staticmethod
    def _with_declines(moves: list[Move], may_decline: Callable[[Move], bool]) -> list[Move]:
        """``moves`` and, for those ``may_decline`` accepts, their variants declining the colonist."""
        return moves + [Move(m.kind, m.arg, declined=True) for m in moves if may_decline(m)]

    # ------------------------------------------------------------- legal moves
    def legal_action_ids(self) -> list[int]:
        moves = getattr(self, _GENERATORS[self.phase])()
        return sorted(m.id for m in moves)

    def _no_moves(self) -> list[Move]:
        return []

    def _role_moves(self) -> list[Move]:
        moves = []
        for r, taken in enumerate(self.role_taken):
            if taken:
                continue
            if r == PROSPECTOR2 and not self.role_taken[PROSPECTOR] \
                    and self.role_doubloons[PROSPECTOR] == self.role_doubloons[PROSPECTOR2]:
                continue  # identical to the first prospector card
            moves.append(Move("role", r))
        size = self._privilege_size(self.current)
        if not self.role_taken[MAYOR] and self._privilege_may_end(size, self.num_players - 1, self.colonist_supply):
            moves.append(Move("decline", MAYOR))
        return moves

    def _settler_moves(self) -> list[Move]:
        return self._with_declines(self._settler_options(), self._hospice_may_decline)

    def _settler_options(self) -> list[Move]:
        """Hook: the settler-phase moves, each with the Hospice colonist it brings."""
        p = self.players[self.current]
        free = ISLAND_SPACES - p.island_used()
        moves = [Move("pass")]
        if free <= 0:
            return moves
        moves += [Move("settle", k) for k in range(NK) if self.faceup[k] > 0]
        may_quarry = self.current == self.chooser or p.occupied(CONSTRUCTION_HUT)
        if may_quarry and self.quarry_supply > 0:
            moves.append(Move("quarry"))
        if p.occupied(HACIENDA) and not self.hacienda_done and sum(self.deck) + sum(self.discard) > 0:
            moves.append(Move("hacienda"))
        return moves

    def _hospice_may_decline(self, move: Move) -> bool:
        """Whether ``move`` takes a tile whose Hospice colonist could trigger the game end."""
        return move.kind in ("settle", "quarry", "forest") and self._gets_hospice_colonist(
            self.players[self.current]) and self._colonist_may_end()

    def _mayor_moves(self) -> list[Move]:
        p = self.players[self.current]
        free = [p.slot_capacity(s) - p.slot_filled(s) for s in range(NUM_SLOTS)]
        moves = []
        room_from = sum(free[self.last_slot:])
        for s in range(self.last_slot, NUM_SLOTS):
            if free[s] > 0 and room_from >= self.to_place:
                moves.append(Move("place", s))
            room_from -= free[s]
        return moves

    def _price(self, player: int, b: int) -> int:
        return max(0, self._cost(b) - self._discount(player, b))

    def _discount(self, player: int, b: int) -> int:
        """Hook: occupied quarries up to the column, plus the builder's privilege."""
        return min(self.players[player].quarry_colonists, BUILDINGS[b].column) + self._privilege(player)

    def _builder_moves(self) -> list[Move]:
        p = self.players[self.current]
        free = CITY_SPACES - p.city_used()
        moves = [Move("pass")]
        for b in range(NUM_BUILDINGS):
            if (self.building_supply[b] > 0 and not p.owns(b) and BUILDINGS[b].spaces <= free
                    and self._price(self.current, b) <= p.doubloons):
                moves.append(Move("build", b))
        may_end = p.occupied(UNIVERSITY) and self._colonist_may_end()
        return self._with_declines(moves, lambda m: may_end and m.kind == "build" and BUILDINGS[m.arg].circles > 0)

    def _craftsman_moves(self) -> list[Move]:
        return [Move("craft", k) for k in range(NK)
                if self.produced >> k & 1 and self.goods_supply[k] > 0]

    def _trader_moves(self) -> list[Move]:
        p = self.players[self.current]
        moves = [Move("pass")]
        if sum(self.house) < 4:
            office = p.occupied(OFFICE)
            moves += [Move("sell", k) for k in range(NK)
                      if p.goods[k] > 0 and (office or self.house[k] == 0)]
        return moves

    def _ship_loads(self, player: int) -> list[Move]:
        """Cargo-ship loads open to a player (rules §3.6: forced maximum per kind)."""
        p = self.players[player]
        moves = []
        for k in range(NK):
            if p.goods[k] == 0:
                continue
            if k in self.ship_kind:
                s = self.ship_kind.index(k)
                if self.ship_count[s] < self.ship_capacity[s]:
                    moves.append(Move("load", k, self.ship_capacity[s]))
                continue
            empty = [s for s in range(len(self.ship_kind)) if self.ship_kind[s] < 0]
            if not empty:
                continue
            best = max(min(p.goods[k], self.ship_capacity[s]) for s in empty)
            moves += [Move("load", k, self.ship_capacity[s]) for s in empty
                      if min(p.goods[k], self.ship_capacity[s]) == best]
        return moves

    def _captain_options(self, player: int) -> list[Move]:
        loads, other = self._ship_loads(player), self._captain_alternatives(player)
        return loads + other if loads or not other else other + [Move("pass")]

    def _captain_alternatives(self, player: int) -> list[Move]:
        """Hook: optional instead-of-a-load moves (the Wharf); without a load, ``pass`` joins them."""
        p = self.players[player]
        if p.occupied(WHARF) and not p.wharf_done and sum(p.goods) > 0:
            return [Move("wharf", k) for k in range(NK) if p.goods[k] > 0]
        return []

    def _captain_moves(self) -> list[Move]:
        moves = self._captain_options(self.current)
        if self.current == self.chooser and not self.captain_loaded and any(
                self._privilege_may_end(self._privilege(self.current), vp, self.vp_supply)
                for vp in self._first_load_vp(self.current)):
            moves.append(Move("decline", CAPTAIN))
        return moves

    def _first_load_vp(self, player: int) -> set[int]:
        """Hook: the VP (Harbor included, privilege not) each loading action open to
        ``player`` now could give."""
        p = self.players[player]
        vp = set()
        for m in self._captain_options(player):
            if m.kind == "load":
                s = self.ship_capacity.index(m.capacity)
                vp.add(min(p.goods[m.arg], self.ship_capacity[s] - self.ship_count[s]))
            elif m.kind == "wharf":
                vp.add(p.goods[m.arg])
        return {v + p.occupied(HARBOR) for v in vp}

    def _storage_allowance(self, p: Player) -> tuple[int, int]:
        """Hook: (warehouse kinds, free barrels) a player keeps after the Captain phase."""
        return p.occupied(SMALL_WAREHOUSE) + 2 * p.occupied(LARGE_WAREHOUSE), FREE_BARRELS

    def _storage_sequences(self) -> list[tuple[int, ...]]:
        """The remaining move-id sequence of every storage outcome still open to the current
        player; a finished choice has the one empty sequence.

        An outcome (barrels kept per kind) keeps whole kinds in warehouses and up to the
        free-barrel allowance of the other kinds, as many as allowed; it is open while its
        warehouse kinds include those named so far (``store_mask``) and its free barrels
        those kept so far (``kept``), which may have been chosen in any order (another
        client's position).  When several warehouse sets give one outcome, the lowest
        bitmask is canonical; the sequence names its warehouse kinds not yet named
        ascending, then the free barrels still to keep one at a time, kinds ascending, so
        distinct moves lead to distinct positions."""
        p = self.players[self.current]
        w, free = self._storage_allowance(p)
        held = [k for k in range(NK) if p.goods[k] > 0]
        room = [p.goods[k] - self.kept[k] for k in range(NK)]
        canonical: dict[tuple[int, ...], int] = {}
        for mask in _subsets(held, min(w, len(held))):
            if mask & self.store_mask != self.store_mask or any(self.kept[k] for k in held if mask >> k & 1):
                continue
            rest = [k for k in held if not mask >> k & 1]
            more = min(free, sum(p.goods[k] for k in rest)) - sum(self.kept)
            for barrels in _fills(rest, room, more) if more >= 0 else []:
                outcome = tuple(p.goods[k] if mask >> k & 1 else self.kept[k] + barrels.get(k, 0)
                                for k in range(NK))
                canonical[outcome] = min(mask, canonical.get(outcome, mask))
        sequences = []
        for outcome, mask in canonical.items():
            seq = [Move("store", k).id for k in range(NK) if (mask & ~self.store_mask) >> k & 1]
            seq += [Move("keep", k).id for k in range(NK) if not mask >> k & 1
                    for _ in range(outcome[k] - self.kept[k])]
            sequences.append(tuple(seq))
        return sequences

    def _storage_moves(self) -> list[Move]:
        return [Move.from_id(a) for a in {seq[0] for seq in self._storage_sequences() if seq}]

    # ------------------------------------------------------------------- apply
    def _resolve_forced(self, rng: Rng, play_forced: bool = True) -> None:
        while play_forced and self.phase != END:
            legal = self.legal_action_ids()
            if len(legal) != 1:
                return
            self._do(Move.from_id(legal[0]), rng)

    def _do(self, move: Move, rng: Rng) -> None:
        getattr(self, _APPLY[self.phase])(move, rng)
        self._cap_money()

    def _cap_money(self) -> None:
        """Doubloons count up to LIMIT, on a player or a role card: every position play
        reaches stays one a position check accepts."""
        for p in self.players:
            p.doubloons = min(p.doubloons, LIMIT)
        self.role_doubloons = [min(d, LIMIT) for d in self.role_doubloons]

    # -- roles and rounds
    def _do_role(self, move: Move, rng: Rng) -> None:
        r, p = move.arg, self.current
        self.players[p].doubloons += self.role_doubloons[r]
        self.role_doubloons[r] = 0
        self.role_taken[r] = True
        self.chooser, self.turn = p, 0
        if r in (PROSPECTOR, PROSPECTOR2):
            self.players[p].doubloons += self._privilege(p)
            self._end_phase()
        elif move.kind == "decline":  # the Mayor without his privilege colonists
            self._start_mayor(rng, privilege=False)
        else:
            getattr(self, _START[_ROLE_PHASE[r]])(rng)

    def _end_phase(self) -> None:
        self.picks += 1
        self.turn = 0
        picks_per_round = 6 if self.num_players == 2 else self.num_players
        if self.picks < picks_per_round:
            self.phase, self.current = ROLE, (self.governor + self.picks) % self.num_players
            return
        for r, taken in enumerate(self.role_taken):
            if not taken:
                self.role_doubloons[r] += 1
            self.role_taken[r] = False
        self.picks = 0
        self.governor = self._next_seat(self.governor)
        if self.end_triggered:
            self._finish_game()
        else:
            self.phase, self.current = ROLE, self.governor

    def _finish_game(self) -> None:
        """Hook: the round is over and the end was triggered."""
        self.phase, self.current = END, -1

    def _next_turn(self, finish) -> None:  # type: ignore[no-untyped-def]
        """Give the turn to the next seat of the phase, or finish the phase."""
        self.turn += 1
        if self.turn >= self.num_players:
            finish()
        else:
            self.current = self._seat(self.turn)

    # -- settler
    def _start_settler(self, rng: Rng) -> None:
        self.phase, self.current, self.hacienda_done = PH_SETTLER, self.chooser, False

    def _do_settler(self, move: Move, rng: Rng) -> None:
        p = self.players[self.current]
        if move.kind == "hacienda":
            p.plantations[self._draw_plantation(rng)] += 1
            self.hacienda_done = True
            return
        if move.kind == "settle":
            self.faceup[move.arg] -= 1
            p.plantations[move.arg] += 1
            if self._hospice_colonist(p, move):
                p.plantation_colonists[move.arg] += 1
        elif move.kind == "quarry":
            self.quarry_supply -= 1
            p.quarries += 1
            if self._hospice_colonist(p, move):
                p.quarry_colonists += 1
        self.hacienda_done = False
        self._next_turn(lambda: self._finish_settler(rng))

    def _gets_hospice_colonist(self, p: Player) -> bool:
        """Hook: whether the tile ``p`` takes now brings a Hospice colonist."""
        return p.occupied(HOSPICE)

    def _hospice_colonist(self, p: Player, move: Move) -> bool:
        """Take the Hospice colonist of ``move``'s tile unless the move declines it."""
        return not move.declined and self._gets_hospice_colonist(p) and self._take_colonist()

    def _take_colonist(self) -> bool:
        """One colonist from the supply, else from the ship (Hospice, University)."""
        if self.colonist_supply > 0:
            self.colonist_supply -= 1
            return True
        if self.colonist_ship > 0:
            self.colonist_ship -= 1
            return True
        return False

    def _draw_plantation(self, rng: Rng) -> int:
        """Draw one face-down plantation; reshuffles the discards into an empty stack."""
        if sum(self.deck) == 0:
            self.deck, self.discard = self.discard, [0] * NK
        r = rng.below(sum(self.deck))
        for k in range(NK):
            if r < self.deck[k]:
                self.deck[k] -= 1
                return k
            r -= self.deck[k]
        raise AssertionError("unreachable: draw from an empty stack")

    def _finish_settler(self, rng: Rng) -> None:
        for k in range(NK):
            self.discard[k] += self.faceup[k]
            self.faceup[k] = 0
        for _ in range(self.num_players + 1):
            if sum(self.deck) + sum(self.discard) == 0:
                break
            self.faceup[self._draw_plantation(rng)] += 1
        self._end_phase()

    # -- mayor
    def _start_mayor(self, rng: Rng, privilege: bool = True) -> None:
        self.phase = PH_MAYOR
        for _ in range(self._privilege(self.chooser) if privilege else 0):
            if self.colonist_supply > 0:
                self.colonist_supply -= 1
                self.players[self.chooser].san_juan += 1
        n = self.num_players
        for i in range(self.colonist_ship):
            self.players[self._seat(i % n)].san_juan += 1
        self.colonist_ship = 0
        self._begin_placement()

    def _begin_placement(self) -> None:
        """Pick up the colonists of the seat ``turn`` and place what is forced."""
        while self.turn < self.num_players:
            p = self.players[self._seat(self.turn)]
            hand = p.colonists()
            p.san_juan = 0
            p.plantation_colonists = [0] * NK
            p.quarry_colonists = 0
            p.buildings = [0 if c >= 0 else -1 for c in p.buildings]
            circles = sum(p.slot_capacity(s) for s in range(NUM_SLOTS))
            if hand < circles:
                self.current, self.to_place, self.last_slot = self._seat(self.turn), hand, 0
                if hand > 0:
                    return
            else:
                _fill_all(p)
                p.san_juan = hand - circles
            self.turn += 1
        self._finish_mayor()

    def _do_mayor(self, move: Move, rng: Rng) -> None:
        p, s = self.players[self.current], move.arg
        p.staff(s, 1)
        self.to_place -= 1
        self.last_slot = s
        if self.to_place == 0:
            self.turn += 1
            self._begin_placement()

    def _finish_mayor(self) -> None:
        need = max(self.num_players, sum(p.empty_building_circles() for p in self.players))
        if self.colonist_supply < need:
            self.end_triggered = True
            need = self.colonist_supply
        self.colonist_supply -= need
        self.colonist_ship = need
        self.to_place = self.last_slot = 0
        self._end_phase()

    # -- builder
    def _start_builder(self, rng: Rng) -> None:
        self.phase, self.current = PH_BUILDER, self.chooser

    def _do_builder(self, move: Move, rng: Rng) -> None:
        if move.kind == "build":
            self._build(move.arg, self._price(self.current, move.arg), colonist=not move.declined)
        self._next_turn(self._end_phase)

    def _build(self, b: int, price: int, colonist: bool = True) -> None:
        """Hook: the current player pays ``price`` and takes building ``b`` (with the
        University colonist unless ``colonist`` is false: declined)."""
        p = self.players[self.current]
        p.doubloons -= price
        self.building_supply[b] -= 1
        p.buildings[b] = 0
        if colonist and BUILDINGS[b].circles and p.occupied(UNIVERSITY) and self._take_colonist():
            p.buildings[b] = 1  # not on the expansion's Statue, which has no circle
        if p.city_used() >= CITY_SPACES:
            self.end_triggered = True

    # -- craftsman
    def _start_craftsman(self, rng: Rng) -> None:
        self._produce()

    def _produce(self) -> None:
        """Production in seat order from the craftsman, then his privilege."""
        self.phase = PH_CRAFTSMAN
        for i in range(self.num_players):
            seat = self._seat(i)
            got = self._production(seat)
            if seat == self.chooser:
                self.produced = sum(1 << k for k in range(NK) if got[k])
        self.current = self.chooser
        if not self._craftsman_moves():
            self._finish_craftsman()

    def _production(self, seat: int) -> list[int]:
        """Hook: ``seat`` takes his production (as far as the supply lasts) and his
        Factory income; returns the barrels he received."""
        p = self.players[seat]
        got = [min(amount, self.goods_supply[k]) for k, amount in enumerate(p.production())]
        for k in range(NK):
            self.goods_supply[k] -= got[k]
            p.goods[k] += got[k]
        if p.occupied(FACTORY):
            p.doubloons += FACTORY_INCOME[sum(1 for g in got if g)]
        return got

    def _do_craftsman(self, move: Move, rng: Rng) -> None:
        self.goods_supply[move.arg] -= 1
        self.players[self.current].goods[move.arg] += 1
        self._finish_craftsman()

    def _finish_craftsman(self) -> None:
        self.produced = 0
        self._end_phase()

    # -- trader
    def _start_trader(self, rng: Rng) -> None:
        self.phase, self.current = PH_TRADER, self.chooser

    def _do_trader(self, move: Move, rng: Rng) -> None:
        if move.kind == "sell":
            k, p = move.arg, self.players[self.current]
            p.goods[k] -= 1
            self.house[k] += 1
            p.doubloons += (PRICES[k] + self._privilege(self.current)
                            + p.occupied(SMALL_MARKET) + 2 * p.occupied(LARGE_MARKET))
        self._next_turn(self._finish_trader)  # once the house is full, the others can only pass

    def _finish_trader(self) -> None:
        if sum(self.house) == 4:
            for k in range(NK):
                self.goods_supply[k] += self.house[k]
            self.house = [0] * NK
        self._end_phase()

    # -- captain and storage
    def _start_captain(self, rng: Rng) -> None:
        self.phase = PH_CAPTAIN
        self._next_captain_turn(self.chooser)

    def _next_captain_turn(self, start: int) -> None:
        for i in range(self.num_players):
            seat = (start + i) % self.num_players
            if self._captain_options(seat):
                self.current = seat
                return
        self._start_storage()

    def _do_captain(self, move: Move, rng: Rng) -> None:
        seat, p = self.current, self.players[self.current]
        if move.kind == "decline":  # the privilege VP given up: he loads without it
            self.captain_loaded = True
            return
        if move.kind == "pass":
            p.wharf_done = True
        else:
            k = move.arg
            if move.kind == "load":
                s = self.ship_capacity.index(move.capacity)
                amount = min(p.goods[k], self.ship_capacity[s] - self.ship_count[s])
                self.ship_kind[s] = k
                self.ship_count[s] += amount
            else:
                amount = p.goods[k]
                self.goods_supply[k] += amount
                p.wharf_done = True
            p.goods[k] -= amount
            self._loaded(seat, amount)
        self._next_captain_turn(self._next_seat(seat))

    def _loaded(self, seat: int, vp: int) -> None:
        """Hook: ``seat`` made a loading action worth ``vp`` before the Harbor and privilege."""
        p = self.players[seat]
        vp += p.occupied(HARBOR)
        if seat == self.chooser and not self.captain_loaded:
            self.captain_loaded = True
            vp += self._privilege(seat)
        self._give_vp(p, vp)
        if vp and self.vp_supply <= 0:
            self.end_triggered = True

    def _give_vp(self, p: Player, vp: int) -> None:
        """``vp`` chips from the supply, up to LIMIT chips a player: every position play
        reaches stays one a position check accepts."""
        vp = min(vp, LIMIT - p.vp_chips)
        p.vp_chips += vp
        self.vp_supply -= vp

    def _start_storage(self) -> None:
        self.phase, self.turn, self.store_mask = PH_STORAGE, 0, 0
        self._next_storage_player()

    def _next_storage_player(self) -> None:
        """Keep everything for players who can; stop at the first who must choose."""
        while self.turn < self.num_players:
            seat = self._seat(self.turn)
            p = self.players[seat]
            if sum(1 for g in p.goods if g) > self._storage_allowance(p)[0]:
                self.current = seat
                return
            self.turn += 1
        self._finish_captain()

    def _do_storage(self, move: Move, rng: Rng) -> None:
        if move.kind == "store":
            self.store_mask |= 1 << move.arg
        else:
            self.kept[move.arg] += 1
        if self._storage_sequences() != [()]:
            return
        p = self.players[self.current]
        for k in range(NK):
            keep = p.goods[k] if self.store_mask >> k & 1 else self.kept[k]
            self.goods_supply[k] += p.goods[k] - keep
            p.goods[k] = keep
        self.store_mask, self.kept = 0, [0] * NK
        self.turn += 1
        self._next_storage_player()

    def _finish_captain(self) -> None:
        self.captain_loaded = False
        for p in self.players:
            p.wharf_done = False
        for s, cap in enumerate(self.ship_capacity):
            if self.ship_count[s] == cap:
                self.goods_supply[self.ship_kind[s]] += cap
                self.ship_kind[s], self.ship_count[s] = -1, 0
        self._end_phase()

    # ----------------------------------------------------------------- scoring
    def scores(self) -> list[int]:
        """Victory points of every player: chips, buildings, occupied large-building bonuses."""
        return [_score(p) for p in self.players]

    def tiebreaks(self) -> list[int]:
        """Doubloons plus barrels: the tie-break."""
        return [p.doubloons + sum(p.goods) for p in self.players]


State.Move = Move  # the move type of the game's states (GameState.Move)


def _copy_fields(obj: _T) -> _T:
    """A copy of a dataclass whose fields are scalars or lists of scalars."""
    c = object.__new__(type(obj))
    c.__dict__.update({k: v[:] if type(v) is list else v for k, v in obj.__dict__.items()})
    return c


def _fill_all(p: Player) -> None:
    p.plantation_colonists = list(p.plantations)
    p.quarry_colonists = p.quarries
    p.buildings = [BUILDINGS[b].circles if c >= 0 else -1 for b, c in enumerate(p.buildings)]


def _subsets(held: list[int], size: int) -> list[int]:
    """Bitmasks of the ``size``-element subsets of ``held``."""
    masks = [0]
    for k in held:
        masks += [m | 1 << k for m in masks]
    return [m for m in masks if bin(m).count("1") == size]


def _fills(kinds: list[int], limits: list[int], total: int) -> list[dict[int, int]]:
    """Every way to take ``total`` barrels from ``kinds``, at most ``limits[k]`` of each."""
    if total == 0:
        return [{}]
    if not kinds:
        return []
    k, rest = kinds[0], kinds[1:]
    return [{k: n, **more} if n else more for n in range(min(limits[k], total), -1, -1)
            for more in _fills(rest, limits, total - n)]


def _score(p: Player) -> int:
    total = p.vp_chips
    for b, colonists in enumerate(p.buildings):
        if colonists < 0:
            continue
        total += BUILDINGS[b].vp
        if colonists > 0:
            total += _large_bonus(p, b)
    return total


def _large_bonus(p: Player, b: int) -> int:
    if b == GUILD_HALL:
        return sum((2 if BUILDINGS[x].circles > 1 else 1) for x in range(NUM_BUILDINGS)
                   if p.owns(x) and BUILDINGS[x].good is not None)
    if b == RESIDENCE:
        return max(4, p.island_used() - 5)
    if b == FORTRESS:
        return p.colonists() // 3
    if b == CUSTOMS_HOUSE:
        return p.vp_chips // 4
    if b == CITY_HALL:
        return sum(1 for x in range(NUM_BUILDINGS) if p.owns(x) and BUILDINGS[x].violet)
    return 0


def _setup(cls: type[State], players: int, seed: int, swap: bool,
           supplied: Callable[[int], bool]) -> tuple[State, Rng]:
    """The base setup as ``cls``, with the building types ``supplied`` accepts in the supply;
    also returns the rng, to continue the setup from it."""
    setup, rng = SETUPS[players], Rng(seed)
    governor = rng.below(players)
    deck = list(setup.plantations)
    seats = []
    for i, kind in enumerate(setup.start_plantations):
        deck[kind] -= 1
        p = Player(doubloons=setup.doubloons)
        p.plantations[kind] = 1
        seats.append(((governor + i) % players, p))
    state = cls(
        players=[p for _, p in sorted(seats, key=lambda sp: sp[0])],
        options={"university_factory_swap": swap},
        governor=governor, current=governor,
        colonist_supply=setup.colonists, colonist_ship=setup.ship_colonists,
        vp_supply=setup.vp_chips, goods_supply=list(setup.goods),
        ship_capacity=list(setup.ships), ship_kind=[-1] * len(setup.ships),
        ship_count=[0] * len(setup.ships), deck=deck, quarry_supply=setup.quarries,
        building_supply=[building_count(b, players) if supplied(b) else 0 for b in range(NUM_BUILDINGS)],
        role_doubloons=[0] * setup.roles, role_taken=[False] * setup.roles,
    )
    for _ in range(players + 1):
        state.faceup[state._draw_plantation(rng)] += 1
    return state, rng


# Methods by phase (looked up by name, so that the expansion's overrides apply).
_GENERATORS = {
    ROLE: "_role_moves", PH_SETTLER: "_settler_moves", PH_MAYOR: "_mayor_moves",
    PH_BUILDER: "_builder_moves", PH_CRAFTSMAN: "_craftsman_moves", PH_TRADER: "_trader_moves",
    PH_CAPTAIN: "_captain_moves", PH_STORAGE: "_storage_moves", END: "_no_moves",
    PH_DRAFT: "_draft_moves", PH_GUESTS: "_guest_moves",
}
_APPLY = {
    ROLE: "_do_role", PH_SETTLER: "_do_settler", PH_MAYOR: "_do_mayor", PH_BUILDER: "_do_builder",
    PH_CRAFTSMAN: "_do_craftsman", PH_TRADER: "_do_trader", PH_CAPTAIN: "_do_captain",
    PH_STORAGE: "_do_storage", PH_DRAFT: "_do_draft", PH_GUESTS: "_do_guests",
}
_START = {
    PH_SETTLER: "_start_settler", PH_MAYOR: "_start_mayor", PH_BUILDER: "_start_builder",
    PH_CRAFTSMAN: "_start_craftsman", PH_TRADER: "_start_trader", PH_CAPTAIN: "_start_captain",
}
