"""``Client``: the service's every call on one reused channel, Python values in, typed
results out, failures as ``ClientError``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message

from ..v1 import analysis_pb2, analysis_pb2_grpc, position_pb2, rules_pb2, rules_pb2_grpc
from . import _shared as shared
from ._shared import DEFAULT_TIMEOUT_S, PositionLike, RecordLike, TlsLike
from .errors import ClientError
from .types import Analysis, Applied, BestMove, GameInfo, GameResult, LegalMove, MoveReview, Review

Request = TypeVar("Request", bound=Message)
Response = TypeVar("Response", bound=Message)
Result = TypeVar("Result")


class Client:
    """A client of a meeplemind service at ``address`` (``HOST:PORT``).

    ``token`` is sent as ``authorization: Bearer <token>``; ``tls`` is None (plain text),
    True (the system's root certificates) or the path of a PEM file of root certificates;
    ``timeout`` is every call's deadline in seconds (None: none), a search's time budget
    added; ``options`` are gRPC channel options. Use it as a context manager, or ``close()``
    it. Positions go in as the
    ``Position`` message or its JSON dict; ``as_dict=True`` returns them as dicts.
    """

    def __init__(self, address: str, *, token: str | None = None, tls: TlsLike = None,
                 timeout: float | None = DEFAULT_TIMEOUT_S,
                 options: Sequence[tuple[str, Any]] = ()) -> None:
        credentials = shared.credentials(tls)
        self._channel = (grpc.insecure_channel(address, options) if credentials is None
                         else grpc.secure_channel(address, credentials, options))
        self._rules = rules_pb2_grpc.RulesStub(self._channel)
        self._analysis = analysis_pb2_grpc.AnalysisStub(self._channel)
        self._metadata = shared.metadata(token)
        self.address, self.timeout = address, timeout

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: Callable[..., Result], request: Message, timeout: float | None) -> Result:
        """``method(request)``: a response, or a stream's iterator."""
        try:
            return method(request, timeout=timeout, metadata=self._metadata)
        except grpc.RpcError as e:
            raise ClientError.from_rpc_error(e) from None

    def _stream(self, method: grpc.UnaryStreamMultiCallable[Request, Response], request: Request,
                 timeout: float | None) -> Iterator[Response]:
        call = self._call(method, request, timeout)
        try:
            yield from call
        except grpc.RpcError as e:
            raise ClientError.from_rpc_error(e) from None
        finally:
            call.cancel()  # a no-op once the stream has ended

    # ------------------------------------------------------------------ rules
    def list_games(self) -> list[GameInfo]:
        response = self._call(self._rules.ListGames, rules_pb2.ListGamesRequest(), self.timeout)
        return [GameInfo.from_proto(g) for g in response.games]

    def new_game(self, game: str, players: int, *, seed: int = 0, options: Mapping[str, Any] | None = None,
                 as_dict: bool = False) -> position_pb2.Position | dict[str, Any]:
        """The position of a new game; ``options`` by name (``GameInfo.options``)."""
        request = shared.new_game_request(game, players, seed, options)
        return shared.position_out(self._call(self._rules.NewGame, request, self.timeout).position, as_dict)

    def legal_moves(self, position: PositionLike) -> list[LegalMove]:
        """The legal moves, by action id; empty when the game is over."""
        response = self._legal_moves(position)
        return [LegalMove(m.notation, m.action) for m in response.moves]

    def _legal_moves(self, position: PositionLike) -> rules_pb2.LegalMovesResponse:
        request = rules_pb2.LegalMovesRequest(position=shared.position(position))
        return self._call(self._rules.LegalMoves, request, self.timeout)

    def apply(self, position: PositionLike, move: str, *, seed: int = 0, shown: Sequence[str] = (),
              as_dict: bool = False) -> Applied:
        """The position after ``move`` and, when it ended the game, the result; its chance
        (draws, dice) comes from ``seed``, or on a viewer's observation from what it ``shown``
        him (docs/positions.md)."""
        request = rules_pb2.ApplyMoveRequest(position=shared.position(position), move=move, seed=seed, shown=shown)
        return shared.applied(self._call(self._rules.ApplyMove, request, self.timeout), as_dict)

    def observe(self, position: PositionLike, *, as_dict: bool = False) -> position_pb2.Position | dict[str, Any]:
        """What the position's viewer sees of it (its observation)."""
        request = rules_pb2.ObserveRequest(position=shared.position(position))
        return shared.position_out(self._call(self._rules.Observe, request, self.timeout).position, as_dict)

    def result(self, position: PositionLike) -> GameResult:
        """Whether the game is over, and its result when the service gives one."""
        return shared.result(self._legal_moves(position))

    # --------------------------------------------------------------- analysis
    def analyze(self, position: PositionLike, *, iterations: int | None = None, time_ms: int | None = None,
                cpu_ms: int | None = None,
                threads: int | None = None, seed: int | None = None, max_moves: int | None = None,
                request_id: str = "") -> Analysis:
        """The search's statistics of the position's moves; budget values left None take
        the server's defaults."""
        request = analysis_pb2.AnalyzeRequest(
            request_id=request_id, position=shared.position(position),
            budget=shared.budget(iterations, time_ms, threads, cpu_ms), seed=seed, max_moves=max_moves or 0)
        return Analysis.from_proto(self._call(self._analysis.Analyze, request,
                                              shared.deadline(self.timeout, time_ms or cpu_ms)))

    def analyze_stream(self, position: PositionLike, *, iterations: int | None = None,
                       time_ms: int | None = None, cpu_ms: int | None = None, threads: int | None = None, seed: int | None = None,
                       max_moves: int | None = None, report_every_ms: int | None = None,
                       request_id: str = "") -> Iterator[Analysis]:
        """Progress reports about every ``report_every_ms``, then the final analysis
        (``final``); leaving the loop early cancels the search."""
        request = analysis_pb2.AnalyzeStreamRequest(
            request_id=request_id, position=shared.position(position),
            budget=shared.budget(iterations, time_ms, threads, cpu_ms), seed=seed, max_moves=max_moves or 0,
            report_every_ms=report_every_ms or 0)
        for response in self._stream(self._analysis.AnalyzeStream, request,
                                     shared.deadline(self.timeout, time_ms or cpu_ms)):
            yield Analysis.from_proto(response)

    def best_move(self, position: PositionLike, *, level: int | None = None, iterations: int | None = None,
                  time_ms: int | None = None, cpu_ms: int | None = None, threads: int | None = None, seed: int | None = None,
                  whole_turn: bool = False, request_id: str = "") -> BestMove:
        """The move to play: by ``level`` (1-10), by a budget, or by the server's default;
        with ``whole_turn``, every decision of the mover's turn (``BestMove.turn``)."""
        request = shared.best_move_request(position, level, iterations, time_ms, threads, seed, request_id, cpu_ms,
                                           whole_turn)
        return BestMove.from_proto(self._call(self._analysis.BestMove, request,
                                              shared.deadline(self.timeout, time_ms or cpu_ms)))

    def review(self, game: RecordLike, *, iterations: int | None = None, time_ms: int | None = None, cpu_ms: int | None = None,
               threads: int | None = None, seats: Sequence[int] = (), seed: int | None = None,
               on_move: Callable[[MoveReview], None] | None = None, timeout: float | None = None,
               request_id: str = "") -> Review:
        """The review of a game record (a GameRecord or its JSON dict, e.g. ``meeplemind selfplay
        --json``'s ``start`` and ``moves``), each reviewed move also given to ``on_move`` as it
        comes. Its deadline is ``timeout`` alone (None: none), since a review's length grows
        with the game."""
        request = shared.review_request(game, iterations, time_ms, threads, seats, seed, request_id, cpu_ms)
        collector = shared.ReviewCollector()
        for response in self._stream(self._analysis.ReviewGame, request, timeout):
            move = collector.add(response)
            if move is not None and on_move is not None:
                on_move(move)
        return collector.done()
