"""Helpers to build Puerto Rico scenarios for the rule tests."""

from __future__ import annotations

from meeplemind.engine import Rng
from meeplemind.engine.puerto_rico import Move, State, new_game
from meeplemind.engine.puerto_rico.data import BUILDING_IDS, GOODS
from meeplemind.engine.puerto_rico.expansion import ExpansionState

KIND = {g: i for i, g in enumerate(GOODS)}
#: An expansion game's violet buildings: the 14 new ones and 3 large base buildings.
NEW_BUILDINGS = ("aqueduct,forest_house,black_market,storehouse,guest_house,trading_post,church,"
                 "small_wharf,lighthouse,specialty_factory,library,union_hall,cloister,statue,"
                 "guild_hall,residence,city_hall")


def _seat_governor(s: State, governor: int) -> None:
    shift = (s.governor - governor) % s.num_players
    s.players = s.players[shift:] + s.players[:shift]
    s.governor = s.current = governor


def fresh(players: int = 3, governor: int = 0, seed: int = 0) -> State:
    """A new game with the governor (and the first picker) in seat ``governor``."""
    s = new_game(players, seed)
    _seat_governor(s, governor)
    return s


def fresh_expansion(players: int = 3, governor: int = 0, seed: int = 0,
                    buildings: str = NEW_BUILDINGS) -> ExpansionState:
    """A new Expansion I game with ``buildings`` in play, the governor in seat ``governor``."""
    s = new_game(players, seed, expansion="new-buildings", buildings=buildings)
    assert isinstance(s, ExpansionState)
    _seat_governor(s, governor)
    return s


def with_buildings(**instead: str) -> str:
    """NEW_BUILDINGS with base buildings in: ``with_buildings(hospice="guest_house")``
    puts the Hospice where the Guest House was (same cost)."""
    chosen = NEW_BUILDINGS.split(",")
    for name, out in instead.items():
        chosen[chosen.index(out)] = name
    return ",".join(chosen)


def forests(s: ExpansionState, player: int, n: int) -> None:
    s.forest_supply -= n
    s.players[player].forests += n


def chips(s: State, player: int, n: int) -> None:
    s.vp_supply -= n
    s.players[player].vp += n


def build(s: State, player: int, *names: str, colonists: int | None = None) -> None:
    """Give ``player`` buildings from the supply, occupied (full) unless told otherwise."""
    from meeplemind.engine.puerto_rico.data import BUILDINGS

    for name in names:
        b = BUILDING_IDS[name]
        s.building_supply[b] -= 1
        n = BUILDINGS[b].circles if colonists is None else colonists
        s.players[player].buildings[b] = n
        s.colonist_supply -= n


def plant(s: State, player: int, kind: str, tiles: int, colonists: int | None = None) -> None:
    """Give ``player`` plantations from the stack, occupied unless told otherwise."""
    k = KIND[kind]
    s.deck[k] -= tiles
    p = s.players[player]
    p.plantations[k] += tiles
    n = tiles if colonists is None else colonists
    p.plantation_colonists[k] += n
    s.colonist_supply -= n


def goods(s: State, player: int, **counts: int) -> None:
    for kind, n in counts.items():
        s.goods_supply[KIND[kind]] -= n
        s.players[player].goods[KIND[kind]] += n


def pick(s: State, role: str, seed: int = 1) -> State:
    """The current player picks ``role`` (the phase then runs until a real choice)."""
    return s.apply(f"role:{role}", Rng(seed))


def legal(s: State) -> list[str]:
    return sorted(str(m) for m in s.legal_moves())


def play(s: State, *moves: str, seed: int = 1) -> State:
    rng = Rng(seed)
    for m in moves:
        s = s.apply(Move.parse(m), rng)
    return s
