"""``AsyncClient``: ``Client`` on ``grpc.aio``, every call a coroutine (streams: async iterators)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any, TypeVar

import grpc
import grpc.aio
from google.protobuf.message import Message

from ..v1 import analysis_pb2, analysis_pb2_grpc, position_pb2, rules_pb2, rules_pb2_grpc
from . import _shared as shared
from ._shared import DEFAULT_TIMEOUT_S, PositionLike, RecordLike, TlsLike
from .errors import ClientError
from .types import Analysis, Applied, BestMove, GameInfo, GameResult, LegalMove, MoveReview, Review

Request = TypeVar("Request", bound=Message)
Response = TypeVar("Response", bound=Message)


class AsyncClient:
    """``Client``'s calls as coroutines on one ``grpc.aio`` channel; the same arguments and
    results. Use it as an async context manager, or ``await close()``."""

    def __init__(self, address: str, *, token: str | None = None, tls: TlsLike = None,
                 timeout: float | None = DEFAULT_TIMEOUT_S,
                 options: Sequence[tuple[str, Any]] = ()) -> None:
        credentials = shared.credentials(tls)
        self._channel = (grpc.aio.insecure_channel(address, options) if credentials is None
                         else grpc.aio.secure_channel(address, credentials, options))
        self._rules = rules_pb2_grpc.RulesStub(self._channel)
        self._analysis = analysis_pb2_grpc.AnalysisStub(self._channel)
        self._metadata = shared.metadata(token)
        self.address, self.timeout = address, timeout

    async def close(self) -> None:
        await self._channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, method: grpc.aio.UnaryUnaryMultiCallable[Request, Response], request: Request,
                    timeout: float | None) -> Response:
        try:
            return await method(request, timeout=timeout, metadata=self._metadata)
        except grpc.aio.AioRpcError as e:
            raise ClientError.from_rpc_error(e) from None

    async def _stream(self, method: grpc.aio.UnaryStreamMultiCallable[Request, Response], request: Request,
                      timeout: float | None) -> AsyncIterator[Response]:
        call = method(request, timeout=timeout, metadata=self._metadata)
        try:
            async for response in call:
                yield response
        except grpc.aio.AioRpcError as e:
            raise ClientError.from_rpc_error(e) from None
        finally:
            call.cancel()  # a no-op once the stream has ended

    # ------------------------------------------------------------------ rules
    async def list_games(self) -> list[GameInfo]:
        response = await self._call(self._rules.ListGames, rules_pb2.ListGamesRequest(), self.timeout)
        return [GameInfo.from_proto(g) for g in response.games]

    async def new_game(self, game: str, players: int, *, seed: int = 0,
                       options: Mapping[str, Any] | None = None,
                       as_dict: bool = False) -> position_pb2.Position | dict[str, Any]:
        request = shared.new_game_request(game, players, seed, options)
        response = await self._call(self._rules.NewGame, request, self.timeout)
        return shared.position_out(response.position, as_dict)

    async def legal_moves(self, position: PositionLike) -> list[LegalMove]:
        response = await self._legal_moves(position)
        return [LegalMove(m.notation, m.action) for m in response.moves]

    async def _legal_moves(self, position: PositionLike) -> rules_pb2.LegalMovesResponse:
        request = rules_pb2.LegalMovesRequest(position=shared.position(position))
        return await self._call(self._rules.LegalMoves, request, self.timeout)

    async def apply(self, position: PositionLike, move: str, *, seed: int = 0, shown: Sequence[str] = (),
                    as_dict: bool = False) -> Applied:
        request = rules_pb2.ApplyMoveRequest(position=shared.position(position), move=move, seed=seed, shown=shown)
        return shared.applied(await self._call(self._rules.ApplyMove, request, self.timeout), as_dict)

    async def observe(self, position: PositionLike, *, as_dict: bool = False) -> position_pb2.Position | dict[str, Any]:
        request = rules_pb2.ObserveRequest(position=shared.position(position))
        response = await self._call(self._rules.Observe, request, self.timeout)
        return shared.position_out(response.position, as_dict)

    async def result(self, position: PositionLike) -> GameResult:
        return shared.result(await self._legal_moves(position))

    # --------------------------------------------------------------- analysis
    async def analyze(self, position: PositionLike, *, iterations: int | None = None,
                      time_ms: int | None = None, cpu_ms: int | None = None, threads: int | None = None, seed: int | None = None,
                      max_moves: int | None = None, request_id: str = "") -> Analysis:
        request = analysis_pb2.AnalyzeRequest(
            request_id=request_id, position=shared.position(position),
            budget=shared.budget(iterations, time_ms, threads, cpu_ms), seed=seed, max_moves=max_moves or 0)
        return Analysis.from_proto(await self._call(self._analysis.Analyze, request,
                                                    shared.deadline(self.timeout, time_ms or cpu_ms)))

    async def analyze_stream(self, position: PositionLike, *, iterations: int | None = None,
                             time_ms: int | None = None, cpu_ms: int | None = None, threads: int | None = None,
                             seed: int | None = None, max_moves: int | None = None,
                             report_every_ms: int | None = None,
                             request_id: str = "") -> AsyncIterator[Analysis]:
        request = analysis_pb2.AnalyzeStreamRequest(
            request_id=request_id, position=shared.position(position),
            budget=shared.budget(iterations, time_ms, threads, cpu_ms), seed=seed, max_moves=max_moves or 0,
            report_every_ms=report_every_ms or 0)
        async for response in self._stream(self._analysis.AnalyzeStream, request,
                                           shared.deadline(self.timeout, time_ms or cpu_ms)):
            yield Analysis.from_proto(response)

    async def best_move(self, position: PositionLike, *, level: int | None = None,
                        iterations: int | None = None, time_ms: int | None = None, cpu_ms: int | None = None,
                        threads: int | None = None, seed: int | None = None, whole_turn: bool = False,
                        request_id: str = "") -> BestMove:
        request = shared.best_move_request(position, level, iterations, time_ms, threads, seed, request_id, cpu_ms,
                                           whole_turn)
        return BestMove.from_proto(await self._call(self._analysis.BestMove, request,
                                                    shared.deadline(self.timeout, time_ms or cpu_ms)))

    async def review(self, game: RecordLike, *, iterations: int | None = None, time_ms: int | None = None,
                     cpu_ms: int | None = None,
                     threads: int | None = None, seats: Sequence[int] = (), seed: int | None = None,
                     on_move: Callable[[MoveReview], None] | None = None, timeout: float | None = None,
                     request_id: str = "") -> Review:
        request = shared.review_request(game, iterations, time_ms, threads, seats, seed, request_id, cpu_ms)
        collector = shared.ReviewCollector()
        async for response in self._stream(self._analysis.ReviewGame, request, timeout):
            move = collector.add(response)
            if move is not None and on_move is not None:
                on_move(move)
        return collector.done()
