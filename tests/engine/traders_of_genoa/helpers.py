"""Set-ups for Traders of Genoa scenario tests: a turn about to start at a chosen square."""

from __future__ import annotations

from meeplemind.positions import check_state
from meeplemind.engine.traders_of_genoa.board import BUILDING_SQUARES, square_name
from meeplemind.engine.traders_of_genoa.data import BUILDING_NAMES, DECK_FIRST, GOODS, SPECIALS
from meeplemind.engine.traders_of_genoa.state import State, new_game


def square(building: str) -> str:
    """The printed name of a building's first square (``3.4``)."""
    return square_name(BUILDING_SQUARES[BUILDING_NAMES.index(building)][0])


def turn_start(players: int = 3, seed: int = 0, owner: int = 0) -> State:
    """A new game reset to the start of ``owner``'s turn (he is also the start player),
    with an any-start card in his hand so a test chooses the start square."""
    s = new_game(players, seed)
    s.owner = s.start_player = owner
    s.site, s.actor, s.delivered = -1, -1, False
    s._clear_offers()
    s._begin_turn()
    give_special(s, owner, "any_start")
    check_state(s)
    return s


def give_goods(s: State, seat: int, good: str, n: int = 1) -> None:
    g = GOODS.index(good)
    s.supply[g] -= n
    s.players[seat].goods[g] += n


def give_special(s: State, seat: int, kind: str) -> None:
    k = SPECIALS.index(kind)
    s.special_supply[k] -= 1
    s.players[seat].specials[k] += 1


def give_card(s: State, seat: int, deck: int, number: int) -> None:
    """Card ``number`` (1-based in its deck) from wherever it is into ``seat``'s hand."""
    card = DECK_FIRST[deck] + number - 1
    loc = s.cards[card]
    if loc < len(s.players):
        s.players[loc].hand[deck] -= 1
    elif loc == 5:
        s.piles[deck] -= 1
    s.cards[card] = seat
    s.players[seat].hand[deck] += 1


def mark(s: State, seat: int, building: str) -> None:
    """An ownership marker of ``seat`` on ``building`` (from his reserve)."""
    s.marks[BUILDING_NAMES.index(building)] |= 1 << seat
    s.players[seat].reserve -= 1


def play(s: State, *moves: str, seed: int = 0) -> State:
    for m in moves:
        s = s.play(m, seed)
    check_state(s)
    return s


def moves(s: State) -> list[str]:
    return [str(m) for m in s.legal_moves()]
