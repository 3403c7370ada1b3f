"""The Castles of Burgundy reference rules (``../shared/rules/castles_of_burgundy.md``).

A ``State`` is a whole position; ``apply`` returns a new state, the private methods
(``_do`` and what it calls) mutate a fresh copy.  Conventions, the same in the C twin:

* A player is asked only when he has a real choice: a decision with exactly one legal move
  is played inside ``apply``, and a turn whose dice are used ends by itself unless the
  player may still buy from the black depot (then ``buy:…`` or ``pass``).
* A decision never offers two moves with the same outcome: a die is named by its value (two
  dice showing the same number are one choice), workers are spent only as far as needed and
  never to take workers, equal tiles in a depot or in storage are one choice, ship choices
  that take nothing are one choice, and new goods colours are chosen in ascending order.
  The same action with either of two dice at the same cost is offered once (lower die) when
  the die left over would then be forced, since both reach one position (``_turn_moves``).
* Compound decisions are short sequences: ``place`` then ``tile`` (when several stored
  tiles fit the space), ``take``/``buy`` then ``discard`` (storage full), a tile effect
  (castle action, building, ship) then its choice, ``ship`` then ``goods``.
* Chance comes only from the ``rng`` given to ``apply``: dice and the white die at the start
  of every round, depot refills and the phase's goods at the start of every phase.  Hidden
  stacks are multisets (counts per kind), never an order.

Draw order (the C twin draws the same numbers in the same order).  A draw from a multiset
is ``rng.below(total)`` walked over the counts in kind order.  ``new_game``: the start player
``below(players)``; 3 goods per player in turn order from the goods pool; then a phase start
and a round start.  Phase start: depots 1-6, slots in order, each from the colour-backed
tiles of the slot's colour; the black depot's 4/6/8 slots from the black-backed tiles; the
5 round goods from the goods pool.  Round start: the white die ``below(6)``, then two dice
``below(6) + 1`` per player in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game_state import GameState
from ..rng import Rng
from .board import CELL_COLOUR, CELL_DIE, NUM_CELLS, START_CELL
from .data import (
    ANIMAL, BANK_SILVERLINGS, BLACK_BACKED, BLACK_SLOTS, BOARDING_HOUSE_WORKERS, BUILDING, BUY_PRICE, CASTLE,
    COLOUR_BACKED, COLOUR_KINDS, DEPOT_PAIRS, DEPOT_SLOTS, FREE_PLACE_KNOWLEDGE, depot_colour,
    GOODS_PER_COLOUR, GOODS_SPACES, K_BUY_ANY_DEPOT, K_FOUR_WORKERS, K_FREE_TAKE, K_MINE_WORKER,
    K_SALE_SILVERLING, K_SALE_WORKER, K_TWO_DEPOT_SHIP, K_WORKER_TWO_STEPS, K_WORKERS_SILVERLING,
    KNOWLEDGE, LIMIT, MINE, NUM_COLOURS, NUM_DEPOTS, NUM_GOODS, NUM_TILES, PHASES, ROUNDS, SETUPS, SHIP, STORAGE, T_BANK,
    T_BOARDING_HOUSE, T_CARPENTER, T_CASTLE, T_CHURCH, T_CITY_HALL, T_MARKET, T_MINE, T_SHIP,
    T_WAREHOUSE, T_WATCHTOWER, TILE_COLOUR, WATCHTOWER_VP,
)
from .estate import animal_points, colour_complete, fitting_tiles, placements, region_points
from .moves import (
    A_BUY, A_BUY_BLACK, A_DISCARD, A_GOODS, A_PASS, A_PLACE, A_SELL, A_SHIP, A_SHIP_PAIR, A_TAKE,
    A_TILE, A_WORKERS, DEPOT_SPACES, Move,
)
from .scoring import final_score, tiebreak

STAGES = ("turn", "discard", "tile", "castle", "city_hall", "carpenter", "church", "market",
          "warehouse", "ship", "goods", "end")
(ST_TURN, ST_DISCARD, ST_TILE, ST_CASTLE, ST_CITY_HALL, ST_CARPENTER, ST_CHURCH, ST_MARKET,
 ST_WAREHOUSE, ST_SHIP, ST_GOODS, ST_END) = range(len(STAGES))
#: Tile colours a Carpenter's Workshop, Church and Market take from the numbered depots.
FREE_TAKE_COLOURS = {ST_CARPENTER: (BUILDING,), ST_CHURCH: (CASTLE, MINE, KNOWLEDGE),
                     ST_MARKET: (SHIP, ANIMAL)}
OPTIONS: tuple[str, ...] = ()


@dataclass
class Player:
    estate: list[int]  # tile kind per cell, -1: empty
    storage: list[int] = field(default_factory=lambda: [-1] * STORAGE)  # ascending, -1s last
    goods: list[int] = field(default_factory=lambda: [0] * NUM_GOODS)
    sold: list[int] = field(default_factory=lambda: [0] * NUM_GOODS)
    bonus: list[int] = field(default_factory=lambda: [0] * NUM_COLOURS)  # 0, 1 first, 2 second
    dice: list[int] = field(default_factory=lambda: [0, 0])  # ascending, 0: used
    silverlings: int = 0
    workers: int = 0
    vp: int = 0

    def copy(self) -> Player:
        return Player(self.estate[:], self.storage[:], self.goods[:], self.sold[:], self.bonus[:],
                      self.dice[:], self.silverlings, self.workers, self.vp)

    def knows(self, tile: int) -> bool:
        return tile in self.estate

    def ships(self) -> int:
        """Ships in the estate: the player's space on the turn-order track."""
        return self.estate.count(T_SHIP)


@dataclass
class State(GameState):
    """A Castles of Burgundy position: everything on the table plus where the turn stands."""

    players: list[Player]
    phase: int = 0  # A-E = 0-4
    round: int = 0  # 0-4
    stage: int = ST_TURN
    turn: int = 0  # index of the player to move in ``round_order``
    bought: bool = False  # the black-depot purchase of this turn is used
    pending_tile: int = -1  # discard: the tile waiting for a storage space
    pending_cell: int = -1  # tile: the cell waiting for a stored tile
    ship_mask: int = 0  # goods: the depots the ship takes goods from (bitmask)
    goods_chosen: int = 0  # goods: the new goods colours chosen so far (bitmask)
    ranking: list[int] = field(default_factory=list)  # turn-order track, first player first
    round_order: list[int] = field(default_factory=list)  # the track at the start of the round
    depots: list[int] = field(default_factory=lambda: [-1] * NUM_DEPOTS * DEPOT_SLOTS)
    black: list[int] = field(default_factory=lambda: [-1] * BLACK_SLOTS)
    depot_goods: list[int] = field(default_factory=lambda: [0] * NUM_DEPOTS * NUM_GOODS)
    round_goods: list[int] = field(default_factory=lambda: [-1] * ROUNDS)  # -1: moved
    goods_pool: list[int] = field(default_factory=lambda: [0] * NUM_GOODS)  # hidden goods
    stack: list[int] = field(default_factory=lambda: [0] * NUM_TILES)  # hidden, colour backs
    black_stack: list[int] = field(default_factory=lambda: [0] * NUM_TILES)  # hidden, black
    discarded: list[int] = field(default_factory=lambda: [0] * NUM_TILES)  # out of the game

    game_id = "castles-of-burgundy"

    # ------------------------------------------------------------------ basics
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def current(self) -> int:
        """The seat to move, -1 when the game is over."""
        return -1 if self.stage == ST_END else self.round_order[self.turn]

    @property
    def current_player(self) -> int | None:
        return None if self.stage == ST_END else self.round_order[self.turn]

    @property
    def is_terminal(self) -> bool:
        return self.stage == ST_END

    # ------------------------------------------------------------- legal moves
    def legal_action_ids(self) -> list[int]:
        if self.stage == ST_END:
            return []
        p = self.players[self.current]
        ids = sorted(_GENERATORS[self.stage](self, p))
        return self._without_equal_takes(p, ids) if self._last_turn_of_phase() else ids

    def _turn_moves(self, p: Player) -> list[int]:
        dice = sorted({d for d in p.dice if d})
        ids = [A_WORKERS + d for d in dice]
        twins: list[tuple[int, int, int, int]] = []  # higher-die id, lower-die id, cost, space

        def offer(base: int, stride: int, arg: int, costs: tuple[int, ...], space: int = -1) -> None:
            low_ok = costs[dice[0]] <= p.workers
            if low_ok:
                ids.append(base + dice[0] * stride + arg)
            if len(dice) == 2 and costs[dice[1]] <= p.workers:
                ids.append(base + dice[1] * stride + arg)
                if low_ok and costs[dice[0]] == costs[dice[1]]:
                    twins.append((ids[-1], ids[-2], costs[dice[0]], space))

        if len(dice) == 2:
            twins.append((ids[1], ids[0], 0, -1))
        if dice:
            owned = set(p.estate)
            table = _COST[2 if K_WORKER_TWO_STEPS in owned else 1]
            for g in range(NUM_GOODS):
                if p.goods[g]:
                    offer(A_SELL, NUM_GOODS, g, table[0][g + 1])
            take = table[int(K_FREE_TAKE in owned)]
            for a in self._depot_choices(None):
                offer(A_TAKE, DEPOT_SPACES, a, take[a // DEPOT_SLOTS + 1], a)
            for c in placements(p.estate, p.storage):
                offer(A_PLACE, NUM_CELLS, c, table[int(FREE_PLACE_KNOWLEDGE[CELL_COLOUR[c]] in owned)][CELL_DIE[c]])
            for high, low, cost, space in twins:
                if not self._may_take(take, dice, p.workers - cost, space) \
                        and self._outcome(high) == self._outcome(low):
                    ids.remove(high)
        buys = self._buy_moves(p)
        return ids + buys + ([A_PASS] if buys and not dice else [])

    def _may_take(self, take: tuple[tuple[int, ...], ...], dice: list[int], workers: int, used: int) -> bool:
        """Whether a die can still take a depot tile (other than the one in space ``used``)
        with ``workers``.  Then the die left over after one of two twin actions (the same
        action with either die at the same cost) is a real choice, and the twins differ."""
        return any(t >= 0 and a != used and any(take[a // DEPOT_SLOTS + 1][d] <= workers for d in dice)
                   for a, t in enumerate(self.depots))

    def _without_equal_takes(self, p: Player, ids: list[int]) -> list[int]:
        """In the last turn of a phase the depots are cleared after the turn, so equal tiles
        taken or bought from different places at the same cost may reach one outcome: only
        the first such move is offered."""
        kept: list[int] = []
        groups: dict[tuple[bool, int, int, int], list[int]] = {}
        outcomes: dict[int, State] = {}

        def outcome(action: int) -> State:
            if action not in outcomes:
                outcomes[action] = self._outcome(action)
            return outcomes[action]

        for a in ids:
            m = Move.from_id(a)
            if m.kind in ("take", "buy", "buy_black"):
                tile = (self.black if m.kind == "buy_black" else self.depots)[m.arg]
                group = groups.setdefault((m.kind == "take", m.source, tile, move_cost(p, m)), [])
                if any(outcome(b) == outcome(a) for b in group):
                    continue
                group.append(a)
            kept.append(a)
        return kept

    def _outcome(self, action: int) -> State:
        """The position after ``action`` and every forced move of the same turn; when that
        ends the last turn of a phase, with the depots cleared as the phase end clears them.
        Moves with equal outcomes reach one position, so only one of them is offered."""
        s = self.copy()
        s._do(Move.from_id(action), _NO_CHANCE)
        while not s._turn_over():
            ids = s.legal_action_ids()
            if len(ids) != 1:
                return s
            s._do(Move.from_id(ids[0]), _NO_CHANCE)
        if s._last_turn_of_phase():
            s._clear_depots()
        return s

    def _turn_over(self) -> bool:
        """Whether the player to move has used his dice and cannot buy any more."""
        return (self.stage == ST_TURN and not any(self.players[self.current].dice)
                and not self._buy_moves(self.players[self.current]))

    def _last_turn_of_phase(self) -> bool:
        return self.round == ROUNDS - 1 and self.turn == self.num_players - 1

    def _buy_moves(self, p: Player) -> list[int]:
        if self.bought or p.silverlings < BUY_PRICE:
            return []
        ids = [A_BUY_BLACK + i for i, t in enumerate(self.black) if t >= 0 and t not in self.black[:i]]
        if p.knows(K_BUY_ANY_DEPOT):
            ids += [A_BUY + a for a in self._depot_choices(None)]
        return ids

    def _depot_choices(self, colours: tuple[int, ...] | None) -> list[int]:
        """Depot spaces (depot * 4 + slot) to take from: the first of equal tiles per depot,
        of the given colours (any if None)."""
        spaces = []
        depots = self.depots
        for a, t in enumerate(depots):
            if t >= 0 and t not in depots[a - a % DEPOT_SLOTS:a] \
                    and (colours is None or TILE_COLOUR[t] in colours):
                spaces.append(a)
        return spaces

    def _castle_moves(self, p: Player) -> list[int]:
        """The castle's extra action: any of the four actions as with a die of any number."""
        ids = [A_WORKERS]
        ids += [A_SELL + g for g in range(NUM_GOODS) if p.goods[g]]
        ids += [A_TAKE + a for a in self._depot_choices(None)]
        ids += [A_PLACE + c for c in placements(p.estate, p.storage)]
        return ids

    def _city_hall_moves(self, p: Player) -> list[int]:
        return [A_PASS] + [A_PLACE + c for c in placements(p.estate, p.storage)]

    def _free_take_moves(self, p: Player) -> list[int]:
        return [A_PASS] + [A_TAKE + a for a in self._depot_choices(FREE_TAKE_COLOURS[self.stage])]

    def _warehouse_moves(self, p: Player) -> list[int]:
        return [A_SELL + g for g in range(NUM_GOODS) if p.goods[g]]

    def _discard_moves(self, p: Player) -> list[int]:
        return [A_DISCARD + t for t in set(p.storage)]

    def _tile_moves(self, p: Player) -> list[int]:
        return [A_TILE + t for t in fitting_tiles(p.estate, p.storage, self.pending_cell)]

    def _ship_moves(self, p: Player) -> list[int]:
        ids, nothing = [], -1
        for d in range(NUM_DEPOTS):
            if self._ship_choices(p, 1 << d)[0]:
                ids.append(A_SHIP + d)
            elif nothing < 0:
                nothing = d
        if nothing >= 0:
            ids.append(A_SHIP + nothing)  # takes nothing: one choice for all such depots
        if p.knows(K_TWO_DEPOT_SHIP):
            ids += [A_SHIP_PAIR + i for i, (a, b) in enumerate(DEPOT_PAIRS)
                    if self._ship_choices(p, 1 << a | 1 << b)[0]]
        return ids

    def _ship_choices(self, p: Player, mask: int) -> tuple[list[int], int]:
        """(the goods colour sets a ship may take from the depots in ``mask``, the colours
        taken anyway because the player already stores them).  Every set takes something
        from every depot in the mask; no set is listed when nothing can be taken."""
        present = [sum(1 << g for g in range(NUM_GOODS) if self.depot_goods[d * NUM_GOODS + g])
                   for d in range(NUM_DEPOTS) if mask >> d & 1]
        held = sum(1 << g for g in range(NUM_GOODS) if p.goods[g])
        union = 0
        for bits in present:
            union |= bits
        new = union & ~held
        size = min(GOODS_SPACES - bin(held).count("1"), bin(new).count("1"))
        sets = [s for s in _subsets(new) if bin(s).count("1") == size
                and all(bits & (held | s) for bits in present)]
        return sets, union & held

    def _goods_moves(self, p: Player) -> list[int]:
        sets, _ = self._ship_choices(p, self.ship_mask)
        chosen = self.goods_chosen
        goods = set()
        for s in sets:
            rest = s & ~chosen
            if s & chosen == chosen and rest:
                low = (rest & -rest).bit_length() - 1
                if chosen >> low == 0:  # ascending: below ``low`` the set is what was chosen
                    goods.add(low)
        return [A_GOODS + g for g in goods]

    # ------------------------------------------------------------------- apply
    def _resolve_forced(self, rng: Rng, play_forced: bool = True) -> None:
        """End finished turns and (``play_forced``) play every decision that has a single move;
        silverlings, workers and VP capped after the move played and after each of these."""
        self._cap()
        while self.stage != ST_END:
            if self._turn_over():
                self._end_turn(rng)
                self._cap()
                continue
            legal = self.legal_action_ids()
            if len(legal) != 1 or not play_forced:
                return
            self._do(Move.from_id(legal[0]), rng)
            self._cap()

    def _cap(self) -> None:
        """Silverlings, workers and VP count up to LIMIT (gains beyond it are lost)."""
        for p in self.players:
            p.silverlings, p.workers, p.vp = min(p.silverlings, LIMIT), min(p.workers, LIMIT), min(p.vp, LIMIT)

    def _do(self, move: Move, rng: Rng) -> None:
        p, k = self.players[self.current], move.kind
        stage = self.stage
        self.stage = ST_TURN
        if move.source:
            self._spend_die(p, move)
        if k == "pass":
            if stage == ST_TURN:
                self._end_turn(rng)
        elif k == "workers":
            p.workers += 4 if p.knows(K_FOUR_WORKERS) else 2
            p.silverlings += int(p.knows(K_WORKERS_SILVERLING))
        elif k == "sell":
            self._sell(p, move.arg)
        elif k == "take":
            self._receive(p, self.depots[move.arg])
            self.depots[move.arg] = -1
        elif k == "place":
            self.stage, self.pending_cell = ST_TILE, move.arg
        elif k == "tile":
            self._place(p, self.pending_cell, move.arg)
        elif k == "discard":
            self._discard(p, move.arg)
        elif k in ("buy", "buy_black"):
            pile = self.depots if k == "buy" else self.black
            p.silverlings -= BUY_PRICE
            self.bought = True
            self._receive(p, pile[move.arg])
            pile[move.arg] = -1
        elif k in ("ship", "ship_pair"):
            a = DEPOT_PAIRS[move.arg] if k == "ship_pair" else (move.arg,)
            self._ship(p, sum(1 << d for d in a))
        else:
            self.goods_chosen |= 1 << move.arg
            self._ship(p, self.ship_mask)

    def _spend_die(self, p: Player, move: Move) -> None:
        """Use the die showing ``move.source`` and the workers the action needs."""
        p.workers -= move_cost(p, move)
        p.dice[p.dice.index(move.source)] = 0
        p.dice.sort()

    def _sell(self, p: Player, g: int) -> None:
        n = p.goods[g]
        p.goods[g] = 0
        p.sold[g] += n
        p.silverlings += 2 if p.knows(K_SALE_SILVERLING) else 1
        p.workers += int(p.knows(K_SALE_WORKER))
        p.vp += n * SETUPS[self.num_players].sale_vp

    def _receive(self, p: Player, tile: int) -> None:
        """A tile into storage; a full storage first asks which stored tile to discard."""
        if p.storage[-1] < 0:
            p.storage[-1] = tile
            _sort_storage(p.storage)
        else:
            self.stage, self.pending_tile = ST_DISCARD, tile

    def _discard(self, p: Player, tile: int) -> None:
        i = p.storage.index(tile)
        p.storage[i] = self.pending_tile
        _sort_storage(p.storage)
        self.discarded[tile] += 1
        self.pending_tile = -1

    def _place(self, p: Player, cell: int, tile: int) -> None:
        """Add a stored tile to the estate, score it and start its effect (rules §7, §9)."""
        i = p.storage.index(tile)
        p.storage[i] = -1
        _sort_storage(p.storage)
        p.estate[cell] = tile
        self.pending_cell = -1
        p.vp += region_points(p.estate, cell, self.phase)
        colour = CELL_COLOUR[cell]
        if colour_complete(p.estate, colour):
            taken = sum(1 for q in self.players if q.bonus[colour])
            if taken < 2:
                p.bonus[colour] = taken + 1
                p.vp += SETUPS[self.num_players].bonus_vp[taken]
        if tile == T_CASTLE:
            self.stage = ST_CASTLE
        elif tile == T_SHIP:
            self._advance_on_track(self.current)
            self.stage = ST_SHIP
        elif colour == ANIMAL:
            p.vp += animal_points(p.estate, cell)
        elif tile == T_WAREHOUSE:
            if any(p.goods):
                self.stage = ST_WAREHOUSE
        elif tile in (T_CARPENTER, T_CHURCH, T_MARKET):
            stage = {T_CARPENTER: ST_CARPENTER, T_CHURCH: ST_CHURCH, T_MARKET: ST_MARKET}[tile]
            if self._depot_choices(FREE_TAKE_COLOURS[stage]):
                self.stage = stage
        elif tile == T_BOARDING_HOUSE:
            p.workers += BOARDING_HOUSE_WORKERS
        elif tile == T_BANK:
            p.silverlings += BANK_SILVERLINGS
        elif tile == T_CITY_HALL:
            if placements(p.estate, p.storage):
                self.stage = ST_CITY_HALL
        elif tile == T_WATCHTOWER:
            p.vp += WATCHTOWER_VP

    def _advance_on_track(self, seat: int) -> None:
        """A ship moves the player one space forward, on top of the pieces there; the new
        order counts from the next round."""
        ships = self.players[seat].ships()
        self.ranking.remove(seat)
        at = next((i for i, q in enumerate(self.ranking) if self.players[q].ships() <= ships),
                  len(self.ranking))
        self.ranking.insert(at, seat)

    def _ship(self, p: Player, mask: int) -> None:
        """Take the ship's goods, or ask for the new colours when not all of them fit."""
        sets, held = self._ship_choices(p, mask)
        if len(sets) > 1 and self.goods_chosen not in sets:
            self.stage, self.ship_mask = ST_GOODS, mask
            return
        take = (held | (self.goods_chosen if len(sets) > 1 else sets[0])) if sets else 0
        for d in range(NUM_DEPOTS):
            if mask >> d & 1:
                for g in range(NUM_GOODS):
                    if take >> g & 1:
                        p.goods[g] += self.depot_goods[d * NUM_GOODS + g]
                        self.depot_goods[d * NUM_GOODS + g] = 0
        self.ship_mask = self.goods_chosen = 0

    # ------------------------------------------------------------ turns, rounds
    def _end_turn(self, rng: Rng) -> None:
        self.bought = False
        self.turn += 1
        if self.turn < self.num_players:
            return
        if self.round + 1 < ROUNDS:
            self.round += 1
            self._start_round(rng)
            return
        for p in self.players:
            mines = p.estate.count(T_MINE)
            p.silverlings += mines
            if p.knows(K_MINE_WORKER):
                p.workers += mines
        if self.phase + 1 < PHASES:
            self.phase += 1
            self.round = 0
            self._start_phase(rng)
            self._start_round(rng)
        else:
            self.stage, self.turn = ST_END, 0

    def _clear_depots(self) -> None:
        """The tiles left in the depots go out of the game."""
        for pile in (self.depots, self.black):
            for i, t in enumerate(pile):
                if t >= 0:
                    self.discarded[t] += 1
                    pile[i] = -1

    def _start_phase(self, rng: Rng) -> None:
        """Clear the depots, refill them and lay out the phase's goods."""
        setup = SETUPS[self.num_players]
        self._clear_depots()
        for d in range(NUM_DEPOTS):
            for slot in range(setup.depot_slots):
                lo, hi = COLOUR_KINDS[depot_colour(self.num_players, self.phase, d, slot)]
                self.depots[d * DEPOT_SLOTS + slot] = _draw(self.stack, lo, hi, rng)
        for i in range(setup.black_slots):
            self.black[i] = _draw(self.black_stack, 0, NUM_TILES, rng)
        for r in range(ROUNDS):
            self.round_goods[r] = _draw(self.goods_pool, 0, NUM_GOODS, rng)

    def _start_round(self, rng: Rng) -> None:
        """The white die moves this round's goods to its depot; every player rolls two dice
        (in seat order); the turn order is the track's."""
        white, goods = rng.below(NUM_DEPOTS), self.round_goods[self.round]
        if goods >= 0:  # none when the phase start found the goods pool empty
            self.depot_goods[white * NUM_GOODS + goods] += 1
        self.round_goods[self.round] = -1
        for p in self.players:
            p.dice = sorted((rng.below(6) + 1, rng.below(6) + 1))
        self.round_order = self.ranking[:]
        self.turn = 0

    # ----------------------------------------------------------------- scoring
    def scores(self) -> list[int]:
        """Victory points of every player with the final scoring applied (rules §10)."""
        return [final_score(p) for p in self.players]

    def tiebreaks(self) -> list[int]:
        """The tie-break key of every player, higher is better (``scoring.tiebreak``): fewer
        empty estate spaces, then further back on the turn-order track."""
        return [tiebreak(p, self.ranking.index(i)) for i, p in enumerate(self.players)]


State.Move = Move  # the move type of the game's states (GameState.Move)


def worker_cost(die: int, target: int, free: int, step: int) -> int:
    """Workers that turn ``die`` into ``target`` (6 and 1 are neighbours), each changing it by
    up to ``step`` after ``free`` (0 or 1) steps of a knowledge tile."""
    dist = (die - target) % 6
    dist = max(min(dist, 6 - dist) - free, 0)
    return (dist + step - 1) // step


_NO_CHANCE = Rng(0)  # for looking ahead inside a turn, which never draws


def move_cost(p: Player, move: Move) -> int:
    """Workers a die action costs ``p``: the fewest that turn the die into the number the
    action needs (knowledge #8: two steps per worker; #9-#12: one free step)."""
    if not move.source or move.kind == "workers":
        return 0
    step = 2 if p.knows(K_WORKER_TWO_STEPS) else 1
    if move.kind == "sell":
        target, free = move.arg + 1, 0
    elif move.kind == "take":
        target, free = move.arg // DEPOT_SLOTS + 1, int(p.knows(K_FREE_TAKE))
    else:
        target = CELL_DIE[move.arg]
        free = int(p.knows(FREE_PLACE_KNOWLEDGE[CELL_COLOUR[move.arg]]))
    return _COST[step][free][target][move.source]


#: ``_COST[step][free][target][die]``: worker_cost as a table (targets and dice 1-6).
_COST = {step: tuple(tuple(tuple(worker_cost(d, t, free, step) if d and t else 0 for d in range(7))
                           for t in range(7)) for free in (0, 1)) for step in (1, 2)}


def _sort_storage(storage: list[int]) -> None:
    storage.sort(key=lambda t: (t < 0, t))


def _subsets(mask: int) -> list[int]:
    subs = [0]
    for g in range(NUM_GOODS):
        if mask >> g & 1:
            subs += [s | 1 << g for s in subs]
    return subs


def _draw(counts: list[int], lo: int, hi: int, rng: Rng) -> int:
    """Draw one item of kinds ``lo``..``hi - 1`` from a multiset (-1 if none is left)."""
    total = sum(counts[lo:hi])
    if total == 0:
        return -1
    r = rng.below(total)
    for k in range(lo, hi):
        if r < counts[k]:
            counts[k] -= 1
            return k
        r -= counts[k]
    raise AssertionError("unreachable: draw from an empty pile")


def new_game(players: int = 4, seed: int = 0, **options: bool) -> State:
    """A new game (rules §4): start player, goods, depots and the first dice from ``seed``."""
    if players not in SETUPS:
        raise ValueError(f"players: {players} is not one of {', '.join(map(str, SETUPS))}")
    if options:
        raise ValueError(f"options: unknown option {sorted(options)[0]!r} (this game has none)")
    setup, rng = SETUPS[players], Rng(seed)
    start = rng.below(players)
    ranking = [(start + i) % players for i in range(players)]
    seats = []
    for _ in range(players):
        estate = [-1] * NUM_CELLS
        estate[START_CELL] = T_CASTLE
        seats.append(Player(estate=estate, silverlings=setup.start_silverlings))
    for rank, seat in enumerate(ranking):
        seats[seat].workers = setup.start_workers[rank]
    state = State(players=seats, ranking=ranking, round_order=ranking[:],
                  goods_pool=[GOODS_PER_COLOUR] * NUM_GOODS, stack=list(COLOUR_BACKED),
                  black_stack=list(BLACK_BACKED))
    state.stack[T_CASTLE] -= players  # the start castles
    for seat in ranking:
        for _ in range(setup.start_goods):
            seats[seat].goods[_draw(state.goods_pool, 0, NUM_GOODS, rng)] += 1
    state._start_phase(rng)
    state._start_round(rng)
    state._resolve_forced(rng)
    return state


_GENERATORS = {
    ST_TURN: State._turn_moves, ST_DISCARD: State._discard_moves, ST_TILE: State._tile_moves,
    ST_CASTLE: State._castle_moves, ST_CITY_HALL: State._city_hall_moves,
    ST_CARPENTER: State._free_take_moves, ST_CHURCH: State._free_take_moves,
    ST_MARKET: State._free_take_moves, ST_WAREHOUSE: State._warehouse_moves,
    ST_SHIP: State._ship_moves, ST_GOODS: State._goods_moves,
}
