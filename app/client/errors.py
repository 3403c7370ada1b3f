"""The one exception of ``meeplemind.client``: a failed call, its status and its field violations."""

from __future__ import annotations

from typing import NamedTuple, cast

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status


class FieldViolation(NamedTuple):
    """A request field the service refused (google.rpc.BadRequest), e.g.
    ``position.puerto_rico.players[2].doubloons`` and ``-1 is below 0``."""

    field: str
    description: str


class ClientError(Exception):
    """A call failed: ``code`` (a grpc.StatusCode), ``details`` (the status message) and
    ``violations``, every BadRequest field violation the service sent."""

    def __init__(self, code: grpc.StatusCode, details: str, violations: tuple[FieldViolation, ...] = ()) -> None:
        self.code, self.details, self.violations = code, details, violations
        named = "; ".join(f"{v.field}: {v.description}" for v in violations)
        super().__init__(f"{code.name}: {named or details}")

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> ClientError:
        """The ClientError of a failed call (sync ``grpc.RpcError`` or ``grpc.aio.AioRpcError``)."""
        call = _failed_call(error)
        return cls(call.code(), call.details() or "", tuple(field_violations(error)))


def _failed_call(error: grpc.RpcError) -> grpc.Call:
    """A failed call's exception as the call it is: grpc raises a ``grpc.Call`` (and
    grpc.aio an ``AioRpcError`` with the same methods), typed as a bare RpcError."""
    return cast(grpc.Call, error)


def field_violations(error: grpc.RpcError) -> list[FieldViolation]:
    """Every field violation of the BadRequest details of a failed call (its trailing metadata)."""
    status = rpc_status.from_call(_failed_call(error))
    violations: list[FieldViolation] = []
    for detail in status.details if status is not None else ():
        bad_request = error_details_pb2.BadRequest()
        if detail.Unpack(bad_request):
            violations += [FieldViolation(v.field, v.description) for v in bad_request.field_violations]
    return violations
