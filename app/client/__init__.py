"""A Python client of the meeplemind service (``meeplemind.v1``), needing only grpcio,
protobuf and grpcio-status::

    from meeplemind.client import Client

    with Client("127.0.0.1:50051", token=None, tls=None) as client:
        position = client.new_game("puerto-rico", 3, seed=7)
        best = client.best_move(position, level=3)
        applied = client.apply(position, best.move)  # applied.position, applied.result

``AsyncClient`` is the same on ``grpc.aio``. Failures raise ``ClientError`` (status code and
every BadRequest field violation); results are the dataclasses of ``meeplemind.client.types``.
"""

from .aio import AsyncClient
from .errors import ClientError, FieldViolation
from .sync import Client
from .types import (Analysis, Applied, BestMove, GameInfo, GameOption, GameResult, LegalMove, Mark,
                    MoveAnalysis, MoveReview, PlayerReview, Review, SearchStats, TurnMove)

__all__ = ["Analysis", "Applied", "AsyncClient", "BestMove", "Client", "ClientError", "FieldViolation", "GameInfo",
           "GameOption", "GameResult", "LegalMove", "Mark", "MoveAnalysis", "MoveReview", "PlayerReview", "Review",
           "SearchStats", "TurnMove"]
