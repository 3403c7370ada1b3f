"""What a move's chance showed, for a follower of a game from one seat (docs/positions.md).

A follower holds one seat's observation.  The start squares rolled are public, the cards
the viewer draws he sees, a message another player is paid for is shown face up, and the
final scoring shows every hand; the other seats' draws stay unseen.  ``Told`` is a generator that plays those outcomes instead of
drawing them (a client mirroring a real table tells them); ``Witness`` draws like ``Rng`` and
records them, so ``shown_to`` can tell a follower what the truth showed his seat.

Shown outcomes are written ``square:3.6`` (a start square rolled, a market too), ``small_5``
(a card the viewer drew) and ``message_3@2`` (a card seat 2 showed: a message he was paid
for, or any card of his hand when the game ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import IllegalMoveError
from ..rng import Rng
from .board import NUM_SQUARES, square_name
from .data import CARD_DECK, CARD_NAMES, DECK_FIRST, DECK_SIZES, D_MESSAGE, PILE, UNSEEN, USED

if TYPE_CHECKING:
    from .state import State

SQUARE_PREFIX = "square:"
SQUARE_NAMES = {square_name(s): s for s in range(NUM_SQUARES)}
CARD_IDS = {name: c for c, name in enumerate(CARD_NAMES)}


class Witness(Rng):
    """``Rng(seed)`` that records the start squares rolled and every card drawn (seat, card)."""

    __slots__ = ("squares", "draws")

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.squares: list[int] = []
        self.draws: list[tuple[int, int]] = []


class Told(Rng):
    """Chance as told: the squares rolled and the viewer's cards drawn, in order; every other
    seat draws some card the viewer cannot see (the observation forgets which).  Raises
    IllegalMoveError naming ``shown`` when the move needs an outcome not told, or one that
    cannot happen."""

    __slots__ = ("viewer", "squares", "cards")

    def __init__(self, viewer: int, squares: Sequence[int], cards: Sequence[int]) -> None:
        super().__init__(0)
        self.viewer, self.squares, self.cards = viewer, list(squares), list(cards)

    def square(self) -> int:
        if not self.squares:
            raise IllegalMoveError("shown: the move rolls a start square, and none is given (square:R.C)")
        return self.squares.pop(0)

    def card(self, state: State, seat: int, deck: int) -> int:
        """The card ``seat`` draws from ``deck``'s pile (refilled first): a told one for the
        viewer, else the first the viewer cannot place that is not told to come later."""
        if not state.refill(deck):
            return -1
        cards = range(DECK_FIRST[deck], DECK_FIRST[deck] + DECK_SIZES[deck])
        if seat == self.viewer:
            card = next((c for c in self.cards if CARD_DECK[c] == deck), -1)
            if card < 0:
                raise IllegalMoveError(f"shown: seat {seat} draws a card of the {CARD_NAMES[cards[0]][:-2]} "
                                       "deck, and none is given")
            if state.cards[card] not in (PILE, UNSEEN):
                raise IllegalMoveError(f"shown: {CARD_NAMES[card]} cannot be drawn: it is not in the pile")
            self.cards.remove(card)
        else:
            card = next((c for c in cards if state.cards[c] in (PILE, UNSEEN) and c not in self.cards), -1)
            if card < 0:
                raise IllegalMoveError("shown: the cards told leave no card for another seat's draw")
        state.piles[deck] -= 1
        return card

    def finish(self) -> None:
        """Every told outcome was used."""
        left = [square_name(s) for s in self.squares] + [CARD_NAMES[c] for c in self.cards]
        if left:
            raise IllegalMoveError(f"shown: {', '.join(left)} did not happen in this move")


def parse_shown(shown: Sequence[str]) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """(squares, the viewer's cards drawn, (card, seat) the others showed) of shown
    outcomes; IllegalMoveError names the entry ``shown[i]`` that is not one."""
    squares, cards, messages = [], [], []
    for i, text in enumerate(shown):
        name, _, seat = text.partition("@")
        if text.startswith(SQUARE_PREFIX) and text[len(SQUARE_PREFIX):] in SQUARE_NAMES:
            squares.append(SQUARE_NAMES[text[len(SQUARE_PREFIX):]])
        elif name in CARD_IDS and not seat:
            cards.append(CARD_IDS[name])
        elif name in CARD_IDS and seat.isdigit():
            messages.append((CARD_IDS[name], int(seat)))
        else:
            raise IllegalMoveError(f"shown[{i}]: {text!r} is not a square rolled (square:3.6), a card drawn "
                                   "(small_5) or a card another seat showed (message_3@2)")
    return squares, cards, messages


def shown_to(viewer: int, before: State, after: State, witness: Witness) -> list[str]:
    """What a move (played from ``before`` to ``after`` with ``witness``) showed ``viewer``:
    the squares rolled, the cards he drew, the messages the others were paid for and, when
    it ends the game, their hands."""
    first = DECK_FIRST[D_MESSAGE]
    showed = [c for c in range(first, first + DECK_SIZES[D_MESSAGE]) if after.cards[c] == USED]
    if after.is_terminal:
        showed += [c for c in range(len(CARD_NAMES)) if after.cards[c] < len(after.players)]
    return ([SQUARE_PREFIX + square_name(s) for s in witness.squares]
            + [CARD_NAMES[c] for seat, c in witness.draws if seat == viewer]
            + [f"{CARD_NAMES[c]}@{before.cards[c]}" for c in showed
               if before.cards[c] < len(before.players) and before.cards[c] != viewer])
