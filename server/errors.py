"""Rich gRPC errors: a status code, a message and google.rpc.BadRequest field violations."""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

#: The most UTF-8 bytes of an error's message, and of each field path and description of
#: its BadRequest: with at most MAX_VIOLATIONS of them, the status trailers (the message
#: percent-encoded, the details in base64) stay well inside gRPC's default 8 KiB limit on
#: metadata, whatever a request held.
MAX_ERROR_TEXT_BYTES = 320
MAX_VIOLATIONS = 4
#: The most characters of a request's value quoted in an error.
MAX_QUOTED_CHARS = 48
ELLIPSIS = "…"


def shorten(text: str, limit: int = MAX_ERROR_TEXT_BYTES) -> str:
    """``text`` in at most ``limit`` UTF-8 bytes: if longer, its middle elided (an
    ellipsis), so that both a quoted value's start and the explanation after it remain."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    keep = limit - len(ELLIPSIS.encode())
    head, tail = data[:keep // 2], data[len(data) - (keep - keep // 2):]
    return head.decode("utf-8", "ignore") + ELLIPSIS + tail.decode("utf-8", "ignore")


def quoted(value: str) -> str:
    """``repr`` of a request's value for an error, its middle elided beyond MAX_QUOTED_CHARS
    characters (the length said)."""
    if len(value) <= MAX_QUOTED_CHARS:
        return repr(value)
    half = MAX_QUOTED_CHARS // 2
    return f"{value[:half]!r}{ELLIPSIS}{value[-half:]!r} ({len(value)} characters)"


class ServiceError(Exception):
    """An RPC failure the servicers raise; the guard interceptor sends it as a rich status.

    ``violations`` are ``(field path, description)`` pairs, sent as a BadRequest detail.
    Every text is cut to MAX_ERROR_TEXT_BYTES and the violations to MAX_VIOLATIONS, so the
    error reaches the client whatever it quotes.
    """

    def __init__(self, code: grpc.StatusCode, message: str,
                 violations: Sequence[tuple[str, str]] = ()) -> None:
        message = shorten(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.violations = tuple((shorten(field), shorten(description))
                                for field, description in violations[:MAX_VIOLATIONS])

    @classmethod
    def invalid(cls, field: str, description: str,
                code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT) -> ServiceError:
        """A failure caused by one request field (INVALID_ARGUMENT unless told)."""
        return cls(code, f"{field}: {description}", [(field, description)])

    def status(self) -> grpc.Status:
        """The grpc.Status carrying a google.rpc.Status (with a BadRequest if any violations)."""
        details = []
        if self.violations:
            bad_request = error_details_pb2.BadRequest(field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field=field, description=description)
                for field, description in self.violations
            ])
            detail = any_pb2.Any()
            detail.Pack(bad_request)
            details.append(detail)
        status = status_pb2.Status(code=self.code.value[0], message=self.message, details=details)
        return rpc_status.to_status(status)

