"""The one entry point of positions: a ``Position`` message read for its viewer into a
``CheckedPosition``, the C decoder's verdict given once.

``read(message)`` reads the game's state message into its state vector by the game's
schema (``vector_codec``: names, keys and lengths), has the C decoder judge it once
(``check.decode``: ranges and rules) and checks the viewer against the seats C counted.
A refusal is raised as a ``PositionError`` naming the field path under the message
(``puerto_rico.players[2].doubloons``, ``viewer``, ``game``) in the decoder's words, from
that one decode. What is accepted is a ``CheckedPosition``: the vector, the C state it
decoded to, the seats and the player to move, the viewer's observation (``seen``, masked
by the C engine) and the reference state (``state``, built by the game's ``decode``
without another check). It is what ``analyze`` searches (a ``SearchableState``): moves
are named from the game's move table by their ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import get_game
from ..engine.errors import PositionError
from ..engine.game import Game
from ..engine.game_state import GameResult, GameState
from ..v1.position_pb2 import Position
from . import check, vector_codec
from .check import Vector, as_vector


@dataclass(frozen=True, slots=True, eq=False)
class CheckedPosition:
    """A position the C decoder accepted, for ``viewer``: its state ``vector`` and the C state
    it decoded to (kept for the viewer's observation, never changed)."""

    game: Game
    viewer: int
    vector: Vector
    num_players: int
    current_player: int | None  # None: the game is over
    c_state: bytearray = field(repr=False)

    @property
    def game_id(self) -> str:
        return self.game.GAME_ID

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    def encode(self) -> Vector:
        return self.vector

    def move_from_id(self, action: int) -> object:
        """The move of an action id (its notation is ``str`` of it)."""
        return self.game.Move.from_id(action)

    def state(self) -> GameState:
        """The reference state of the vector (the rules' ``decode``; C has checked it)."""
        return self.game.decode(self.vector)

    def result(self) -> GameResult:
        """A finished game's result, from its reference state."""
        return self.state().result()

    def seen(self) -> CheckedPosition:
        """What the viewer sees of the position (the C engine's ``observe``): nothing read
        from it knows more. No second decode: the accepted C state is masked (a copy)."""
        engine = check.native(self.game_id)
        masked = bytearray(self.c_state)
        engine.observe(masked, self.viewer)
        return CheckedPosition(self.game, self.viewer, engine.encode(masked), self.num_players,
                               self.current_player, masked)


def state_key(game_id: str) -> str:
    """The field of ``Position`` that holds ``game_id``'s state (its id with ``-`` as ``_``)."""
    return game_id.replace("-", "_")


def find_game(game_id: str) -> Game:
    """The game of ``game_id``; PositionError on ``game`` if none is named or known."""
    if not game_id:
        raise PositionError("game", "missing (a game id such as 'puerto-rico')")
    try:
        return get_game(game_id)
    except KeyError as e:
        raise PositionError("game", str(e.args[0])) from None


def state_vector(message: Position) -> Vector:
    """The state vector of a ``Position`` of a known game, read by the game's schema
    (``vector_codec``: names, keys and lengths checked); the ranges and rules are the C
    decoder's. Errors name the field path under the message."""
    key = state_key(message.game)
    if message.WhichOneof("state") != key:
        raise PositionError(key, f"missing (the {message.game} state)")
    state = getattr(message, key)
    try:
        return as_vector(vector_codec.read(get_game(message.game).schema_of(state), state))
    except PositionError as e:
        raise PositionError(f"{key}.{e.path}" if e.path else key, e.problem) from None


def read(message: Position) -> CheckedPosition:
    """The checked position of a ``Position`` message: read by the game's schema, judged by
    one C decode, its viewer a seat; else PositionError naming the field under the message
    in the decoder's words."""
    game = find_game(message.game)
    return accept(game, state_vector(message), message.viewer, state_key(message.game))


def accept(game: Game, values: Vector | Sequence[int], viewer: int | None = None, under: str = "") -> CheckedPosition:
    """The checked position of a state vector (one C decode) for ``viewer`` (None: the player
    to move, or seat 0 at the end); a refusal names the field under ``under``."""
    vector = as_vector(values)
    try:
        c_state = check.decode(game.GAME_ID, vector)
    except PositionError as e:
        raise PositionError(f"{under}.{e.path}" if under else e.path, e.problem) from None
    engine = check.native(game.GAME_ID)
    seats, to_move = engine.num_players(c_state), engine.current_player(c_state)
    if viewer is None:
        viewer = max(to_move, 0)
    if not 0 <= viewer < seats:
        raise PositionError("viewer", f"{viewer} is not a seat of this {seats}-player game")
    return CheckedPosition(game, viewer, vector, seats, to_move if to_move >= 0 else None, c_state)


def checked_state(game_id: str, values: Vector | Sequence[int]) -> GameState:
    """The reference state of a state vector the C decoder accepts (one decode); PositionError
    naming the field otherwise."""
    return accept(get_game(game_id), values).state()


def from_state(state: GameState, viewer: int | None = None) -> CheckedPosition:
    """The checked position of a reference state (its vector decoded once by C)."""
    return accept(get_game(state.game_id), state.encode(), viewer)
