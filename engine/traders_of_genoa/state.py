"""The Traders of Genoa reference rules (``../shared/rules/traders_of_genoa.md``).

A ``State`` is a whole position; ``apply`` returns a new state, the private methods mutate
a fresh copy.  A turn of the tower owner: the start square (rolled, or chosen with an
any-start card; a market start moves the round marker on and rolls again), then the walk
(up to 4 orthogonal steps onto unvisited building or street squares, or stop; before a
step the owner may ``hear`` steering offers: the others who may still act each offer a
bundle for the tower to step onto a building next to it whose action they then buy, or
pass, and the owner accepts one or walks on as he likes).  At each building entered for
the first time in the turn its action is negotiated: the other players in turn order who
may still act offer (a bundle of ducats, goods, cards, special cards and
markers, built item by item: ``moves.py``; in 2-player games not ducats alone) or pass,
then the owner accepts one offer or takes the action himself (only while nobody offered
may it lapse).  The actor performs the action (owners of markers on the building earn
``OWNER_INCOME``; at a villa the goods cards may be played before the choice, so they
complete a large order), may then play special cards and complete one small order of that
building (``done`` ends this).  After the walk, from the owner on, each player may use one
street disc as a base and place markers on the buildings next to it (having first,
once, given one up to remove another player's marker there).

Conventions, the same in the C twin: a decision with one legal move is played inside
``apply``; markers are placed in ascending building order; chance comes only from the
``rng`` given to ``apply`` (the start square: ``below(8)`` row then ``below(8)`` column; a
card draw: ``below(pile size)`` over the pile's known cards ascending, and when it falls on
an unknown pile slot, ``below(unseen cards of the deck)`` over those ascending; an empty pile
first takes its deck's used cards back).

Hidden information: a card's location is a seat, the pile, used (face up) or unseen (a
pile or another player's hand, in an observation).  Every player's card count per deck and
every pile's size are public.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from collections.abc import Sequence

from ..errors import IllegalMoveError
from ..game_state import GameState
from ..rng import Rng
from .chance import Told, Witness, parse_shown
from .board import NEIGHBOUR, NUM_SQUARES, SQUARE, STREET_BUILDINGS, group_size, square_name
from .data import (
    BUILDINGS, CARD_DECK, CARD_NAMES, DECK_FIRST, DECK_SIZES, DECKS, D_LARGE, D_MESSAGE, D_PRIVILEGE, D_SMALL,
    GOODS_PER_KIND, LARGE_ORDER_PAY, LARGE_ORDERS, LIMIT, MARKER_END_VALUE, MARKERS_PER_PLAYER, MARKET,
    MAX_PLAYERS, MESSAGE_PAY, MESSAGES, NUM_BUILDINGS, NUM_CARDS, NUM_GOODS, OFFER_COINS, OFFER_STEP, OWNER_INCOME,
    PLAYER_COUNTS, PRIVILEGE_PAY, PRIVILEGES, ROUNDS, S_ANY_GOOD, S_ANY_START, S_BUILDING_ACTION,
    S_EXTRA_ACTION, S_TRADE, SMALL_ORDER_PAY, SMALL_ORDERS, SPECIAL_COUNTS, SPECIALS, START_DUCATS,
    STREET, TOWER_DISCS, DIE_SIDES, PILE, UNSEEN, USED,
)
from .moves import (
    A_ACCEPT, A_BASE, A_DELIVER, A_DONE, A_GIVE, A_GOOD, A_HEAR, A_LAPSE, A_LARGE, A_MARK, A_MOVE, A_OFFER, A_PALACE,
    A_PASS, A_OUST, A_PRIVILEGE, A_ROLL, A_SPECIAL, A_START, A_STEER, A_STOP, A_TAKE, I_CARD, I_GOOD, I_MARKER,
    I_SPECIAL,
    ITEM_NAMES, Move, is_offer, offer_moves, trade_id,
)

STAGES = ("start", "offer", "decide", "villa", "reward", "extras", "walk", "steer", "heed", "base", "mark", "end")
(ST_START, ST_OFFER, ST_DECIDE, ST_VILLA, ST_REWARD, ST_EXTRAS, ST_WALK, ST_STEER, ST_HEED, ST_BASE, ST_MARK,
 ST_END) = range(len(STAGES))
OPTIONS: tuple[str, ...] = ()


@dataclass
class Player:
    ducats: int = START_DUCATS
    goods: list[int] = field(default_factory=lambda: [0] * NUM_GOODS)
    specials: list[int] = field(default_factory=lambda: [0] * len(SPECIALS))
    markers: int = 0  # in hand (the Cathedral hands them out)
    reserve: int = MARKERS_PER_PLAYER  # in the board supply, not yet taken
    hand: list[int] = field(default_factory=lambda: [0] * len(DECKS))  # cards per deck (public)
    actions: int = 0  # actions taken this turn

    def copy(self) -> Player:
        return Player(self.ducats, self.goods[:], self.specials[:], self.markers, self.reserve,
                      self.hand[:], self.actions)


@dataclass
class State(GameState):
    """A Traders of Genoa position: the table, the cards' locations and the turn's progress."""

    players: list[Player]
    start_player: int = 0
    owner: int = 0  # the tower owner
    round: int = 0  # the round marker: rounds played plus market starts
    stage: int = ST_START
    to_move: int = 0  # -1 at the end
    path: list[int] = field(default_factory=list)  # squares with a tower disc, in order
    site: int = -1  # the building whose action is negotiated or performed
    actor: int = -1  # who performs it
    delivered: bool = False  # a small order is completed alongside this action
    offer_ducats: list[int] = field(default_factory=list)  # per seat, -1: no offer
    offer_goods: list[list[int]] = field(default_factory=list)  # per seat, count per good
    offer_specials: list[list[int]] = field(default_factory=list)  # per seat, count per special card
    offer_markers: list[int] = field(default_factory=list)  # per seat, markers from his hand
    offer_target: list[int] = field(default_factory=list)  # per seat, a steering offer's square (-1: none)
    offered_cards: list[int] = field(default_factory=lambda: [0] * NUM_CARDS)  # per card: 1 in its holder's offer
    base: int = -1  # the street square markers are placed from
    last_mark: int = -1  # the highest building marked from the base (ascending order)
    ousted: bool = False  # a marker was given up at this base to remove another's
    used_discs: int = 0  # bitmask over ``path``: street discs used as a base
    acquirer: int = 0  # seats after the owner that have had their acquisition turn
    supply: list[int] = field(default_factory=lambda: [GOODS_PER_KIND] * NUM_GOODS)
    special_supply: list[int] = field(default_factory=lambda: list(SPECIAL_COUNTS))
    marks: list[int] = field(default_factory=lambda: [0] * NUM_BUILDINGS)  # bitmask of seats
    cards: list[int] = field(default_factory=lambda: [PILE] * NUM_CARDS)  # every card's location
    piles: list[int] = field(default_factory=lambda: list(DECK_SIZES))  # cards per draw pile

    game_id = "traders-of-genoa"

    # ------------------------------------------------------------------ basics
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def current_player(self) -> int | None:
        return None if self.stage == ST_END else self.to_move

    @property
    def is_terminal(self) -> bool:
        return self.stage == ST_END

    def hand(self, seat: int, deck: int) -> list[int]:
        """The cards of ``deck`` known to be in ``seat``'s hand, ascending."""
        first = DECK_FIRST[deck]
        return [c for c in range(first, first + DECK_SIZES[deck]) if self.cards[c] == seat]

    def building_visited(self, b: int) -> bool:
        return any(SQUARE[s] == b for s in self.path)

    # ------------------------------------------------------------- legal moves
    def legal_action_ids(self) -> list[int]:
        if self.stage == ST_END:
            return []
        return sorted(_GENERATORS[self.stage](self, self.players[self.to_move]))

    def _start_moves(self, p: Player) -> list[int]:
        ids = [A_ROLL]
        if p.specials[S_ANY_START]:
            ids += [A_START + s for s in range(NUM_SQUARES) if SQUARE[s] != MARKET]
        return ids

    def _walk_moves(self, p: Player) -> list[int]:
        """``stop``, a step, and at the walk (not while answering steering offers) ``hear``."""
        ids = [A_STOP]
        if len(self.path) < TOWER_DISCS:
            for d, s in enumerate(NEIGHBOUR[self.path[-1]]):
                if s >= 0 and SQUARE[s] != MARKET and s not in self.path:
                    ids.append(A_MOVE + d)
        if self.stage == ST_WALK and self.may_hear():
            ids.append(A_HEAR)
        return ids

    def steering_targets(self) -> list[int]:
        """The squares next to the tower of buildings it has not visited this turn (while
        it has a disc left), ascending: where a steering offer may send it."""
        if len(self.path) >= TOWER_DISCS:
            return []
        return sorted(s for s in NEIGHBOUR[self.path[-1]] if s >= 0 and SQUARE[s] >= 0
                      and not self.building_visited(SQUARE[s]))

    def may_hear(self) -> bool:
        """The owner may call for steering offers: the tower can step onto a building it has
        not visited and another player may still act."""
        return bool(self.steering_targets()) and any(
            self.may_act(q) for q in range(self.num_players) if q != self.owner)

    def can_offer(self, seat: int) -> bool:
        """``seat`` may make an offer, by what every view knows (goods, special cards and
        markers are public, a hand by its count): ducats (not alone in 2-player games) or an item."""
        p = self.players[seat]
        needed = int(p.actions >= self._action_limit(seat))  # the extra-action card he needs
        return (self.num_players > 2 and p.ducats >= OFFER_STEP) or any(p.goods) or any(p.hand) \
            or p.markers > 0 or any(n > needed * (k == S_EXTRA_ACTION) for k, n in enumerate(p.specials))

    def _offer_moves(self, p: Player) -> list[int]:
        """``pass``, or build an offer item by item (``give``) and make it (``offer``), a
        steering offer opened by its target (``steer``); in 2-player games ducats only while
        an item besides them can follow (known to all: a card counts by the hand's public
        count)."""
        seat = self.to_move
        ducats = self.offer_ducats[seat]
        if self.stage == ST_STEER and ducats < 0:
            return [A_PASS] + ([A_STEER + s for s in self.steering_targets()] if self.can_offer(seat) else [])
        top = self.offer_top(seat)
        needed = [0] * len(SPECIALS)  # not the extra-action card its bidder needs to act
        needed[S_EXTRA_ACTION] = int(p.actions >= self._action_limit(seat))
        items = [A_GIVE + I_GOOD + g for g in range(NUM_GOODS)
                 if I_GOOD + g >= top and self.offer_goods[seat][g] < p.goods[g]]
        items += [A_GIVE + I_CARD + c for c in range(NUM_CARDS)
                  if I_CARD + c > top and self.cards[c] == seat and not self.offered_cards[c]]
        items += [A_GIVE + I_SPECIAL + k for k in range(len(SPECIALS))
                  if I_SPECIAL + k >= top and self.offer_specials[seat][k] < p.specials[k] - needed[k]]
        if self.offer_markers[seat] < p.markers:
            items.append(A_GIVE + I_MARKER)
        ids = [A_PASS] if ducats < 0 else []
        if (ducats > 0 or top >= I_GOOD) and (top >= I_GOOD or self.num_players > 2):
            ids.append(A_OFFER)
        if top < I_GOOD and (self.num_players > 2 or items or any(p.hand)):  # (counts are public)
            total = max(ducats, 0)
            ids += [A_GIVE + i for i, c in enumerate(OFFER_COINS) if total % c == 0 and total + c <= p.ducats]
        return ids + items

    def offer_top(self, seat: int) -> int:
        """The last item in building order in ``seat``'s offer (ITEM_NAMES; 0 for ducats or
        nothing): items are added from it on."""
        if self.offer_markers[seat]:
            return I_MARKER
        top = 0
        for k, n in enumerate(self.offer_specials[seat]):
            top = I_SPECIAL + k if n else top
        if top:
            return top
        for c in range(NUM_CARDS):
            top = I_CARD + c if self.offered_cards[c] and self.cards[c] == seat else top
        if top:
            return top
        for g, n in enumerate(self.offer_goods[seat]):
            top = I_GOOD + g if n else top
        return top

    def _decide_moves(self, p: Player) -> list[int]:
        """Sell to an offer or take the action; only while nobody offered may it lapse."""
        ids = [A_ACCEPT + q for q, d in enumerate(self.offer_ducats) if d >= 0]
        if not ids:
            ids.append(A_LAPSE)
        if self.may_act(self.owner):
            ids.append(A_TAKE)
        return ids

    def _heed_moves(self, p: Player) -> list[int]:
        """Answer the steering offers: walk on (refusing them all) or accept one."""
        return self._walk_moves(p) + [A_ACCEPT + q for q, d in enumerate(self.offer_ducats) if d >= 0]

    def _villa_moves(self, p: Player) -> list[int]:
        """A privilege or a large order; the goods cards may be played first, so that they
        complete the order."""
        orders = [c - DECK_FIRST[D_LARGE] for c in self.hand(self.actor, D_LARGE)]
        return [A_PRIVILEGE] + self._goods_card_moves(p) + [
            A_LARGE + o for o in orders if LARGE_ORDERS[o][0] == self.site and _has_goods(p, LARGE_ORDERS[o][1])]

    def _reward_moves(self, p: Player) -> list[int]:
        return [A_SPECIAL + k for k in range(len(SPECIALS)) if self.special_supply[k]]

    def _goods_card_moves(self, p: Player) -> list[int]:
        """Any-good and trade cards the actor may play."""
        ids = []
        if p.specials[S_ANY_GOOD]:
            ids += [A_GOOD + g for g in range(NUM_GOODS) if self.supply[g]]
        if p.specials[S_TRADE]:
            ids += [trade_id(a, b) for a in range(NUM_GOODS) if p.goods[a]
                    for b in range(NUM_GOODS) if b != a and self.supply[b]]
        return ids

    def _extras_moves(self, p: Player) -> list[int]:
        ids = [A_DONE] + self._goods_card_moves(p)
        if not self.delivered:
            for c in self.hand(self.actor, D_SMALL):
                good, building = SMALL_ORDERS[c - DECK_FIRST[D_SMALL]]
                if building == self.site and p.goods[good]:
                    ids.append(A_DELIVER + c - DECK_FIRST[D_SMALL])
        if p.specials[S_BUILDING_ACTION]:
            ids += [A_PALACE + b for b in range(NUM_BUILDINGS)
                    if b != self.site and self.marks[b] >> self.actor & 1]
        return ids

    def _base_moves(self, p: Player) -> list[int]:
        ids = [A_PASS]
        if p.markers:
            for i, s in enumerate(self.path):
                if SQUARE[s] == STREET and not self.used_discs >> i & 1 and any(
                        not self.marks[b] >> self.to_move & 1 for b in STREET_BUILDINGS[s]):
                    ids.append(A_BASE + s)
        return ids

    def _mark_moves(self, p: Player) -> list[int]:
        """Markers on the buildings next to the base in ascending order; before the first,
        once, a marker given up to remove another player's from one of them."""
        ids = [A_DONE]
        if p.markers:
            ids += [A_MARK + b for b in STREET_BUILDINGS[self.base]
                    if b > self.last_mark and not self.marks[b] >> self.to_move & 1]
            if self.last_mark < 0 and not self.ousted:
                ids += [A_OUST + b * MAX_PLAYERS + q for b in STREET_BUILDINGS[self.base]
                        for q in range(self.num_players) if q != self.to_move and self.marks[b] >> q & 1]
        return ids

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may still take an action this turn (one each; an extra-action
        card allows one more; in 2-player games the owner may take two if his opponent
        took one)."""
        return self.players[seat].actions < self._action_limit(seat) or bool(
            self.players[seat].specials[S_EXTRA_ACTION])

    def _action_limit(self, seat: int) -> int:
        if self.num_players == 2 and seat == self.owner:
            return 1 + (self.players[1 - seat].actions > 0)
        return 1

    # ------------------------------------------------------------------- apply
    def copy(self) -> State:
        c = super().copy()
        c.offer_goods = [g[:] for g in self.offer_goods]
        c.offer_specials = [k[:] for k in self.offer_specials]
        return c

    def apply(self, move: Move | str, rng: Rng, play_forced: bool = True) -> State:
        """``GameState.apply``; a whole offer (``offer:25+silk``, ``moves.offer_moves``) is
        its gives and ``offer`` played in turn (an illegal one names itself)."""
        if not (isinstance(move, str) and is_offer(move)):
            return super().apply(move, rng, play_forced)
        s, parts = self, offer_moves(move)
        for i, part in enumerate(parts):
            s = GameState.apply(s, part, rng, play_forced and i == len(parts) - 1)
        return s

    def _resolve_forced(self, rng: Rng, play_forced: bool = True) -> None:
        """(``play_forced``) Play every decision that has a single move; ducats capped after
        the move played and after each of these."""
        self._cap()
        while self.stage != ST_END:
            legal = self.legal_action_ids()
            if len(legal) != 1 or not play_forced:
                return
            self._do(Move.from_id(legal[0]), rng)
            self._cap()

    def _cap(self) -> None:
        """Ducats count up to LIMIT (gains beyond it are lost)."""
        for p in self.players:
            p.ducats = min(p.ducats, LIMIT)

    def _do(self, move: Move, rng: Rng) -> None:
        k, a = move.kind, move.arg
        p = self.players[self.to_move]
        if self.stage == ST_HEED and k in ("move", "stop"):
            self._clear_offers()  # the owner walks on: the steering offers lapse
        if k == "hear":
            self._clear_offers()
            self.to_move = self.owner
            self._next_bidder(ST_STEER)
        elif k == "steer":
            self.offer_target[self.to_move], self.offer_ducats[self.to_move] = a, 0
        elif k == "roll":
            self._roll(rng)
        elif k == "start":
            self._use_special(p, S_ANY_START)
            self._enter(a)
        elif k == "move":
            self._enter(NEIGHBOUR[self.path[-1]][a])
        elif k == "stop":
            self._acquisition_turn()
        elif k == "give":
            self._give(self.to_move, a)
        elif k == "offer" or (k == "pass" and self.stage in (ST_OFFER, ST_STEER)):
            self._next_bidder(self.stage)
        elif k == "accept" and self.stage == ST_HEED:
            self._steer(a, rng)
        elif k == "accept":
            self._sell(a, rng)
        elif k == "take":
            self._perform(self.owner, self.site, True, rng)
        elif k == "lapse":
            self._after_action()
        elif k == "privilege":
            self._draw_to(self.actor, D_PRIVILEGE, rng)
            self.stage = ST_EXTRAS
        elif k == "large":
            self._deliver_large(p, a)
        elif k == "special":
            self.special_supply[a] -= 1
            p.specials[a] += 1
            self.stage = ST_EXTRAS
        elif k == "good":
            self._use_special(p, S_ANY_GOOD)
            self._take_good(p, a)
        elif k == "trade":
            self._use_special(p, S_TRADE)
            p.goods[a] -= 1
            self.supply[a] += 1
            self._take_good(p, move.extra)
        elif k == "deliver":
            good = SMALL_ORDERS[a][0]
            p.goods[good] -= 1
            self.supply[good] += 1
            self._reveal(DECK_FIRST[D_SMALL] + a)
            p.ducats += SMALL_ORDER_PAY
            self.delivered = True
        elif k == "palace":
            self._use_special(p, S_BUILDING_ACTION)
            self._perform(self.actor, a, False, rng)
        elif k == "done" and self.stage == ST_EXTRAS:
            self._after_action()
        elif k == "base":
            self.base, self.last_mark, self.ousted = a, -1, False
            self.used_discs |= 1 << self.path.index(a)
            self.stage = ST_MARK
        elif k == "mark":
            self.marks[a] |= 1 << self.to_move
            p.markers -= 1
            self.last_mark = a
        elif k == "oust":
            p.markers -= 1
            p.reserve += 1
            self.marks[a] &= ~(1 << move.extra)
            self.players[move.extra].reserve += 1
            self.ousted = True
        else:  # pass or done in the acquisition
            self._next_acquirer()

    def _use_special(self, p: Player, kind: int) -> None:
        p.specials[kind] -= 1
        self.special_supply[kind] += 1

    def _take_good(self, p: Player, g: int) -> None:
        """One good ``g`` from the supply, if any is left."""
        if self.supply[g]:
            self.supply[g] -= 1
            p.goods[g] += 1

    # ----------------------------------------------------------- the tower walk
    def _begin_turn(self) -> None:
        self.path, self.used_discs, self.acquirer = [], 0, 0
        for q in self.players:
            q.actions = 0
        self.stage, self.to_move = ST_START, self.owner

    def _roll(self, rng: Rng) -> None:
        """Roll for the start square; a market start moves the round marker on and rolls again
        (a follower is told the squares: ``chance.Told``)."""
        while True:
            if isinstance(rng, Told):
                square = rng.square()
            else:
                square = rng.below(DIE_SIDES) * DIE_SIDES + rng.below(DIE_SIDES)
            if isinstance(rng, Witness):
                rng.squares.append(square)
            if SQUARE[square] != MARKET:
                break
            self.round = min(self.round + 1, ROUNDS[self.num_players])  # the track's last space
        self._enter(square)

    def _enter(self, square: int) -> None:
        """The tower moves onto ``square`` (leaving a disc): messages are checked and a
        building entered for the first time this turn offers its action."""
        b = SQUARE[square]
        first = b >= 0 and not self.building_visited(b)
        self.path.append(square)
        if first:
            self._complete_messages(b)
            self.site = b
            self._clear_offers()
            self.to_move = self.owner
            self._next_bidder(ST_OFFER)
        else:
            self.stage, self.to_move = ST_WALK, self.owner

    def _complete_messages(self, entered: int) -> None:
        """The tower has entered building ``entered`` for the first time this turn: every
        message in a hand that names it and a building visited before is paid."""
        visited = {SQUARE[s] for s in self.path}
        first = DECK_FIRST[D_MESSAGE]
        for c in range(first, first + DECK_SIZES[D_MESSAGE]):
            seat = self.cards[c]
            if seat < PILE and entered in MESSAGES[c - first] and all(b in visited for b in MESSAGES[c - first]):
                self._reveal(c)
                self.players[seat].ducats += MESSAGE_PAY

    def _next_bidder(self, bidding: int) -> None:
        """The next player after the one to move who may act makes an offer (``bidding``:
        ST_OFFER for the action on offer, ST_STEER a steering offer); after the last, the
        owner decides (ST_DECIDE) or answers the steering offers (ST_HEED)."""
        seat = self.to_move
        while True:
            seat = (seat + 1) % self.num_players
            if seat == self.owner:
                self.stage, self.to_move = ST_DECIDE if bidding == ST_OFFER else ST_HEED, self.owner
                return
            if self.may_act(seat):
                self.stage, self.to_move = bidding, seat
                return

    def offer_items(self, seat: int) -> list[int]:
        """The items of ``seat``'s offer (ITEM_NAMES indices, coins excluded) in building order."""
        items = [I_GOOD + g for g, n in enumerate(self.offer_goods[seat]) for _ in range(n)]
        items += [I_CARD + c for c in range(NUM_CARDS) if self.offered_cards[c] and self.cards[c] == seat]
        items += [I_SPECIAL + k for k, n in enumerate(self.offer_specials[seat]) for _ in range(n)]
        return items + [I_MARKER] * self.offer_markers[seat]

    def offer_notation(self, seat: int) -> str:
        """``seat``'s offer as a whole offer's notation (``offer:25+silk+small_16``; a steering
        offer ``steer:1.4:25+silk``), "" for none."""
        if self.offer_ducats[seat] < 0:
            return ""
        words = [str(self.offer_ducats[seat])] if self.offer_ducats[seat] else []
        target = self.offer_target[seat]
        verb = f"steer:{square_name(target)}" if target >= 0 else "offer"
        return f"{verb}:" + "+".join(words + [ITEM_NAMES[i] for i in self.offer_items(seat)])

    def _give(self, seat: int, item: int) -> None:
        """One item into ``seat``'s offer (the first one opens it)."""
        self.offer_ducats[seat] = max(self.offer_ducats[seat], 0)
        if item < I_GOOD:
            self.offer_ducats[seat] += OFFER_COINS[item]
        elif item < I_CARD:
            self.offer_goods[seat][item - I_GOOD] += 1
        elif item < I_SPECIAL:
            self.offered_cards[item - I_CARD] = 1
        elif item < I_MARKER:
            self.offer_specials[seat][item - I_SPECIAL] += 1
        else:
            self.offer_markers[seat] += 1

    def _sell(self, buyer: int, rng: Rng) -> None:
        """The owner accepts ``buyer``'s offer: everything in it changes hands (a marker goes
        back to the buyer's supply and the owner takes one of his own from his)."""
        b, o = self.players[buyer], self.players[self.owner]
        b.ducats -= self.offer_ducats[buyer]
        o.ducats += self.offer_ducats[buyer]
        for g, n in enumerate(self.offer_goods[buyer]):
            b.goods[g] -= n
            o.goods[g] += n
        for k, n in enumerate(self.offer_specials[buyer]):
            b.specials[k] -= n
            o.specials[k] += n
        for c in range(NUM_CARDS):
            if self.offered_cards[c] and self.cards[c] == buyer:
                b.hand[CARD_DECK[c]] -= 1
                o.hand[CARD_DECK[c]] += 1
                self.cards[c] = self.owner
        n = self.offer_markers[buyer]
        b.markers -= n
        b.reserve += n
        n = min(n, o.reserve)
        o.reserve -= n
        o.markers += n
        self._perform(buyer, self.site, True, rng)

    def _steer(self, buyer: int, rng: Rng) -> None:
        """The owner accepts ``buyer``'s steering offer: the tower moves onto its target
        (messages pay as on any entry) and ``buyer`` buys that building's action with it."""
        square = self.offer_target[buyer]
        self.path.append(square)
        self._complete_messages(SQUARE[square])
        self.site = SQUARE[square]
        self._sell(buyer, rng)

    def _perform(self, actor: int, b: int, counted: bool, rng: Rng) -> None:
        """``actor`` takes the action of building ``b`` (``counted``: one of his actions this
        turn; a building-action card's is not).  Markers of others on ``b`` pay them."""
        p = self.players[actor]
        if counted:
            if p.actions >= self._action_limit(actor):
                self._use_special(p, S_EXTRA_ACTION)
            p.actions += 1
        self._clear_offers()
        self.site, self.actor, self.delivered = b, actor, False
        self.stage, self.to_move = ST_EXTRAS, actor
        for q in range(self.num_players):
            if q != actor and self.marks[b] >> q & 1:
                self.players[q].ducats += OWNER_INCOME
        building = BUILDINGS[b]
        if building.action == "villa":
            self.stage = ST_VILLA
        elif building.action == "draw":
            deck, cards = building.arg
            for _ in range(cards):
                self._draw_to(actor, DECKS.index(deck), rng)
        elif building.action == "markers":
            n = min(building.arg, p.reserve)
            p.reserve -= n
            p.markers += n
        elif building.action == "goods":
            for g in building.arg:
                self._take_good(p, g)
        elif self.special_supply[building.arg]:
            self.special_supply[building.arg] -= 1
            p.specials[building.arg] += 1

    def _deliver_large(self, p: Player, order: int) -> None:
        for g in LARGE_ORDERS[order][1]:
            p.goods[g] -= 1
            self.supply[g] += 1
        self._reveal(DECK_FIRST[D_LARGE] + order)
        p.ducats += LARGE_ORDER_PAY
        self.stage = ST_REWARD if any(self.special_supply) else ST_EXTRAS

    def _after_action(self) -> None:
        self.site, self.actor, self.delivered = -1, -1, False
        self._clear_offers()
        self.stage, self.to_move = ST_WALK, self.owner

    def _clear_offers(self) -> None:
        n = self.num_players
        self.offer_ducats, self.offer_markers, self.offer_target = [-1] * n, [0] * n, [-1] * n
        self.offer_goods = [[0] * NUM_GOODS for _ in range(n)]
        self.offer_specials = [[0] * len(SPECIALS) for _ in range(n)]
        self.offered_cards = [0] * NUM_CARDS

    # ------------------------------------------------------------------- cards
    def _reveal(self, card: int) -> None:
        """A card from a hand goes face up under its deck."""
        self.players[self.cards[card]].hand[CARD_DECK[card]] -= 1
        self.cards[card] = USED

    def _draw_to(self, seat: int, deck: int, rng: Rng) -> None:
        card = rng.card(self, seat, deck) if isinstance(rng, Told) else self.draw(deck, rng)
        if isinstance(rng, Witness) and card >= 0:
            rng.draws.append((seat, card))
        if card >= 0:
            self.cards[card] = seat
            self.players[seat].hand[deck] += 1

    def draw(self, deck: int, rng: Rng) -> int:
        """Take a card from the pile of ``deck`` (-1 if it and the used cards are gone):
        uniform over the pile's slots; a slot not known to the position holds one of the
        deck's unseen cards, uniformly."""
        first, size = DECK_FIRST[deck], DECK_SIZES[deck]
        cards = range(first, first + size)
        if not self.refill(deck):
            return -1
        known = [c for c in cards if self.cards[c] == PILE]
        r = rng.below(self.piles[deck])
        if r < len(known):
            card = known[r]
        else:
            unseen = [c for c in cards if self.cards[c] == UNSEEN]
            card = unseen[rng.below(len(unseen))]
        self.piles[deck] -= 1
        return card

    def refill(self, deck: int) -> bool:
        """An empty pile of ``deck`` first takes its deck's used cards back; whether it has a
        card then."""
        if not self.piles[deck]:
            for c in range(DECK_FIRST[deck], DECK_FIRST[deck] + DECK_SIZES[deck]):
                if self.cards[c] == USED:
                    self.cards[c] = PILE
                    self.piles[deck] += 1
        return self.piles[deck] > 0

    # ------------------------------------------------------------ acquisition
    def _acquisition_turn(self) -> None:
        """The next player's acquisition (from the owner on, ``acquirer`` seats after him);
        after the last, the turn ends."""
        if self.acquirer == self.num_players:
            self._end_turn()
            return
        self.base, self.last_mark, self.ousted = -1, -1, False
        self.stage, self.to_move = ST_BASE, (self.owner + self.acquirer) % self.num_players

    def _next_acquirer(self) -> None:
        self.acquirer += 1
        self._acquisition_turn()

    def _end_turn(self) -> None:
        """The tower passes left; after a full round the marker moves on, and the game ends
        once it has reached the number of rounds."""
        self.path, self.used_discs, self.acquirer, self.base, self.last_mark = [], 0, 0, -1, -1
        self.ousted = False
        self.owner = (self.owner + 1) % self.num_players
        if self.owner == self.start_player:
            self.round = min(self.round + 1, ROUNDS[self.num_players])
            if self.round >= ROUNDS[self.num_players]:
                self.stage, self.to_move = ST_END, -1
                for q in self.players:
                    q.actions = 0
                return
        self._begin_turn()

    # ----------------------------------------------------------------- scoring
    def owned(self, seat: int) -> int:
        """The buildings carrying ``seat``'s marker, as a bitmask."""
        return sum(1 << b for b in range(NUM_BUILDINGS) if self.marks[b] >> seat & 1)

    def privilege_value(self, seat: int, card: int) -> int:
        size = group_size(self.owned(seat), PRIVILEGES[card - DECK_FIRST[D_PRIVILEGE]])
        return PRIVILEGE_PAY[min(size, len(PRIVILEGE_PAY) - 1)]

    def scores(self) -> list[int]:
        """Ducats with the final payouts: privileges by connected owned buildings and
        ``MARKER_END_VALUE`` per marker on the board."""
        out = []
        for seat, p in enumerate(self.players):
            score = p.ducats + MARKER_END_VALUE * bin(self.owned(seat)).count("1")
            score += sum(self.privilege_value(seat, c) for c in self.hand(seat, D_PRIVILEGE))
            out.append(score)
        return out

    def tiebreaks(self) -> list[int]:
        """More unused goods win a tie."""
        return [sum(p.goods) for p in self.players]

    # ------------------------------------------------------------------- views
    def observation(self, viewer: int) -> State:
        """What ``viewer`` sees: the other hands and the piles as unseen cards (the final
        scoring shows every hand)."""
        s = super().observation(viewer)
        shown = range(s.num_players) if self.stage == ST_END else (viewer,)
        s.cards = [UNSEEN if (loc < PILE and loc not in shown and not offered) or loc == PILE else loc
                   for loc, offered in zip(s.cards, s.offered_cards)]
        return s

    @property
    def hides_nothing(self) -> bool:
        """Whether every card's place is known (a full-information state)."""
        return UNSEEN not in self.cards

    def follow(self, move: Move | str, rng: Rng, viewer: int, shown: Sequence[str] = ()) -> State:
        """``GameState.follow``; on ``viewer``'s observation, ``shown`` (``chance``) tells
        the squares rolled, the cards he drew and the cards others showed (messages paid,
        hands at the end), which then replace the seed's chance; without it his draws come
        from the seed.  A whole offer is followed as its moves."""
        if isinstance(move, str) and is_offer(move):
            s, parts = self, offer_moves(move)
            for i, part in enumerate(parts):
                s = s.follow(part, rng, viewer, shown if i == len(parts) - 1 else ())
            return s
        if self.hides_nothing or not shown:
            return super().follow(move, rng, viewer, shown)
        if isinstance(move, str):
            move = Move.parse(move)
        squares, cards, showed = parse_shown(shown)
        s = self._assume(move, viewer)
        for card, seat in showed:
            deck = CARD_DECK[card]
            if not (0 <= seat < s.num_players and seat != viewer and s.cards[card] == UNSEEN
                    and len(s.hand(seat, deck)) < s.players[seat].hand[deck]):
                raise IllegalMoveError(f"shown: seat {seat} cannot hold {CARD_NAMES[card]}")
            s.cards[card] = seat
        told = Told(viewer, squares, cards)
        after = s.apply(move, told, play_forced=False)
        told.finish()
        kept = [CARD_NAMES[c] for c, _ in showed if after.cards[c] != USED and not after.is_terminal]
        if kept:
            raise IllegalMoveError(f"shown: {', '.join(kept)} did not pay in this move")
        return after.observation(viewer)

    def _assume(self, move: Move, viewer: int) -> State:
        """An order another player delivers (``deliver:12``, ``large:3``) or a card he offers
        (``give:small_16``) that the viewer could not see, taken as in his hand when he may
        hold it (he has unknown cards of its deck): the move then shows it like any other."""
        deck = {"deliver": D_SMALL, "large": D_LARGE}.get(move.kind)
        card = -1 if deck is None else DECK_FIRST[deck] + move.arg
        if move.kind == "give" and I_CARD <= move.arg < I_SPECIAL:
            card = move.arg - I_CARD
            deck = CARD_DECK[card]
        seat = self.to_move
        if deck is None or seat == viewer or self.stage == ST_END:
            return self
        if self.cards[card] != UNSEEN or self.players[seat].hand[deck] <= len(self.hand(seat, deck)):
            return self
        s = self.copy()
        s.cards[card] = seat
        return s

    def paid_elsewhere(self) -> set[int]:
        """Messages the rules place in no hand: while the owner negotiates the building
        the tower has just entered (no action taken since), a message naming it and
        another visited building would have paid on entering, so it is in the pile."""
        if self.stage not in (ST_OFFER, ST_DECIDE):
            return set()
        visited = {SQUARE[s] for s in self.path}
        first = DECK_FIRST[D_MESSAGE]
        return {first + i for i, pair in enumerate(MESSAGES) if self.site in pair and all(b in visited for b in pair)}

    def determinize(self, viewer: int, rng: Rng) -> State:
        """A full state consistent with ``observation(viewer)`` and what the rules let the
        viewer infer (``paid_elsewhere``), uniform over those deals: each deck's unseen
        cards that may be in a hand, shuffled (Fisher-Yates, ``below(i + 1)`` from the
        top), dealt to every other seat (the player to move too) in seat order up to
        their counts, the rest to the pile.  A client's position that defies the inference
        (too few such cards) is dealt from all its deck's unseen cards."""
        s = self.observation(viewer)
        in_pile = s.paid_elsewhere()
        for deck in range(len(DECKS)):
            first = DECK_FIRST[deck]
            cards = range(first, first + DECK_SIZES[deck])
            need = [0 if seat == viewer else s.players[seat].hand[deck] - len(s.hand(seat, deck))
                    for seat in range(s.num_players)]
            unseen = [c for c in cards if s.cards[c] == UNSEEN]
            pool = [c for c in unseen if c not in in_pile]
            if len(pool) < sum(need):
                pool = unseen
            for i in range(len(pool) - 1, 0, -1):
                j = rng.below(i + 1)
                pool[i], pool[j] = pool[j], pool[i]
            k = 0
            for seat, n in enumerate(need):
                for c in pool[k:k + n]:
                    s.cards[c] = seat
                k += n
            for c in unseen:
                if s.cards[c] == UNSEEN:
                    s.cards[c] = PILE
        return s


State.Move = Move  # the move type of the game's states (GameState.Move)


def _has_goods(p: Player, goods: tuple[int, ...]) -> bool:
    return all(p.goods[g] >= goods.count(g) for g in goods)


def new_game(players: int = 4, seed: int = 0, **options: str) -> State:
    """A new game: the start player and one card of each deck per player (in turn order
    from the start player, deck by deck) from ``seed``."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"players: {players} is not one of {', '.join(map(str, PLAYER_COUNTS))}")
    if options:
        raise ValueError(f"options: unknown option {sorted(options)[0]!r} (this game has none)")
    rng = Rng(seed)
    start = rng.below(players)
    state = State(players=[Player() for _ in range(players)], start_player=start, owner=start)
    state._clear_offers()
    for i in range(players):
        for deck in range(len(DECKS)):
            state._draw_to((start + i) % players, deck, rng)
    state._begin_turn()
    state._resolve_forced(rng)
    return state


_GENERATORS = {
    ST_START: State._start_moves, ST_OFFER: State._offer_moves, ST_DECIDE: State._decide_moves,
    ST_VILLA: State._villa_moves, ST_REWARD: State._reward_moves, ST_EXTRAS: State._extras_moves,
    ST_WALK: State._walk_moves, ST_STEER: State._offer_moves, ST_HEED: State._heed_moves, ST_BASE: State._base_moves,
    ST_MARK: State._mark_moves,
}
