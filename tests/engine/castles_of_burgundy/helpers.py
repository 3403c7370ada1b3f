"""Helpers to build Castles of Burgundy scenarios for the rule tests.

Scenarios move components between their places (stacks, depots, storage, estate) so every
scenario is a valid position; ``check`` validates it.  Spaces, depots and goods are given by
their printed numbers, as in the notation.
"""

from __future__ import annotations

from meeplemind.engine import Rng
from meeplemind.engine.castles_of_burgundy import Move, State, new_game
from meeplemind.positions import check_state
from meeplemind.engine.castles_of_burgundy.data import DEPOT_SLOTS, NUM_GOODS, TILE_IDS, knowledge
from meeplemind.engine.castles_of_burgundy.state import ST_TURN


def fresh(players: int = 2, seed: int = 0) -> State:
    """A new game at its first turn with seat 0 first, seat 1 second, ...; nobody holds goods,
    every player has his start workers and one silverling, and the dice show 1 and 2."""
    s = new_game(players, seed)
    s.ranking = list(range(players))
    s.round_order = list(range(players))
    s.turn, s.stage = 0, ST_TURN
    for i, p in enumerate(s.players):
        p.workers = i + 1
        for g in range(NUM_GOODS):
            s.goods_pool[g] += p.goods[g]
            p.goods[g] = 0
        p.dice = [1, 2]
    return s


def tile(name: str) -> int:
    """Tile kind by name; ``k7`` is knowledge #7."""
    return knowledge(int(name[1:])) if name[0] == "k" and name[1:].isdigit() else TILE_IDS[name]


def _from_supply(s: State, t: int) -> None:
    """Take one tile of kind ``t`` out of the hidden stacks, else out of the depots."""
    if s.stack[t]:
        s.stack[t] -= 1
    elif s.black_stack[t]:
        s.black_stack[t] -= 1
    elif t in s.depots:
        s.depots[s.depots.index(t)] = -1
    elif t in s.black:
        s.black[s.black.index(t)] = -1
    else:
        raise AssertionError(f"no {t} tile left to take")


def give(s: State, player: int, *names: str) -> None:
    """Put tiles into ``player``'s storage."""
    p = s.players[player]
    for name in names:
        t = tile(name)
        _from_supply(s, t)
        p.storage[p.storage.index(-1)] = t
    p.storage.sort(key=lambda t: (t < 0, t))


def put(s: State, player: int, cells: dict[int, str]) -> None:
    """Place tiles directly into ``player``'s estate ({space: tile})."""
    for cell, name in cells.items():
        t = tile(name)
        _from_supply(s, t)
        s.players[player].estate[cell - 1] = t


def depot(s: State, number: int, slot: int, name: str) -> None:
    """Lay tile ``name`` in slot ``slot`` of depot ``number`` (the old tile goes back)."""
    a = (number - 1) * DEPOT_SLOTS + slot - 1
    old = s.depots[a]
    if old >= 0:
        s.depots[a] = -1
        s.stack[old] += 1
    t = tile(name)
    _from_supply(s, t)
    s.depots[a] = t


def black(s: State, slot: int, name: str) -> None:
    """Lay tile ``name`` in slot ``slot`` of the black depot (the old tile goes back)."""
    old = s.black[slot - 1]
    if old >= 0:
        s.black[slot - 1] = -1
        s.black_stack[old] += 1
    t = tile(name)
    _from_supply(s, t)
    s.black[slot - 1] = t


def goods(s: State, player: int, **counts: int) -> None:
    """Give goods from the hidden pool: ``goods(s, 0, g3=2)`` gives two goods 3."""
    for key, n in counts.items():
        g = int(key[1:]) - 1
        s.goods_pool[g] -= n
        s.players[player].goods[g] += n


def depot_goods(s: State, number: int, **counts: int) -> None:
    """Lay goods from the hidden pool on depot ``number``'s goods space."""
    for key, n in counts.items():
        g = int(key[1:]) - 1
        s.goods_pool[g] -= n
        s.depot_goods[(number - 1) * NUM_GOODS + g] += n


def check(s: State) -> State:
    check_state(s)
    return s


def legal(s: State) -> list[str]:
    return sorted(str(m) for m in s.legal_moves())


def play(s: State, *moves: str, seed: int = 1) -> State:
    rng = Rng(seed)
    check(s)
    for m in moves:
        s = s.apply(Move.parse(m), rng)
    return s


def clear_depot_goods(s: State) -> None:
    """Return every goods tile on the depots to the hidden pool."""
    for i, n in enumerate(s.depot_goods):
        s.goods_pool[i % NUM_GOODS] += n
        s.depot_goods[i] = 0


def last_turn_of_phase(s: State) -> State:
    """Skip to round 5 of the phase with the last player in turn order to move."""
    for r, g in enumerate(s.round_goods):
        if g >= 0:
            s.goods_pool[g] += 1
            s.round_goods[r] = -1
    s.round, s.turn = 4, s.num_players - 1
    for seat in s.round_order[:-1]:
        s.players[seat].dice = [0, 0]
    return s


def sold(s: State, player: int, **counts: int) -> None:
    """Mark goods from the hidden pool as sold by ``player``: ``sold(s, 0, g2=3)``."""
    for key, n in counts.items():
        g = int(key[1:]) - 1
        s.goods_pool[g] -= n
        s.players[player].sold[g] += n
