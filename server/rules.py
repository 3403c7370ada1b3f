"""The Rules service: games, new positions, legal moves, moves applied."""

from __future__ import annotations

import functools
from typing import Any

import grpc

from ..engine import IllegalMoveError, InvalidMoveError, Rng, game_ids, get_game
from ..v1 import rules_pb2, rules_pb2_grpc
from .convert import find_game, position_from_proto, position_to_proto, result_to_proto
from .errors import ServiceError, quoted

_SWITCH = ("false", "true")
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def _options(game: Any, given: dict[str, str]) -> dict[str, bool | str]:
    """``new_game`` options from their text values (switches become booleans); errors
    name the key."""
    specs = game.OPTION_VALUES
    options: dict[str, bool | str] = {}
    for name, text in sorted(given.items()):
        field = f"options.{name}"
        if name not in specs:
            raise ServiceError.invalid(field, f"unknown option (known: {', '.join(specs) or 'none'})")
        values = specs[name]
        if values == _SWITCH:
            if text.lower() not in _TRUE + _FALSE:
                raise ServiceError.invalid(field, f"{quoted(text)} is not true or false")
            options[name] = text.lower() in _TRUE
        elif values is not None and text not in values:
            raise ServiceError.invalid(field, f"{quoted(text)} is not one of {', '.join(values)}")
        else:
            options[name] = text
    return options


def _game_option(name: str, values: tuple[str, ...] | None) -> rules_pb2.GameOption:
    return rules_pb2.GameOption(name=name, values=values or (), default_value=values[0] if values else "")


@functools.cache
def _games() -> rules_pb2.ListGamesResponse:
    """ListGames' answer: the same for the life of the process, so made once."""
    games = []
    for game_id in game_ids():
        game = get_game(game_id)
        options = [_game_option(name, values) for name, values in game.OPTION_VALUES.items()]
        games.append(rules_pb2.GameInfo(id=game_id, title=game.TITLE,
                                        player_counts=game.PLAYER_COUNTS, options=options))
    return rules_pb2.ListGamesResponse(games=games)


class RulesServicer(rules_pb2_grpc.RulesServicer):
    """Converts, calls the engine, converts back: no rules here."""

    def ListGames(self, request: rules_pb2.ListGamesRequest,
                  context: grpc.ServicerContext) -> rules_pb2.ListGamesResponse:
        return _games()

    def NewGame(self, request: rules_pb2.NewGameRequest,
                context: grpc.ServicerContext) -> rules_pb2.NewGameResponse:
        game = find_game(request.game, "game")
        if request.players not in game.PLAYER_COUNTS:
            raise ServiceError.invalid("players", f"{request.players} is not one of "
                                       f"{', '.join(map(str, game.PLAYER_COUNTS))}")
        options = _options(game, dict(request.options))
        try:
            state = game.new_game(request.players, request.seed, **options)
        except ValueError as e:  # values that only make sense together (e.g. buildings=...)
            name, named, problem = str(e).partition(": ")
            if named and name in game.OPTION_VALUES:
                raise ServiceError.invalid(f"options.{name}", problem) from None
            raise ServiceError.invalid("options", str(e)) from None
        return rules_pb2.NewGameResponse(position=position_to_proto(state))

    def LegalMoves(self, request: rules_pb2.LegalMovesRequest,
                   context: grpc.ServicerContext) -> rules_pb2.LegalMovesResponse:
        state, _ = position_from_proto(request.position)
        response = rules_pb2.LegalMovesResponse(moves=[
            rules_pb2.LegalMove(notation=str(move), action=move.id) for move in state.legal_moves()
        ])
        if state.current_player is not None:
            response.current_player = state.current_player
        else:
            response.result.CopyFrom(result_to_proto(state))
        return response

    def ApplyMove(self, request: rules_pb2.ApplyMoveRequest,
                  context: grpc.ServicerContext) -> rules_pb2.ApplyMoveResponse:
        state, viewer = position_from_proto(request.position)
        try:
            state = state.apply(request.move, Rng(request.seed))
        except (InvalidMoveError, IllegalMoveError) as e:
            raise ServiceError.invalid("move", str(e)) from None
        return rules_pb2.ApplyMoveResponse(position=position_to_proto(state, viewer),
                                           result=result_to_proto(state))
