"""The Rules service: games, new positions, legal moves, moves applied."""

from __future__ import annotations

import functools
import grpc

from ..engine import IllegalMoveError, InvalidMoveError, OptionError, Rng, game_ids, get_game, parse_options
from ..engine.game import Game
from ..positions import observe
from ..v1 import rules_pb2, rules_pb2_grpc
from .convert import find_game, position_to_proto, read_position, result_to_proto
from .errors import ServiceError, quoted


def _options(game: Game, given: dict[str, str]) -> dict[str, bool | str]:
    """``new_game`` options from their text values; errors name the key."""
    try:
        return parse_options(game.OPTION_VALUES, given, quoted)
    except OptionError as e:
        raise ServiceError.invalid(f"options.{e.name}", e.problem) from None


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
        position = read_position(request.position)
        state = position.state().observation(position.viewer)
        response = rules_pb2.LegalMovesResponse(moves=[
            rules_pb2.LegalMove(notation=str(move), action=move.id) for move in state.legal_moves()
        ], result=result_to_proto(state))
        if state.current_player is not None:
            response.current_player = state.current_player
        return response

    def ApplyMove(self, request: rules_pb2.ApplyMoveRequest,
                  context: grpc.ServicerContext) -> rules_pb2.ApplyMoveResponse:
        position = read_position(request.position)
        viewer = position.viewer
        try:
            state = position.state().follow(request.move, Rng(request.seed), viewer, list(request.shown))
        except (InvalidMoveError, IllegalMoveError) as e:
            field, _, problem = str(e).partition(": ")
            if field.startswith("shown"):
                raise ServiceError.invalid(field, problem) from None
            raise ServiceError.invalid("move", str(e)) from None
        return rules_pb2.ApplyMoveResponse(position=position_to_proto(state, viewer),
                                           result=result_to_proto(state))

    def Observe(self, request: rules_pb2.ObserveRequest,
                context: grpc.ServicerContext) -> rules_pb2.ObserveResponse:
        position = read_position(request.position)
        return rules_pb2.ObserveResponse(position=observe(position.state(), position.viewer))
