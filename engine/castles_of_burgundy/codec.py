"""Castles of Burgundy positions as JSON-ready dicts and as the int32 state vector.

``from_dict`` checks every field, then the whole position on its state vector
(``validate.check_vector``: conservation of every tile and goods tile, estate rules, bonus
tiles, turn bookkeeping) and raises ``PositionError`` naming the field path.

State vector, layout version 1 (``VECTOR_LEN`` = 498 int32).  Engine indices are 0-based:
tile kinds 0-48 (data.TILE_NAMES), goods 0-5 (goods number - 1), depots 0-5, cells 0-36
(space - 1); -1 is "none".  A C decoder range-checks every field in this order, then the
invariants of validate.py::

      0 version (1)          1 players (2-4)       2 phase (A-E = 0-4)    3 round (0-4)
      4 stage (turn discard tile castle city_hall carpenter church market warehouse ship
              goods end = 0-11)
      5 turn (index into round_order)               6 current player (-1 at the end)
      7 bought (0/1)         8 pending tile (-1: none; the tile waiting in stage discard)
      9 pending cell (-1: none; stage tile)        10 ship depots (bitmask; stage goods)
     11 goods chosen (bitmask; stage goods)
     12 turn_order[4]: the turn-order track, first player first (-1: absent seat)
     16 round_order[4]: the track at the start of this round (-1: absent seat)
     20 depots[6] x slots[4]: tile kind (-1: empty; slots beyond the player count -1)
     44 black depot[8]: tile kind (-1: empty; slots beyond 4/6/8 -1)
     52 depots[6] x goods[6]: goods tiles on each depot's goods space
     88 round_goods[5]: goods of the phase's round spaces (-1: moved to a depot)
     93 hidden goods[6]: goods tiles not yet seen (later phases and out of the game)
     99 hidden tiles[49]: the colour-backed stacks, per tile kind
    148 hidden black tiles[49]: the black-backed stack, per tile kind
    197 discarded[49]: tiles out of the game, per tile kind
    246 players[4] x 63 (absent seats: 0, storage and estate -1):
        +0 silverlings  +1 workers  +2 vp  +3 dice[2] (ascending, 0: used)
        +5 goods[6]  +11 sold[6]  +17 bonus tiles[6] per colour (0, 1 first, 2 second)
        +23 storage[3] (ascending, -1 last)  +26 estate[37] (tile kind per cell, -1: empty)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import PositionError
from .board import NUM_CELLS, START_CELL
from .data import (
    BLACK_SLOTS, COLOURS, DEPOT_SLOTS, NUM_COLOURS, NUM_DEPOTS, NUM_GOODS, NUM_TILES,
    PHASE_NAMES, ROUNDS, SETUPS, STORAGE, TILE_IDS, TILE_NAMES,
)
from .state import STAGES, Player, State
from .schema import V1 as SCHEMA
from .validate import LAYOUT_VERSION, MAX_PLAYERS, O_PLAYERS, PLAYER_LEN, check_vector

_BONUS_NAMES = ("first", "second")
_CELL_KEYS = {str(c + 1): c for c in range(NUM_CELLS)}


#: Field path of every state-vector index (names the field a decoder rejects).
LAYOUT = SCHEMA.names()
VECTOR_LEN = SCHEMA.length


def layout_for(vec: Any) -> tuple[str, ...]:
    """The field names of ``vec``'s entries (one layout so far)."""
    return LAYOUT


def validate(s: State) -> None:
    """Raise PositionError unless ``s`` is a consistent position with a move to play."""
    _raise(check_vector(encode(s).tolist()))
    _check_has_move(s)


def _check_has_move(s: State) -> None:
    if not s.is_terminal and not s.legal_action_ids():
        raise PositionError("current_player", "the player to move has no legal move")


def _raise(bad: tuple[int, str] | None) -> None:
    if bad:
        raise PositionError(LAYOUT[bad[0]] if bad[0] >= 0 else "state", bad[1])


def encode(s: State) -> np.ndarray:
    n = s.num_players
    pad = [-1] * (MAX_PLAYERS - n)
    v = [LAYOUT_VERSION, n, s.phase, s.round, s.stage, s.turn, s.current, int(s.bought),
         s.pending_tile, s.pending_cell, s.ship_mask, s.goods_chosen]
    v += s.ranking + pad + s.round_order + pad
    for pile in (s.depots, s.black, s.depot_goods, s.round_goods, s.goods_pool, s.stack,
                 s.black_stack, s.discarded):
        v += pile
    for p in s.players:
        v += [p.silverlings, p.workers, p.vp, *p.dice, *p.goods, *p.sold, *p.bonus, *p.storage,
              *p.estate]
    absent = [0] * (PLAYER_LEN - STORAGE - NUM_CELLS) + [-1] * (STORAGE + NUM_CELLS)
    v += absent * (MAX_PLAYERS - n)
    return np.asarray(v, dtype=np.int32)


def decode(vec: Any, check: bool = True) -> State:
    """The State of a vector written by ``encode`` (validated like ``from_dict``).
    ``check=False`` skips the validation, for a vector the native decoder has accepted."""
    v = np.asarray(vec).ravel().tolist()
    if check:
        _raise(check_vector(v))
    n = v[1]
    pos = 12

    def take(k: int) -> list[int]:
        nonlocal pos
        pos += k
        return v[pos - k:pos]

    ranking, order = take(MAX_PLAYERS)[:n], take(MAX_PLAYERS)[:n]
    depots, black = take(NUM_DEPOTS * DEPOT_SLOTS), take(BLACK_SLOTS)
    depot_goods, round_goods = take(NUM_DEPOTS * NUM_GOODS), take(ROUNDS)
    goods_pool, stack, black_stack, discarded = (take(NUM_GOODS), take(NUM_TILES), take(NUM_TILES),
                                                 take(NUM_TILES))
    players = []
    for p in range(n):
        f = v[O_PLAYERS + p * PLAYER_LEN:O_PLAYERS + (p + 1) * PLAYER_LEN]
        players.append(Player(estate=f[26:], storage=f[23:26], goods=f[5:11], sold=f[11:17],
                              bonus=f[17:23], dice=f[3:5], silverlings=f[0], workers=f[1], vp=f[2]))
    s = State(players=players, phase=v[2], round=v[3], stage=v[4], turn=v[5], bought=bool(v[7]),
              pending_tile=v[8], pending_cell=v[9], ship_mask=v[10], goods_chosen=v[11],
              ranking=ranking, round_order=order, depots=depots, black=black,
              depot_goods=depot_goods, round_goods=round_goods, goods_pool=goods_pool, stack=stack,
              black_stack=black_stack, discarded=discarded)
    if check:
        _check_has_move(s)
    return s


# ------------------------------------------------------------------------ dicts
def _name(t: int) -> str:
    return TILE_NAMES[t] if t >= 0 else ""


def _counts(counts: list[int]) -> dict[str, int]:
    return {TILE_NAMES[k]: n for k, n in enumerate(counts) if n}


def _bits(mask: int, count: int) -> list[int]:
    return [i + 1 for i in range(count) if mask >> i & 1]


def to_dict(s: State) -> dict[str, Any]:
    """The position as plain JSON data (the ``castles_of_burgundy`` part of a Position).
    Printed numbers: phase A-E, round 1-5, depots and spaces and goods by number."""
    return {
        "phase": PHASE_NAMES[s.phase],
        "round": s.round + 1,
        "stage": STAGES[s.stage],
        "turn_order": list(s.ranking),
        "round_order": list(s.round_order),
        "turn": s.turn,
        "current_player": s.current,
        "bought": s.bought,
        "pending": {"tile": _name(s.pending_tile), "cell": s.pending_cell + 1,
                    "ship_depots": _bits(s.ship_mask, NUM_DEPOTS),
                    "goods_chosen": _bits(s.goods_chosen, NUM_GOODS)},
        "depots": [{"tiles": [_name(t) for t in s.depots[d * DEPOT_SLOTS:(d + 1) * DEPOT_SLOTS]],
                    "goods": s.depot_goods[d * NUM_GOODS:(d + 1) * NUM_GOODS]}
                   for d in range(NUM_DEPOTS)],
        "black_depot": [_name(t) for t in s.black],
        "round_goods": [g + 1 for g in s.round_goods],
        "hidden": {"goods": list(s.goods_pool), "tiles": _counts(s.stack),
                   "black_tiles": _counts(s.black_stack)},
        "discarded": _counts(s.discarded),
        "players": [_player_dict(p) for p in s.players],
    }


def _player_dict(p: Player) -> dict[str, Any]:
    return {
        "silverlings": p.silverlings,
        "workers": p.workers,
        "vp": p.vp,
        "dice": list(p.dice),
        "goods": list(p.goods),
        "sold": list(p.sold),
        "bonus_tiles": {COLOURS[c]: _BONUS_NAMES[b - 1] for c, b in enumerate(p.bonus) if b},
        "storage": [TILE_NAMES[t] for t in p.storage if t >= 0],
        "estate": {str(c + 1): TILE_NAMES[t] for c, t in enumerate(p.estate) if t >= 0},
    }


class _Reader:
    """Typed access to a JSON object that names the path of whatever is wrong."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise PositionError(path or "position", f"expected an object, got {type(data).__name__}")
        self.data, self.path = data, path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def only(self, keys: tuple[str, ...]) -> None:
        extra = sorted(set(self.data) - set(keys), key=str)
        if extra:
            raise PositionError(self.at(str(extra[0])), "unknown field")

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise PositionError(self.at(key), "missing")
        return self.data[key]

    def int(self, key: str, lo: int, hi: int) -> int:
        return _int(self.raw(key), self.at(key), lo, hi)

    def bool(self, key: str) -> bool:
        x = self.raw(key)
        if not isinstance(x, bool):
            raise PositionError(self.at(key), f"expected true or false, got {x!r}")
        return x

    def choice(self, key: str, names: tuple[str, ...]) -> int:
        """The index of a name; "" (the proto3 default, which a writer may omit) is the first."""
        x = self.raw(key) or names[0]
        if x not in names:
            raise PositionError(self.at(key), f"{x!r} is not one of {', '.join(map(repr, names))}")
        return names.index(x)

    def obj(self, key: str) -> _Reader:
        return _Reader(self.raw(key), self.at(key))

    def list(self, key: str, length: int | None = None, most: int | None = None) -> list[Any]:
        x = self.raw(key)
        if not isinstance(x, list):
            raise PositionError(self.at(key), f"expected a list, got {type(x).__name__}")
        if length is not None and len(x) != length:
            raise PositionError(self.at(key), f"expected {length} entries, got {len(x)}")
        if most is not None and len(x) > most:
            raise PositionError(self.at(key), f"at most {most} entries, got {len(x)}")
        return x

    def ints(self, key: str, length: int, lo: int, hi: int) -> list[int]:
        xs = self.list(key, length)
        if all(type(x) is int and lo <= x <= hi for x in xs):
            return list(xs)
        return [_int(x, f"{self.at(key)}[{i}]", lo, hi) for i, x in enumerate(xs)]

    def tile(self, x: Any, path: str, empty: bool) -> int:
        if empty and x == "":
            return -1
        if not isinstance(x, str) or x not in TILE_IDS:
            raise PositionError(path, f"{x!r} is not a tile" + (" (or \"\" for none)" if empty else ""))
        return TILE_IDS[x]

    def tiles(self, key: str, length: int) -> list[int]:
        xs = self.list(key, length)
        if all(type(x) is str and (x in TILE_IDS or x == "") for x in xs):
            return [TILE_IDS[x] if x else -1 for x in xs]
        return [self.tile(x, f"{self.at(key)}[{i}]", True) for i, x in enumerate(xs)]

    def tile_counts(self, key: str) -> list[int]:
        r = self.obj(key)
        counts = [0] * NUM_TILES
        for name, n in r.data.items():
            t = TILE_IDS[name] if name in TILE_IDS else r.tile(name, r.at(str(name)), False)
            counts[t] = n if type(n) is int and 0 <= n <= 1000 else _int(n, r.at(name), 0, 1000)
        return counts

    def numbers(self, key: str, count: int) -> int:
        """A list of distinct printed numbers 1..count, as a bitmask."""
        mask = 0
        for i, x in enumerate(self.list(key, most=count)):
            path = f"{self.at(key)}[{i}]"
            b = 1 << (_int(x, path, 1, count) - 1)
            if mask & b:
                raise PositionError(path, f"{x} is listed twice")
            mask |= b
        return mask


def _int(x: Any, path: str, lo: int, hi: int) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise PositionError(path, f"expected an integer, got {x!r}")
    if x < lo:
        raise PositionError(path, f"{x} is below {lo}")
    if x > hi:
        raise PositionError(path, f"{x} is above {hi}")
    return x


_FIELDS = ("phase", "round", "stage", "turn_order", "round_order", "turn", "current_player", "bought",
           "pending", "depots", "black_depot", "round_goods", "hidden", "discarded", "players")
_PLAYER_FIELDS = ("silverlings", "workers", "vp", "dice", "goods", "sold", "bonus_tiles", "storage",
                  "estate")


def from_dict(data: Any, check: bool = True) -> State:
    """Parse and validate a position dict; raises PositionError naming the field.

    ``check=False`` parses the fields and skips the consistency checks, for a caller
    whose next step runs the same checks (the native decoder of a search)."""
    r = _Reader(data, "")
    r.only(_FIELDS)
    raw_players = r.list("players")
    n = len(raw_players)
    if n not in SETUPS:
        raise PositionError("players", f"{n} players is not supported (2-{MAX_PLAYERS})")
    players = [_read_player(_Reader(x, f"players[{i}]")) for i, x in enumerate(raw_players)]
    pending = r.obj("pending")
    pending.only(("tile", "cell", "ship_depots", "goods_chosen"))
    depots, depot_goods = [], []
    for d, x in enumerate(r.list("depots", NUM_DEPOTS)):
        dr = _Reader(x, f"depots[{d}]")
        dr.only(("tiles", "goods"))
        depots += dr.tiles("tiles", DEPOT_SLOTS)
        depot_goods += dr.ints("goods", NUM_GOODS, 0, 1000)
    hidden = r.obj("hidden")
    hidden.only(("goods", "tiles", "black_tiles"))
    s = State(
        players=players,
        phase=r.choice("phase", tuple(PHASE_NAMES)),
        round=r.int("round", 1, ROUNDS) - 1,
        stage=r.choice("stage", STAGES),
        turn=r.int("turn", 0, n - 1),
        bought=r.bool("bought"),
        pending_tile=pending.tile(pending.raw("tile"), pending.at("tile"), True),
        pending_cell=pending.int("cell", 0, NUM_CELLS) - 1,
        ship_mask=pending.numbers("ship_depots", NUM_DEPOTS),
        goods_chosen=pending.numbers("goods_chosen", NUM_GOODS),
        ranking=r.ints("turn_order", n, 0, n - 1),
        round_order=r.ints("round_order", n, 0, n - 1),
        depots=depots,
        black=r.tiles("black_depot", BLACK_SLOTS),
        depot_goods=depot_goods,
        round_goods=[g - 1 for g in r.ints("round_goods", ROUNDS, 0, NUM_GOODS)],
        goods_pool=hidden.ints("goods", NUM_GOODS, 0, 1000),
        stack=hidden.tile_counts("tiles"),
        black_stack=hidden.tile_counts("black_tiles"),
        discarded=r.tile_counts("discarded"),
    )
    current = r.int("current_player", -1, n - 1)
    if check:
        validate(s)
    if current != s.current:
        raise PositionError("current_player", f"player {s.current} is to move, not {current}")
    return s


def _read_player(r: _Reader) -> Player:
    r.only(_PLAYER_FIELDS)
    bonus = [0] * NUM_COLOURS
    br = r.obj("bonus_tiles")
    br.only(COLOURS)
    for c, colour in enumerate(COLOURS):
        if colour in br.data:
            bonus[c] = br.choice(colour, _BONUS_NAMES) + 1
    storage = sorted(r.tile(x, f"{r.at('storage')}[{i}]", False)
                     for i, x in enumerate(r.list("storage", most=STORAGE)))
    estate = [-1] * NUM_CELLS
    er = r.obj("estate")
    for key, name in er.data.items():
        cell = _CELL_KEYS.get(key, -1)
        if cell < 0:
            raise PositionError(f"{r.at('estate')}[{key}]",
                                f"{key!r} is not a space of the estate (1-{NUM_CELLS})")
        estate[cell] = r.tile(name, f"{r.at('estate')}[{key}]", False)
    if estate[START_CELL] < 0:
        raise PositionError(f"{r.at('estate')}[{START_CELL + 1}]", "missing (the start castle)")
    return Player(estate=estate, storage=storage + [-1] * (STORAGE - len(storage)),
                  goods=r.ints("goods", NUM_GOODS, 0, 1000), sold=r.ints("sold", NUM_GOODS, 0, 1000),
                  bonus=bonus, dice=sorted(r.ints("dice", 2, 0, 6)), silverlings=r.int("silverlings", 0, 1000),
                  workers=r.int("workers", 0, 1000), vp=r.int("vp", 0, 1000))


