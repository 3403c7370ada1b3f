"""The HTTP port's guard in front of its calls: every request body is read here first,
within the limits of ``HttpLimits``, and what cannot be served is answered at once in
the call's own protocol (Connect, gRPC-Web) with a code and a message naming why.

- a declared ``Content-Length`` over the limit: 413 (RESOURCE_EXHAUSTED) before a byte of
  the body is read; a body growing past it: the same;
- a body not complete within ``body_timeout_s`` of its headers: 408 (DEADLINE_EXCEEDED);
- more than ``max_body_readers`` bodies on their way at once: 503 (UNAVAILABLE) at once;
- gRPC (``application/grpc``) where the server cannot send trailers (HTTP/1.1): 415
  (UNIMPLEMENTED), pointing to HTTP/2 or gRPC-Web;
- an enveloped message flagged compressed in a call that named no compression: 400
  (INVALID_ARGUMENT).

The call then reads the body from memory: at most ``max_body_bytes`` per request, and no
slow client holds a call.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from urllib.parse import quote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Content types by protocol (connectrpc's negotiation: gRPC, gRPC-Web, else Connect).
_GRPC, _GRPC_WEB, _CONNECT_STREAM = "application/grpc", "application/grpc-web", "application/connect+"
#: The envelope flag of a compressed message (gRPC-Web, Connect streaming).
_COMPRESSED = 0x01
_END_STREAM = 0x02
#: The gRPC code, Connect code and HTTP status of each refusal.
_CODES = {"resource_exhausted": (8, 413), "deadline_exceeded": (4, 408), "unavailable": (14, 503),
          "unimplemented": (12, 415), "invalid_argument": (3, 400)}


@dataclass(frozen=True)
class HttpLimits:
    """What one HTTP request may take (see docs/limits.md)."""

    max_body_bytes: int
    body_timeout_s: float = 10.0
    max_body_readers: int = 128
    idle_timeout_s: float = 5.0  # an open connection without a call in flight, headers included

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "body_timeout_s", "max_body_readers", "idle_timeout_s"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name}: {getattr(self, name)} is not above 0")


class _Refusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class RequestGuard:
    """ASGI middleware reading each POST's body within ``limits`` before ``app`` sees it."""

    def __init__(self, app: ASGIApp, limits: HttpLimits) -> None:
        self._app, self._limits = app, limits
        self._reading = 0

    @property
    def reading(self) -> int:
        """Request bodies being read now."""
        return self._reading

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        try:
            self._check_protocol(scope, content_type)
            body = await self._body(headers, receive)
            if body is None:  # the client went away
                return
            self._check_envelope(content_type, headers, body)
        except _Refusal as refusal:
            await _refuse(send, content_type, refusal)
            return
        await self._app(scope, _replay(body, receive), send)

    @staticmethod
    def _check_protocol(scope: Scope, content_type: str) -> None:
        if (content_type == _GRPC or content_type.startswith(_GRPC + "+")) \
                and "http.response.trailers" not in scope.get("extensions", {}):
            raise _Refusal("unimplemented", f"gRPC needs HTTP/2 and trailers, not HTTP/{scope['http_version']}: "
                                            "call the gRPC port, or use gRPC-Web or Connect here")

    async def _body(self, headers: dict[str, str], receive: Receive) -> bytes | None:
        limit = self._limits.max_body_bytes
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise _Refusal("resource_exhausted", f"request: {declared} bytes is over the limit of {limit} bytes")
        if self._reading >= self._limits.max_body_readers:
            raise _Refusal("unavailable", f"over capacity: {self._reading} request bodies on their way (the limit)")
        self._reading += 1
        try:
            async with asyncio.timeout(self._limits.body_timeout_s):
                return await _read(receive, limit)
        except TimeoutError:
            raise _Refusal("deadline_exceeded", "request: the body did not arrive within "
                                                f"{self._limits.body_timeout_s:g} s of the headers") from None
        finally:
            self._reading -= 1

    @staticmethod
    def _check_envelope(content_type: str, headers: dict[str, str], body: bytes) -> None:
        enveloped = content_type.startswith(_GRPC_WEB) or content_type.startswith(_CONNECT_STREAM)
        encoding = headers.get("grpc-encoding" if content_type.startswith(_GRPC_WEB) else "connect-content-encoding",
                               "identity")
        if enveloped and body and body[0] & _COMPRESSED and encoding == "identity":
            raise _Refusal("invalid_argument", "request: a message flagged compressed, but the call names "
                                               "no compression (grpc-encoding, connect-content-encoding)")


async def _read(receive: Receive, limit: int) -> bytes | None:
    """The whole body (None: the client went away); a refusal once past ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _Refusal("resource_exhausted", f"request: over the limit of {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` handing over ``body`` whole, then the client's own events (disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replayed


def _percent_encoded(text: str) -> bytes:
    """A grpc-message value: printable ASCII but ``%`` as is, the rest percent-encoded (UTF-8)."""
    return "".join(ch if " " <= ch <= "~" and ch != "%" else quote(ch, safe="") for ch in text).encode()


async def _refuse(send: Send, content_type: str, refusal: _Refusal) -> None:
    """The refusal in the request's protocol: gRPC and gRPC-Web a trailers-only answer (its
    status in the headers), a Connect stream an end-of-stream message, else a Connect error
    (JSON) with the HTTP status; every connection closes after it."""
    grpc_code, status = _CODES[refusal.code]
    close = [(b"connection", b"close")]
    if content_type.startswith(_GRPC):
        await send({"type": "http.response.start", "status": 200 if refusal.code != "unimplemented" else status,
                    "headers": [(b"content-type", content_type.encode()), (b"grpc-status", str(grpc_code).encode()),
                                (b"grpc-message", _percent_encoded(refusal.message)), *close]})
        await send({"type": "http.response.body", "body": b""})
        return
    error = {"code": refusal.code, "message": refusal.message}
    if content_type.startswith(_CONNECT_STREAM):
        end = json.dumps({"error": error}).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", content_type.encode()), *close]})
        await send({"type": "http.response.body",
                    "body": bytes([_END_STREAM]) + len(end).to_bytes(4, "big") + end})
        return
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), *close]})
    await send({"type": "http.response.body", "body": json.dumps(error).encode()})
