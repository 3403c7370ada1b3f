"""Server interceptors: observing (standard gRPC metrics, an access log line per call), bearer-token
auth, and the guard that turns undecodable requests and ServiceErrors into rich statuses.

``create_server`` installs them outermost first: observe, auth, guard.
"""

from __future__ import annotations

import functools
import hmac
import logging
import time
from collections.abc import Callable, Container, Iterator
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from .logs import ACCESS_LOGGER
from .errors import ServiceError
from .limits import MAX_TEXT_BYTES
from .metrics import Method, Metrics
from .text_bounds import check_text

Behavior = Callable[[Any, grpc.ServicerContext], Any]
Wrapper = Callable[[Behavior, bool], Behavior]
_KINDS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")

access_log = logging.getLogger(ACCESS_LOGGER)


def _wrap(handler: Any, wrapper: Wrapper) -> Any:
    """``handler`` (a grpc RpcMethodHandler) with its behavior replaced by
    ``wrapper(behavior, response_streaming)``."""
    for kind in _KINDS:
        behavior = getattr(handler, kind)
        if behavior is not None:
            return handler._replace(**{kind: wrapper(behavior, handler.response_streaming)})
    return handler


def _once_per_handler(make: Callable[..., Any]) -> Callable[..., Any]:
    """``make`` remembered by its arguments (a method's handler, and its name): the
    services' handlers are made once, so interceptors need not wrap them on every call."""
    return functools.lru_cache(maxsize=1024)(make)


class ObserveInterceptor(grpc.ServerInterceptor):
    """The standard gRPC server metrics of every call (started, messages, handled by
    code, handling time) and (access logger at INFO) one log line per call, whose
    fields are also the record's attributes (``grpc_method``, ``grpc_code``,
    ``duration_ms``, ``peer``, ``request_id``) for structured logs."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics
        self._observed = _once_per_handler(self._observe)

    def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        return None if handler is None else self._observed(handler, details.method)

    def _observe(self, handler: Any, name: str) -> Any:
        """``handler`` observed as ``name`` (made once per handler: see ``_once_per_handler``)."""
        method = Method.of(name, handler.request_streaming, handler.response_streaming)
        metrics = self._metrics

        def wrapper(behavior: Behavior, streaming: bool) -> Behavior:
            if streaming:
                def observed_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                    start, failed = time.perf_counter(), True
                    metrics.call_started(method)
                    try:
                        for response in behavior(request, context):
                            metrics.message_sent(method)
                            yield response
                        failed = False
                    finally:
                        self._record(name, method, request, context, start, failed)
                return observed_stream

            def observed(request: Any, context: grpc.ServicerContext) -> Any:
                start, failed = time.perf_counter(), True
                metrics.call_started(method)
                try:
                    response = behavior(request, context)
                    failed = False
                    metrics.message_sent(method)
                    return response
                finally:
                    self._record(name, method, request, context, start, failed)
            return observed

        return _wrap(handler, wrapper)

    def _record(self, name: str, method: Method, request: Any, context: grpc.ServicerContext,
                start: float, failed: bool) -> None:
        seconds = time.perf_counter() - start
        code = context.code()  # type: ignore[attr-defined]  # set by abort() and set_code(); grpc >= 1.38, not in the stubs
        if code is None:
            code = (grpc.StatusCode.CANCELLED if not context.is_active() else
                    grpc.StatusCode.UNKNOWN if failed else grpc.StatusCode.OK)
        self._metrics.call_handled(method, code.name, seconds)
        if access_log.isEnabledFor(logging.INFO):
            request_id = getattr(request, "request_id", "")
            access_log.info("%s %s %.1fms peer=%s%s", name, code.name, seconds * 1e3, context.peer(),
                            f" request_id={request_id}" if request_id else "",
                            extra={"grpc_method": name, "grpc_code": code.name,
                                   "duration_ms": round(seconds * 1e3, 3), "peer": context.peer(),
                                   "request_id": request_id})


class AuthInterceptor(grpc.ServerInterceptor):
    """Refuses calls without ``authorization: Bearer <token>`` (UNAUTHENTICATED),
    except to the methods in ``open_methods`` (e.g. health checks)."""

    def __init__(self, token: str, open_methods: Container[str]) -> None:
        self._expected = f"Bearer {token}".encode()
        self._open = open_methods
        self._refusing = _once_per_handler(self._refuse)

    def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None or details.method in self._open or self._authorized(details):
            return handler
        return self._refusing(handler)

    @staticmethod
    def _refuse(handler: Any) -> Any:
        def refuse(behavior: Behavior, streaming: bool) -> Behavior:
            def refused(request: Any, context: grpc.ServicerContext) -> Any:
                context.abort(grpc.StatusCode.UNAUTHENTICATED,
                              "missing or wrong bearer token (metadata 'authorization: Bearer <token>')")
            return refused

        return _wrap(handler, refuse)

    def _authorized(self, details: grpc.HandlerCallDetails) -> bool:
        for key, value in details.invocation_metadata or ():
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                return hmac.compare_digest(given, self._expected)
        return False


class _Undecodable:
    """Stands for a request message that could not be read, and says why."""

    def __init__(self, error: ServiceError) -> None:
        self.error = error


class GuardInterceptor(grpc.ServerInterceptor):
    """Reads unary requests leniently and sends every ServiceError as a rich status.

    A request over ``max_message_bytes`` is RESOURCE_EXHAUSTED and one that does not
    parse is INVALID_ARGUMENT, both with a BadRequest naming the field ``request``
    (gRPC itself would answer INTERNAL without details); a meeplemind request with a
    string over its limit (``text_bounds``) is INVALID_ARGUMENT naming that field.
    """

    def __init__(self, max_message_bytes: int) -> None:
        self._max_bytes = max_message_bytes
        self._guarded = _once_per_handler(self._guard)

    def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        return None if handler is None else self._guarded(handler)

    def _guard(self, handler: Any) -> Any:
        if not handler.request_streaming and handler.request_deserializer is not None:
            handler = handler._replace(request_deserializer=self._lenient(handler.request_deserializer))
        return _wrap(handler, _translate_errors)

    def _lenient(self, parse: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
        def deserialize(data: bytes) -> Any:
            if len(data) > self._max_bytes:
                return _Undecodable(ServiceError.invalid(
                    "request", f"{len(data)} bytes is over the limit of {self._max_bytes} bytes",
                    grpc.StatusCode.RESOURCE_EXHAUSTED))
            try:
                request = parse(data)
                if len(data) > MAX_TEXT_BYTES and request.DESCRIPTOR.file.package == "meeplemind.v1":
                    check_text(request)  # (a shorter request has no longer string)
                return request
            except DecodeError as e:
                return _Undecodable(ServiceError.invalid("request", f"not a valid message ({e})"))
            except ServiceError as e:
                return _Undecodable(e)
        return deserialize


def _translate_errors(behavior: Behavior, streaming: bool) -> Behavior:
    if streaming:
        def guarded_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                if isinstance(request, _Undecodable):
                    raise request.error
                yield from behavior(request, context)
            except ServiceError as e:
                context.abort_with_status(e.status())
        return guarded_stream

    def guarded(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            if isinstance(request, _Undecodable):
                raise request.error
            return behavior(request, context)
        except ServiceError as e:
            context.abort_with_status(e.status())
    return guarded
