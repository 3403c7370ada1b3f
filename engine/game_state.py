"""What every game's ``State`` shares, written once.

A game's ``State`` dataclass inherits ``GameState`` and supplies the rules:
``legal_action_ids``, ``copy``, ``_do(move, rng)``, ``_resolve_forced(rng, play_forced)``
(end what needs no decision and, with ``play_forced``, play every decision that has a single
move), ``scores``, ``tiebreaks``, ``num_players`` and the
class attributes ``Move`` (its move type) and ``game_id``. Its package has ``codec``
(``encode``, ``decode``) and ``render`` modules; its messages and JSON are the schema's,
written and read by the ``positions`` package.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Self

from .errors import IllegalMoveError
from .rng import Rng


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of a finished game, by seat: final scores, tie-break values (higher is
    better), the winners (ties after the tie-break share the win) and places (1 the best)."""

    scores: list[int]
    tiebreaks: list[int]
    winners: list[int]
    ranks: list[int]


class GameState(ABC):
    """Moves in notation, ``apply``, results, views and serialisation, for any game."""

    Move: Any
    game_id: ClassVar[str]
    players: list[Any]

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move; None when the game is over."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats the game has."""

    @abstractmethod
    def legal_action_ids(self) -> list[int]:
        """The legal moves' action ids, ascending (empty only when the game is over)."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score (final once the game is over)."""

    @abstractmethod
    def tiebreaks(self) -> list[int]:
        """Each seat's tie-break value, higher is better."""

    @abstractmethod
    def _do(self, move: Any, rng: Rng) -> None:
        """Play ``move`` (legal here) in place, chance from ``rng``."""

    @abstractmethod
    def _resolve_forced(self, rng: Rng, play_forced: bool = True) -> None:
        """End what needs no decision; with ``play_forced``, play every single-move decision."""

    def copy(self) -> Self:
        """An independent copy: lists copied one level deep, each player by its ``copy``."""
        c = object.__new__(type(self))
        c.__dict__.update({k: v[:] if type(v) is list else v for k, v in self.__dict__.items()})
        c.players = [p.copy() for p in self.players]
        return c

    def legal_moves(self) -> list[Any]:
        """The legal moves, sorted by action id (empty only when the game is over)."""
        return [self.Move.from_id(a) for a in self.legal_action_ids()]

    def move_from_id(self, action: int) -> Any:
        return self.Move.from_id(action)

    def apply(self, move: Any, rng: Rng, play_forced: bool = True) -> Self:
        """A new state after ``move`` (notation or Move); chance comes from ``rng``.

        Decisions with a single legal move are played too, unless ``play_forced`` is false:
        then the new state may have one legal move, as another client's positions may.
        Raises IllegalMoveError for a move that is not legal here."""
        if isinstance(move, str):
            move = self.Move.parse(move)
        legal = self.legal_action_ids()
        if move.id not in legal:
            raise IllegalMoveError(f"move {move}: not legal here (legal: "
                                   f"{', '.join(str(self.Move.from_id(a)) for a in legal) or 'none'})")
        s = self.copy()
        s._do(move, rng)
        s._resolve_forced(rng, play_forced)
        return s

    def follow(self, move: Any, rng: Rng, viewer: int, shown: Sequence[str] = ()) -> Self:
        """``apply`` on a position for ``viewer``: a full-information state gives the
        truth after the move; ``viewer``'s observation gives his observation after it, and
        takes another player's move that shows a card the viewer could not see when that
        player may hold it (``_assume``). On an observation only the move given is played:
        a decision that looks forced to the viewer may hide another player's choice, so a
        follower sends every move. ``shown``: what the move's chance showed the viewer, in
        a game that has hidden information (its ``chance`` module)."""
        if shown and self.hides_nothing:
            raise IllegalMoveError("shown: the position hides nothing, its chance comes from the seed")
        if self.hides_nothing:
            return self.apply(move, rng)
        if isinstance(move, str):
            move = self.Move.parse(move)
        return self._assume(move, viewer).apply(move, rng, play_forced=False).observation(viewer)

    def _assume(self, move: Any, viewer: int) -> Self:
        """This observation with what ``move`` shows of hidden information taken as true
        (the games so far: nothing to take)."""
        return self

    def play(self, move: Any, seed: int = 0) -> Self:
        """``apply`` with chance drawn from ``Rng(seed)``."""
        return self.apply(move, Rng(seed))

    # ------------------------------------------------------------------ results
    def ranks(self) -> list[int]:
        """Each seat's place by (score, tie-break), 1 the best; equal keys share a place
        (competition ranking: 1, 2, 2, 4)."""
        keys = list(zip(self.scores(), self.tiebreaks()))
        return [1 + sum(other > key for other in keys) for key in keys]

    def winners(self) -> list[int]:
        """The seats with the best (score, tie-break)."""
        return [i for i, rank in enumerate(self.ranks()) if rank == 1]

    def result(self) -> GameResult:
        """Scores, tie-breaks, winners and ranks (the final result once the game is over)."""
        return GameResult(self.scores(), self.tiebreaks(), self.winners(), self.ranks())

    def returns(self) -> list[float]:
        """Share of the win per player (only meaningful once the game is over)."""
        w = self.winners()
        return [1.0 / len(w) if i in w else 0.0 for i in range(self.num_players)]

    # ------------------------------------------------------------------- views
    def observation(self, viewer: int) -> Self:
        """What ``viewer`` sees: the whole position. The games so far hold what nobody
        may see (stack orders, future dice) only as counts, or not at all."""
        players = self.num_players
        if not 0 <= viewer < players:
            raise ValueError(f"viewer: {viewer} is not a seat of a {players}-player game")
        return self.copy()

    @property
    def hides_nothing(self) -> bool:
        """Whether nothing of the state is unknown (a full-information state, a host's
        truth) rather than some seat's observation; the games so far hold nothing hidden."""
        return True

    def determinize(self, viewer: int, rng: Rng) -> Self:
        """A state consistent with ``observation(viewer)``: the observation itself, since
        the hidden parts are drawn at each chance event from the rng given to ``apply``
        (a search that plays on with its own rng samples them consistently)."""
        return self.observation(viewer)

    # ----------------------------------------------------------- serialisation
    @classmethod
    def _module(cls, name: str) -> ModuleType:
        """The module ``name`` of the game's package (``codec``, ``render``)."""
        package = cls.__module__.rpartition(".")[0]
        return importlib.import_module(f"{package}.{name}")

    def encode(self) -> Any:
        """The int32 state vector for the C engine (layout in the game's codec.py)."""
        return self._module("codec").encode(self)

    def __str__(self) -> str:
        return self._module("render").render(self)  # type: ignore[no-any-return]
