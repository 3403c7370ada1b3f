"""Puerto Rico positions as JSON-ready dicts and as the int32 state vector.

``from_dict`` checks every field and the whole position (conservation of every
component against the setup for the player count, phase bookkeeping) and raises
``PositionError`` naming the field path.

State vector, layout version 1 for base games (``VECTOR_LEN`` int32, mirrored by
native/mm_puerto_rico.c, which checks every field on decode)::

    0 version  1 players  2 options (bit 0: university_factory_swap)  3 governor
    4 phase (role settler mayor builder craftsman trader captain storage end = 0..8)
    5 current (-1 at the end)  6 chooser  7 turn  8 picks  9 end_triggered
    10 colonist_supply  11 colonist_ship  12 vp_supply (may be < 0)  13 hacienda_done
    14 to_place  15 last_slot  16 produced (bitmask)  17 captain_loaded  18 store_mask
    19 quarry_supply  20 goods_supply[5]  25 house[5]  30 deck[5]  35 faceup[5]
    40 discard[5]  45 building_supply[23]  68 role_doubloons[8] (-1: card not in play)
    76 role_taken[8]  84 ships[3] x (capacity, kind, count) (absent: 0, -1, 0)
    93 players[5] x 44: doubloons, vp, goods[5], plantations[5], plantation_colonists[5],
       quarries, quarry_colonists, san_juan, wharf_done, buildings[23] (-1: not owned)
       (absent seats: all 0, buildings -1)

Layout version 2 for Expansion I games (``VECTOR_LEN_V2`` = 462 int32): the 20 globals of
v1 with their meaning widened, 18 new globals, then v1's blocks with 37 buildings::

    0..19 as v1, except: 4 phase also draft = 9, guests = 10 (a Guest House window);
       7 turn 0..players (players: the settler's Library tile); 15 last_slot is also the
       lowest slot or kind of the next Guest House move, Small Wharf barrel or Library
       craftsman barrel
    20 new_buildings.forest_supply (0..12)  21 hacienda_tile (-1 none, or the drawn kind waiting)
    22 window (-1, or the phase the Guest House window comes before: 4 6 5 8)
    23 privilege_left (craftsman barrels still to take, 0..2)
    24 black_market.building (-1 or a building id)  25 black_market.due (0..3)
    26 black_market.given (last category given: 0 none, 1 colonist, 2 barrel, 3 vp)
    27 small_wharf_barrels (in the Small Wharf action under way)
    28 made[5] (the craftsman's barrels this phase)  33 kept[5] (storage: free barrels kept)
    38 goods_supply[5]  43 house[5]  48 deck[5]  53 faceup[5]  58 discard[5]
    63 building_supply[37]  100 in_game[37] (new_buildings.violet_buildings; 1: the type is in this game;
        production: 1)
    137 role_doubloons[8]  145 role_taken[8]  153 ships[3] x (capacity, kind, count)
    162 players[5] x 60: doubloons, vp, goods[5], plantations[5], plantation_colonists[5],
        quarries, quarry_colonists, san_juan, wharf_done, forests, small_wharf_done,
        buildings[37]

Every field's path, kind and range is in the table of schema.py (checked in vector order),
then the invariants of validate.py; the action ids of v2 games are ``moves.NUM_ACTIONS_V2``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import PositionError
from .data import BUILDINGS, GOODS, NUM_BASE_BUILDINGS, NUM_BUILDINGS, ROLES, SETUPS, VIOLET
from .expansion import EXPANSION, GIVE_CATEGORIES, WINDOWS, ExpansionState
from .moves import SLOT_NAMES
from .state import NK, OPTIONS, PHASES, Player, State
from .schema import EXPANSION_ONLY
from .schema import V1 as SCHEMA_V1
from .schema import V2 as SCHEMA_V2
from .validate import V1, V2, check_vector, check_vector_v2

LAYOUT_VERSION = 1
MAX_PLAYERS, MAX_SHIPS, MAX_ROLES = 5, 3, len(ROLES)
_PLAYER = (["doubloons", "vp_chips"] + [f"goods.{g}" for g in GOODS] + [f"plantations.{g}" for g in GOODS]
           + [f"plantation_colonists.{g}" for g in GOODS]
           + ["quarries", "quarry_colonists", "san_juan", "wharf_done"])


#: Field path of every state-vector index (used to name the field the C decoder rejects).
LAYOUT = SCHEMA_V1.names()
VECTOR_LEN = len(LAYOUT)
LAYOUT_V2 = SCHEMA_V2.names()
VECTOR_LEN_V2 = len(LAYOUT_V2)
assert VECTOR_LEN == V1.length and VECTOR_LEN_V2 == V2.length


def validate(s: State) -> None:
    """Raise PositionError unless ``s`` is a consistent position with a move to play."""
    _check(encode(s).tolist())
    _check_moves(s)


def layout_for(v: Any) -> tuple[str, ...]:
    """The field names of ``v``'s entries: the layout its version names (or, for an
    unknown version, its length names)."""
    v2 = len(v) > 0 and (v[0] == 2 or (v[0] != 1 and len(v) == VECTOR_LEN_V2))
    return LAYOUT_V2 if v2 else LAYOUT


def _check(v: list[int]) -> None:
    """Raise PositionError naming the field unless ``v`` is a valid vector of its layout."""
    layout = layout_for(v)
    bad = check_vector_v2(v) if layout is LAYOUT_V2 else check_vector(v)
    if bad:
        raise PositionError(layout[bad[0]] if bad[0] >= 0 else "state", bad[1])


def _check_moves(s: State) -> None:
    if not s.is_terminal and not s.legal_action_ids():
        raise PositionError("current_player", "the player to move has no legal move")


def encode(s: State) -> np.ndarray:
    """The state vector: layout v2 for expansion games, v1 otherwise."""
    v2 = isinstance(s, ExpansionState)
    nb = NUM_BUILDINGS if v2 else NUM_BASE_BUILDINGS
    v: list[int] = [2 if v2 else LAYOUT_VERSION, s.num_players,
                    int(s.options.get("university_factory_swap", False)), s.governor, s.phase,
                    s.current, s.chooser, s.turn, s.picks, int(s.end_triggered), s.colonist_supply,
                    s.colonist_ship, s.vp_supply, int(s.hacienda_done), s.to_place, s.last_slot,
                    s.produced, int(s.captain_loaded), s.store_mask, s.quarry_supply]
    if isinstance(s, ExpansionState):
        v += [s.forest_supply, s.hacienda_tile, s.window, s.privilege_left, s.bm_building, s.bm_due,
              s.bm_given, s.wharf_barrels, *s.made, *s.kept]
    for pile in (s.goods_supply, s.house, s.deck, s.faceup, s.discard):
        v += pile
    v += s.building_supply[:nb]
    if isinstance(s, ExpansionState):
        v += [int(x) for x in s.in_game]
    v += s.role_doubloons + [-1] * (MAX_ROLES - len(s.role_doubloons))
    v += [int(t) for t in s.role_taken] + [0] * (MAX_ROLES - len(s.role_taken))
    for i in range(MAX_SHIPS):
        present = i < len(s.ship_capacity)
        v += [s.ship_capacity[i], s.ship_kind[i], s.ship_count[i]] if present else [0, -1, 0]
    for i in range(MAX_PLAYERS):
        if i < s.num_players:
            p = s.players[i]
            v += [p.doubloons, p.vp, *p.goods, *p.plantations, *p.plantation_colonists,
                  p.quarries, p.quarry_colonists, p.san_juan, int(p.wharf_done)]
            v += [p.forests, int(p.small_wharf_done)] if v2 else []
            v += p.buildings[:nb]
        else:
            v += [0] * (len(_PLAYER) + (2 if v2 else 0)) + [-1] * nb
    return np.asarray(v, dtype=np.int32)


def decode(vec: Any, check: bool = True) -> State:
    """The State of a vector written by ``encode`` (either layout, by its version field;
    validated like ``from_dict``). ``check=False`` skips the validation, for a vector the
    native decoder has accepted."""
    v = [int(x) for x in np.asarray(vec).ravel()]
    if check:
        _check(v)
    v2 = v[0] == 2
    n, nb = v[1], NUM_BUILDINGS if v2 else NUM_BASE_BUILDINGS
    pos = V2.globals if v2 else V1.globals

    def take(k: int) -> list[int]:
        nonlocal pos
        pos += k
        return v[pos - k:pos]

    piles = [take(NK) for _ in range(5)]
    supply = take(nb) + [0] * (NUM_BUILDINGS - nb)
    in_game = [bool(x) for x in take(nb)] if v2 else []
    roles = SETUPS[n].roles
    doubloons, taken = take(MAX_ROLES)[:roles], [bool(t) for t in take(MAX_ROLES)[:roles]]
    ships = [take(3) for _ in range(MAX_SHIPS)][:len(SETUPS[n].ships)]
    players = []
    for _ in range(n):
        f = take(len(_PLAYER) + (2 if v2 else 0) + nb)
        extra = f[len(_PLAYER):len(_PLAYER) + 2] if v2 else [0, 0]
        players.append(Player(doubloons=f[0], vp=f[1], goods=f[2:7], plantations=f[7:12],
                              plantation_colonists=f[12:17], quarries=f[17], quarry_colonists=f[18],
                              san_juan=f[19], wharf_done=bool(f[20]), forests=extra[0],
                              small_wharf_done=bool(extra[1]),
                              buildings=f[-nb:] + [-1] * (NUM_BUILDINGS - nb)))
    fields: dict[str, Any] = dict(
        players=players, options={"university_factory_swap": bool(v[2] & 1)}, governor=v[3],
        phase=v[4], current=v[5], chooser=v[6], turn=v[7], picks=v[8], end_triggered=bool(v[9]),
        colonist_supply=v[10], colonist_ship=v[11], vp_supply=v[12], hacienda_done=bool(v[13]),
        to_place=v[14], last_slot=v[15], produced=v[16], captain_loaded=bool(v[17]),
        store_mask=v[18], quarry_supply=v[19], goods_supply=piles[0], house=piles[1], deck=piles[2],
        faceup=piles[3], discard=piles[4], building_supply=supply, role_doubloons=doubloons,
        role_taken=taken, ship_capacity=[x[0] for x in ships], ship_kind=[x[1] for x in ships],
        ship_count=[x[2] for x in ships])
    if not v2:
        s = State(**fields)
    else:
        fields["options"]["expansion"] = EXPANSION
        s = ExpansionState(**fields, forest_supply=v[20], in_game=in_game, hacienda_tile=v[21],
                           window=v[22], privilege_left=v[23], bm_building=v[24], bm_due=v[25],
                           bm_given=v[26], wharf_barrels=v[27], made=v[28:33], kept=v[33:38])
    if check:
        _check_moves(s)  # the vector is checked: encode(s) == v
    return s


# ------------------------------------------------------------------------ dicts
def _goods(counts: list[int]) -> dict[str, int]:
    return dict(zip(GOODS, counts))


def _kinds(mask: int) -> list[str]:
    return [g for k, g in enumerate(GOODS) if mask >> k & 1]


_BUILDING_NAMES = tuple(b.name for b in BUILDINGS)
_BUILDING_INDEX = {name: b for b, name in enumerate(_BUILDING_NAMES)}
_GOOD_INDEX = {name: g for g, name in enumerate(GOODS)}
_CIRCLES = tuple(b.circles for b in BUILDINGS)


def to_dict(s: State) -> dict[str, Any]:
    """The position as plain JSON data (the ``puerto_rico`` part of a Position); an
    expansion game adds its fields (``new_buildings``: the forest supply and the violet
    buildings in the game; progress and player fields)."""
    nb = NUM_BUILDINGS if isinstance(s, ExpansionState) else NUM_BASE_BUILDINGS
    d = {
        "options": dict(s.options),
        "governor": s.governor,
        "phase": PHASES[s.phase],
        "current_player": s.current,
        "chooser": s.chooser,
        "turn": s.turn,
        "picks": s.picks,
        "end_triggered": s.end_triggered,
        "colonist_supply": s.colonist_supply,
        "colonist_ship": s.colonist_ship,
        "vp_supply": s.vp_supply,
        "goods_supply": _goods(s.goods_supply),
        "trading_house": _goods(s.house),
        "ships": [{"capacity": c, "good": GOODS[k] if k >= 0 else "", "count": n}
                  for c, k, n in zip(s.ship_capacity, s.ship_kind, s.ship_count)],
        "plantation_stack": _goods(s.deck),
        "faceup_plantations": _goods(s.faceup),
        "discarded_plantations": _goods(s.discard),
        "quarry_supply": s.quarry_supply,
        "building_supply": {b.name: n for b, n in zip(BUILDINGS[:nb], s.building_supply)},
        "roles": [{"role": ROLES[r], "doubloons": d, "taken": t}
                  for r, (d, t) in enumerate(zip(s.role_doubloons, s.role_taken))],
        "progress": {
            "hacienda_done": s.hacienda_done,
            "to_place": s.to_place,
            "last_slot": SLOT_NAMES[s.last_slot],
            "produced": _kinds(s.produced),
            "captain_loaded": s.captain_loaded,
            "warehoused": _kinds(s.store_mask),
        },
        "players": [_player_dict(p) for p in s.players],
    }
    if isinstance(s, ExpansionState):
        d["new_buildings"] = {"forest_supply": s.forest_supply,
                              "violet_buildings": [BUILDINGS[b].name for b in VIOLET if s.in_game[b]]}
        d["progress"].update({
            "hacienda_tile": GOODS[s.hacienda_tile] if s.hacienda_tile >= 0 else "",
            "window": PHASES[s.window] if s.window >= 0 else "",
            "privilege_left": s.privilege_left,
            "black_market": {"building": BUILDINGS[s.bm_building].name if s.bm_building >= 0 else "",
                             "due": s.bm_due, "given": GIVE_CATEGORIES[s.bm_given]},
            "small_wharf_barrels": s.wharf_barrels,
            "made": _goods(s.made),
            "kept": _goods(s.kept),
        })
        for pd, p in zip(d["players"], s.players):
            pd.update({"forests": p.forests, "small_wharf_done": p.small_wharf_done})
    return d


def _player_dict(p: Player) -> dict[str, Any]:
    return {
        "doubloons": p.doubloons,
        "vp_chips": p.vp,
        "goods": _goods(p.goods),
        "plantations": _goods(p.plantations),
        "plantation_colonists": _goods(p.plantation_colonists),
        "quarries": p.quarries,
        "quarry_colonists": p.quarry_colonists,
        "buildings": [{"building": BUILDINGS[b].name, "colonists": c}
                      for b, c in enumerate(p.buildings) if c >= 0],
        "san_juan": p.san_juan,
        "wharf_done": p.wharf_done,
    }


class _Reader:
    """Typed access to a JSON object that names the path of whatever is wrong."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise PositionError(path or "position", f"expected an object, got {type(data).__name__}")
        self.data, self.path = data, path

    def _at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise PositionError(self._at(key), "missing")
        return self.data[key]

    def int(self, key: str, lo: int | None = 0, hi: int | None = None) -> int:
        x = self.data.get(key)
        if type(x) is int and (lo is None or x >= lo) and (hi is None or x <= hi):
            return x  # the common case, checked in one line
        x = self.raw(key)
        if isinstance(x, bool) or not isinstance(x, int):
            raise PositionError(self._at(key), f"expected an integer, got {x!r}")
        if lo is not None and x < lo:
            raise PositionError(self._at(key), f"{x} is below {lo}")
        if hi is not None and x > hi:
            raise PositionError(self._at(key), f"{x} is above {hi}")
        return x

    def bool(self, key: str) -> bool:
        x = self.raw(key)
        if not isinstance(x, bool):
            raise PositionError(self._at(key), f"expected true or false, got {x!r}")
        return x

    def choice(self, key: str, names: tuple[str, ...]) -> int:
        """The index of a name; "" (the proto3 default, which a writer may omit) is the first."""
        x = self.raw(key) or names[0]
        if x not in names:
            raise PositionError(self._at(key), f"{x!r} is not one of {', '.join(map(repr, names))}")
        return names.index(x)

    def obj(self, key: str) -> _Reader:
        return _Reader(self.raw(key), self._at(key))

    def list(self, key: str, length: int | None = None) -> list[Any]:
        x = self.raw(key)
        if not isinstance(x, list):
            raise PositionError(self._at(key), f"expected a list, got {type(x).__name__}")
        if length is not None and len(x) != length:
            raise PositionError(self._at(key), f"expected {length} entries, got {len(x)}")
        return x

    def counts(self, key: str, names: tuple[str, ...]) -> list[int]:
        data = self.data.get(key)
        if type(data) is dict and len(data) == len(names):
            values = [data.get(n) for n in names]
            if {*map(type, values)} == {int} and min(values) >= 0:
                return values  # the common case: exactly these keys, counts >= 0
        r = self.obj(key)
        extra = set(r.data) - set(names)
        if extra:
            raise PositionError(r._at(sorted(extra, key=str)[0]), "unknown field")
        return [r.int(n) for n in names]

    def mask(self, key: str) -> int:
        mask = 0
        for i, name in enumerate(self.list(key)):
            if name not in GOODS:
                raise PositionError(f"{self._at(key)}[{i}]", f"{name!r} is not a good")
            mask |= 1 << GOODS.index(name)
        return mask


def from_dict(data: Any, check: bool = True) -> State:
    """Parse and validate a position dict; raises PositionError naming the field.

    ``check=False`` parses the fields and skips the consistency checks, for a caller
    whose next step runs the same checks (the native decoder of a search)."""
    r = _Reader(data, "")
    opts = data.get("options")
    expansion = isinstance(opts, dict) and opts.get("expansion") == EXPANSION
    nb = NUM_BUILDINGS if expansion else NUM_BASE_BUILDINGS
    players = [_read_player(_Reader(p, f"players[{i}]"), nb, expansion)
               for i, p in enumerate(r.list("players"))]
    n = len(players)
    if n not in SETUPS:
        raise PositionError("players", f"{n} players is not supported (2-5)")
    opts = r.obj("options")
    for key in opts.data:
        if key not in OPTIONS + ("expansion",):
            raise PositionError(f"options.{key}", "unknown option")
    if "expansion" in opts.data:
        opts.choice("expansion", ("none", EXPANSION))
    if not expansion:
        _refuse_expansion_fields(data)
    setup = SETUPS[n]
    ships = r.list("ships", len(setup.ships))
    ship_fields = [_read_ship(x, i) for i, x in enumerate(ships)]
    roles = r.list("roles", setup.roles)
    role_fields = []
    for i, x in enumerate(roles):
        if type(x) is dict and x.get("role") == ROLES[i]:
            doubloons, taken = x.get("doubloons"), x.get("taken")
            if type(doubloons) is int and doubloons >= 0 and type(taken) is bool:
                role_fields.append((doubloons, taken))  # the common case, checked in one line
                continue
        rr = _Reader(x, f"roles[{i}]")
        if rr.choice("role", ROLES) != i:
            raise PositionError(f"roles[{i}].role", f"expected {ROLES[i]!r} (roles are listed in card order)")
        role_fields.append((rr.int("doubloons"), rr.bool("taken")))
    prog = r.obj("progress")
    fields: dict[str, Any] = dict(
        players=players,
        options={o: opts.bool(o) if o in opts.data else False for o in OPTIONS},
        governor=r.int("governor", 0, n - 1),
        phase=r.choice("phase", PHASES),
        current=r.int("current_player", -1, n - 1),
        chooser=r.int("chooser", 0, n - 1),
        turn=r.int("turn", 0, n),
        picks=r.int("picks", 0, 6),
        end_triggered=r.bool("end_triggered"),
        colonist_supply=r.int("colonist_supply"),
        colonist_ship=r.int("colonist_ship"),
        vp_supply=r.int("vp_supply", None),
        goods_supply=r.counts("goods_supply", GOODS),
        house=r.counts("trading_house", GOODS),
        ship_capacity=[f[0] for f in ship_fields],
        ship_kind=[f[1] for f in ship_fields],
        ship_count=[f[2] for f in ship_fields],
        deck=r.counts("plantation_stack", GOODS),
        faceup=r.counts("faceup_plantations", GOODS),
        discard=r.counts("discarded_plantations", GOODS),
        quarry_supply=r.int("quarry_supply"),
        building_supply=r.counts("building_supply", _BUILDING_NAMES[:nb])
        + [0] * (NUM_BUILDINGS - nb),
        role_doubloons=[f[0] for f in role_fields],
        role_taken=[f[1] for f in role_fields],
        hacienda_done=prog.bool("hacienda_done"),
        to_place=prog.int("to_place"),
        last_slot=prog.choice("last_slot", SLOT_NAMES),
        produced=prog.mask("produced"),
        captain_loaded=prog.bool("captain_loaded"),
        store_mask=prog.mask("warehoused"),
    )
    state = _read_expansion(r, prog, fields) if expansion else State(**fields)
    if check:
        validate(state)
    return state


def _refuse_expansion_fields(data: dict[str, Any]) -> None:
    """A base game carries none of Expansion I's fields (schema.EXPANSION_ONLY)."""
    for path in EXPANSION_ONLY:
        head, _, name = path.rpartition(".")
        if head == "players[*]":
            players = data.get("players")
            places = [(f"players[{i}]", p) for i, p in enumerate(players if isinstance(players, list) else [])]
        else:
            places = [(head, data.get(head) if head else data)]
        for at, part in places:
            if isinstance(part, dict) and name in part:
                raise PositionError(f"{at}.{name}" if at else name, SCHEMA_V1.foreign_note)


def _read_expansion(r: _Reader, prog: _Reader, fields: dict[str, Any]) -> ExpansionState:
    """The expansion's fields of a position dict."""
    fields["options"]["expansion"] = EXPANSION
    in_game = [not b.violet for b in BUILDINGS]
    names = tuple(BUILDINGS[b].name for b in VIOLET)
    nb = r.obj("new_buildings")
    for i, name in enumerate(nb.list("violet_buildings")):
        if name not in names:
            raise PositionError(f"{nb.path}.violet_buildings[{i}]", f"{name!r} is not a violet building")
        b = VIOLET[names.index(name)]
        if in_game[b]:
            raise PositionError(f"{nb.path}.violet_buildings[{i}]", f"{name} is listed twice")
        in_game[b] = True
    bm = prog.obj("black_market")
    return ExpansionState(
        **fields,
        forest_supply=nb.int("forest_supply"),
        in_game=in_game,
        hacienda_tile=prog.choice("hacienda_tile", ("",) + GOODS) - 1,
        window=_read_window(prog),
        privilege_left=prog.int("privilege_left"),
        bm_building=bm.choice("building", ("",) + _BUILDING_NAMES) - 1,
        bm_due=bm.int("due"),
        bm_given=bm.choice("given", GIVE_CATEGORIES),
        wharf_barrels=prog.int("small_wharf_barrels"),
        made=prog.counts("made", GOODS),
        kept=prog.counts("kept", GOODS),
    )


def _read_window(prog: _Reader) -> int:
    names = ("",) + tuple(PHASES[w] for w in WINDOWS)
    i = prog.choice("window", names)
    return WINDOWS[i - 1] if i else -1


def _read_ship(x: Any, i: int) -> tuple[int, int, int]:
    if type(x) is dict:
        capacity, good, count = x.get("capacity"), x.get("good"), x.get("count")
        if (type(capacity) is int and capacity >= 1 and type(count) is int and count >= 0
                and type(good) is str and (good == "" or good in _GOOD_INDEX)):
            return capacity, _GOOD_INDEX[good] if good else -1, count  # the common case
    r = _Reader(x, f"ships[{i}]")
    good = r.raw("good")
    if good != "" and good not in GOODS:
        raise PositionError(r._at("good"), f"{good!r} is not a good (or \"\" for an empty ship)")
    return r.int("capacity", 1), GOODS.index(good) if good else -1, r.int("count")


def _read_player(r: _Reader, nb: int, expansion: bool) -> Player:
    names = _BUILDING_NAMES[:nb]
    buildings = [-1] * NUM_BUILDINGS
    for i, x in enumerate(r.list("buildings")):
        name = x.get("building") if type(x) is dict else None
        b = _BUILDING_INDEX.get(name, nb) if type(name) is str else nb
        colonists = x.get("colonists") if b < nb else None
        if type(colonists) is int and 0 <= colonists <= _CIRCLES[b] and buildings[b] < 0:
            buildings[b] = colonists  # the common case, checked in one line
            continue
        br = _Reader(x, f"{r.path}.buildings[{i}]")
        b = br.choice("building", names)
        if buildings[b] >= 0:
            raise PositionError(br._at("building"), f"{names[b]} is listed twice")
        buildings[b] = br.int("colonists", 0, BUILDINGS[b].circles)
    return Player(
        doubloons=r.int("doubloons"), vp=r.int("vp_chips"), goods=r.counts("goods", GOODS),
        plantations=r.counts("plantations", GOODS),
        plantation_colonists=r.counts("plantation_colonists", GOODS),
        quarries=r.int("quarries"), quarry_colonists=r.int("quarry_colonists"),
        buildings=buildings, san_juan=r.int("san_juan"), wharf_done=r.bool("wharf_done"),
        forests=r.int("forests") if expansion else 0,
        small_wharf_done=r.bool("small_wharf_done") if expansion else False,
    )


