"""Connect and gRPC-Web (HTTP/1.1 and HTTP/2) for browsers, and the web page, on the HTTP port.

The protocols are spoken by ``connectrpc`` on the ASGI server ``hypercorn``. Every call
is handed on, as it came, to the process's own gRPC server over a private Unix socket:
the same servicers behind the same interceptors (auth, limits, metrics, rich errors),
the same search slots. A call's deadline becomes the gRPC call's timeout; a browser that
goes away cancels the gRPC call, which stops its search; a gRPC error comes back with its
code, message and details (google.rpc.BadRequest). Every request body is read first by
``http_guard`` within the port's limits (docs/limits.md).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import pathlib
import re
import socket
import ssl
import tempfile
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, cast

import grpc
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.message import Message
from google.rpc import status_pb2
from grpc_health.v1 import health
from hypercorn.asyncio.run import worker_serve
from hypercorn.config import Config, Sockets
from hypercorn.typing import ASGIFramework
from hypercorn.utils import wrap_app
from prometheus_client import Counter
from protobuf.wkt import Any as ConnectAny
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import web
from ..positions.messages import json_error
from ..web.facts import facts
from .app import SERVICES, TRANSPORT_LIMIT_FACTOR, Server, TlsFiles
from .errors import ServiceError
from .http_guard import HttpLimits, RequestGuard
from .limits import DEFAULT_MAX_MESSAGE_BYTES

if TYPE_CHECKING:  # the classes Endpoint's factories return
    from connectrpc._server_shared import EndpointServerStream, EndpointUnary

#: A call's context, and an endpoint, of the served (protobuf) methods.
Context = RequestContext[Message, Message]
MethodEndpoint: TypeAlias = "EndpointUnary[Message, Message] | EndpointServerStream[Message, Message]"
#: Every service the HTTP port serves.
HTTP_SERVICES = (*SERVICES, health.SERVICE_NAME)
#: Request headers handed on to the gRPC call as metadata.
FORWARDED_HEADERS = ("authorization",)
#: Headers a browser on another origin may send and read (CORS).
CORS_REQUEST_HEADERS = ("authorization", "content-type", "connect-protocol-version", "connect-timeout-ms",
                        "connect-content-encoding", "connect-accept-encoding", "grpc-timeout",
                        "x-grpc-web", "x-user-agent")
CORS_RESPONSE_HEADERS = ("grpc-status", "grpc-message", "grpc-status-details-bin", "content-encoding",
                         "connect-content-encoding")
#: Milliseconds of a call's deadline kept for the answer's way back through the HTTP port
#: (the gRPC server keeps its own margin before the deadline it is handed).
HOP_MARGIN_MS = 100.0
#: Seconds the HTTP server gives open connections to finish on stop.
STOP_TIMEOUT_S = 5.0
#: The only files of web/ the page serves (its modules are not the page's).
PAGE_SUFFIXES = frozenset({".html", ".js", ".css"})
_STATUS_DETAILS = "grpc-status-details-bin"
#: hypercorn's own log: its warnings and errors (its "Running on" line repeats serve()'s).
_HYPERCORN_LOG = logging.getLogger("meeplemind.http")
_HYPERCORN_LOG.setLevel(logging.WARNING)


@dataclass(frozen=True)
class HttpOptions:
    """Where the HTTP port listens and which other origins may call it (none: CORS closed)."""

    host: str
    port: int
    cors_origins: tuple[str, ...] = ()


class JsonCodec:
    """proto3 JSON with the proto field names (``puerto_rico``) and every field, as in position
    files; requests may use either spelling, and a field the message does not have, or a value
    of the wrong type, is INVALID_ARGUMENT naming its path under ``request`` (as the command
    line names a position's)."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        return json_format.MessageToJson(message, preserving_proto_field_name=True, indent=None,
                                         always_print_fields_with_no_presence=True).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        message = message_class()
        try:
            parsed = json.loads(bytes(data))
        except UnicodeDecodeError:
            raise _service_error(ServiceError.invalid("request", "not UTF-8 text")) from None
        except json.JSONDecodeError as e:
            raise _service_error(ServiceError.invalid(
                "request", f"not JSON: {e.msg} at line {e.lineno} column {e.colno}")) from None
        if not isinstance(parsed, dict):
            raise _service_error(ServiceError.invalid("request", f"expected a JSON object, got {_json_type(parsed)}"))
        try:
            json_format.ParseDict(parsed, message)
        except (json_format.ParseError, AttributeError, TypeError):
            error = json_error(parsed, message.DESCRIPTOR)
            field = f"request.{error.path}" if error.path else "request"
            raise _service_error(ServiceError.invalid(field, _plain(error.problem) or "not a valid message")) from None
        return message


#: The words of Python's own conversion errors protobuf's JSON parser passes on, in JSON's words.
_PYTHON_WORDS = ((re.compile(r"invalid literal for int\(\) with base 10: (.*)"), r"\1 is not an integer"),
                 (re.compile(r"could not convert string to float: (.*)"), r"\1 is not a number"),
                 (re.compile(r"expected string or bytes-like object, got '(\w+)'"), "expected a string, got {}"))
_JSON_TYPES = {"int": "a number", "float": "a number", "bool": "true or false", "list": "an array",
               "dict": "an object", "NoneType": "null", "str": "a string"}


def _json_type(value: object) -> str:
    return _JSON_TYPES.get(type(value).__name__, type(value).__name__)


def _plain(problem: str) -> str:
    """``problem`` with Python's conversion errors said in JSON's words."""
    for pattern, words in _PYTHON_WORDS:
        found = pattern.fullmatch(problem)
        if found is not None:
            return (words.format(_JSON_TYPES.get(found.group(1), found.group(1))) if "{}" in words
                    else found.expand(words))
    return problem


def _connect_code(code: grpc.StatusCode) -> Code:
    return Code.CANCELED if code is grpc.StatusCode.CANCELLED else Code[code.name]


def _as_connect_error(code: grpc.StatusCode, message: str,
                      trailing_metadata: Iterable[tuple[str, str | bytes]] | None) -> ConnectError:
    """A gRPC status as a Connect error: code, message, details (google.rpc.Status's)."""
    details: list[ErrorDetail] = []
    for key, value in trailing_metadata or ():
        if key == _STATUS_DETAILS and isinstance(value, bytes):  # a -bin key's value
            status = status_pb2.Status.FromString(value)
            details = [ErrorDetail(ConnectAny(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(_connect_code(code), message, details)


def _connect_error(error: grpc.aio.AioRpcError) -> ConnectError:
    """The gRPC call's failure as a Connect error."""
    return _as_connect_error(error.code(), error.details() or "", error.trailing_metadata())


def _service_error(error: ServiceError) -> ConnectError:
    """A failure found before the call is handed on, as the gRPC port would send it."""
    status = error.status()
    return _as_connect_error(status.code, status.details, status.trailing_metadata)


def _metadata(ctx: Context) -> tuple[tuple[str, str], ...]:
    """The request headers gRPC gets as metadata (values that are not ASCII are dropped:
    gRPC refuses them, and the call is then refused as unauthenticated)."""
    headers = ctx.request_headers
    return tuple((name, value) for name in FORWARDED_HEADERS
                 if (value := headers.get(name)) is not None and value.isascii() and value.isprintable())


def _timeout(ctx: Context) -> float | None:
    """The gRPC call's timeout: the caller's, less HOP_MARGIN_MS for the way back."""
    remaining = ctx.timeout_ms
    return None if remaining is None else max(remaining - HOP_MARGIN_MS, 0.0) / 1e3


class _Pending:
    """A streamed call's answers on their way from the gRPC call to the HTTP response, as
    the gRPC port's own streams hold them: a progress report (``final`` false) not sent yet is
    replaced by the next answer, so a reader slower than the reports gets the newest and the
    port holds one report per stream; every other answer (the final one, a move review) is kept."""

    _END = object()

    def __init__(self, dropped: Counter) -> None:
        self._queue: collections.deque[Message | ConnectError | object] = collections.deque()
        self._ready = asyncio.Event()
        self._dropped = dropped

    def put(self, item: Message | ConnectError | object) -> None:
        if self._queue and getattr(self._queue[-1], "final", True) is False:
            self._queue.pop()
            self._dropped.inc()
        self._queue.append(item)
        self._ready.set()

    def end(self) -> None:
        self.put(self._END)

    async def take(self) -> Message | None:
        """The next answer (None: the call ended); a ConnectError the call ended with is raised."""
        while not self._queue:
            self._ready.clear()
            await self._ready.wait()
        item = self._queue.popleft()
        if isinstance(item, ConnectError):
            raise item
        return None if item is self._END else cast(Message, item)


class _Forwarder:
    """Hands calls on to the gRPC server on ``target`` (a channel made in the serving loop)."""

    def __init__(self, target: str, max_message_bytes: int, dropped: Counter) -> None:
        self._target = target
        self._limit = max_message_bytes * TRANSPORT_LIMIT_FACTOR
        self._channel: grpc.aio.Channel | None = None
        self._dropped = dropped

    @property
    def channel(self) -> grpc.aio.Channel:
        if self._channel is None:
            self._channel = grpc.aio.insecure_channel(self._target, options=[
                ("grpc.max_receive_message_length", self._limit),
                ("grpc.max_send_message_length", self._limit)])
        return self._channel

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()

    def unary(self, path: str, response: type[Message]) -> Callable[[Message, Context], Awaitable[Message]]:
        async def call(request: Message, ctx: Context) -> Message:
            multicallable = self.channel.unary_unary(path, request_serializer=_serialize,
                                                     response_deserializer=response.FromString)
            try:
                return await multicallable(request, timeout=_timeout(ctx), metadata=_metadata(ctx))
            except grpc.aio.AioRpcError as e:
                raise _connect_error(e) from None
        return call

    def server_stream(self, path: str, response: type[Message]) -> Callable[[Message, Context], AsyncIterator[Message]]:
        async def call(request: Message, ctx: Context) -> AsyncIterator[Message]:
            multicallable = self.channel.unary_stream(path, request_serializer=_serialize,
                                                      response_deserializer=response.FromString)
            stream = multicallable(request, timeout=_timeout(ctx), metadata=_metadata(ctx))
            pending = _Pending(self._dropped)

            async def drain() -> None:  # read on whether or not the browser reads
                try:
                    async for message in stream:
                        pending.put(message)
                    pending.end()
                except grpc.aio.AioRpcError as e:
                    pending.put(_connect_error(e))

            draining = asyncio.create_task(drain())
            try:
                while (message := await pending.take()) is not None:
                    yield message
            finally:
                stream.cancel()  # the browser went away, or the deadline passed: stop the search
                draining.cancel()
        return call


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


def methods(services: Sequence[str]) -> dict[str, MethodInfo[Message, Message]]:
    """Every method of ``services`` (full names) by its path ``/<service>/<method>``."""
    pool = descriptor_pool.Default()
    found: dict[str, MethodInfo[Message, Message]] = {}
    for service_name in services:
        service = pool.FindServiceByName(service_name)
        for method in service.methods:
            if method.client_streaming:
                raise ValueError(f"{service_name}.{method.name}: client streaming is not served over HTTP")
            found[f"/{service.full_name}/{method.name}"] = MethodInfo(
                name=method.name, service_name=service.full_name,
                input=message_factory.GetMessageClass(method.input_type),
                output=message_factory.GetMessageClass(method.output_type),
                idempotency_level=IdempotencyLevel.UNKNOWN,
                stream_type=StreamType.SERVER_STREAM if method.server_streaming else StreamType.UNARY)
    return found


def endpoints(forwarder: _Forwarder, services: Sequence[str]) -> dict[str, MethodEndpoint]:
    """One endpoint per method of ``services``, by path, handing calls on."""
    return {path: (Endpoint.server_stream(info, forwarder.server_stream(path, info.output))
                   if info.stream_type is StreamType.SERVER_STREAM
                   else Endpoint.unary(info, forwarder.unary(path, info.output)))
            for path, info in methods(services).items()}


class _ServicesApp(ConnectASGIApplication[None]):
    """Every RPC of the served services, at ``/<service>/<method>``."""

    path = "/"


async def _facts(request: Request) -> JSONResponse:
    """The games' fixed facts the page draws with."""
    return JSONResponse(facts())


class _PageFiles(StaticFiles):
    """The page's files of web/: its HTML, scripts and style sheet, nothing else (404)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path not in ("", ".") and pathlib.PurePosixPath(path).suffix not in PAGE_SUFFIXES:
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)


class _Router:
    """Paths of the served services to Connect (an unknown method there is NOT_FOUND),
    everything else to the web page's files."""

    def __init__(self, rpc: ASGIApp, services: frozenset[str], files: ASGIApp) -> None:
        self._rpc, self._services, self._files = rpc, services, files

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or scope.get("path", "/").split("/")[1] in self._services:
            await self._rpc(scope, receive, send)
        else:
            await self._files(scope, receive, send)


def asgi_app(forwarder: _Forwarder, options: HttpOptions, limits: HttpLimits) -> ASGIApp:
    """The HTTP port's application: RPCs behind the request guard, the page, and CORS for
    ``options.cors_origins``."""
    routes = endpoints(forwarder, HTTP_SERVICES)
    rpc = _ServicesApp(service=None, endpoints=lambda _: routes, read_max_bytes=limits.max_body_bytes,
                       codecs=[google_protobuf_binary_codec(), JsonCodec()])
    page = Starlette(routes=[Route("/facts.json", _facts),
                             Mount("/", app=_PageFiles(directory=web.DIRECTORY, html=True))])
    app: ASGIApp = RequestGuard(_Router(rpc, frozenset(HTTP_SERVICES), page), limits)
    if options.cors_origins:
        app = CORSMiddleware(app, allow_origins=list(options.cors_origins), allow_methods=["GET", "POST"],
                             allow_headers=list(CORS_REQUEST_HEADERS),
                             expose_headers=list(CORS_RESPONSE_HEADERS), max_age=7200)
    return app


class _Config(Config):
    """hypercorn's configuration with TLS from PEM contents rather than file names."""

    def __init__(self, tls: TlsFiles | None) -> None:
        super().__init__()
        self._tls = tls

    @property
    def ssl_enabled(self) -> bool:
        return self._tls is not None

    def create_ssl_context(self) -> ssl.SSLContext | None:
        if self._tls is None:
            return None
        with tempfile.TemporaryDirectory(prefix="meeplemind-tls-") as folder:
            cert, key = pathlib.Path(folder, "cert.pem"), pathlib.Path(folder, "key.pem")
            cert.write_bytes(self._tls.certificate_chain)
            key.touch(mode=0o600)
            key.write_bytes(self._tls.private_key)
            self.certfile, self.keyfile = str(cert), str(key)
            try:
                return super().create_ssl_context()
            finally:
                self.certfile = self.keyfile = None


def listen(host: str, port: int, reuse_port: bool) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0: any free port); OSError names the address."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(1024)
    except OSError as e:
        sock.close()
        raise OSError(e.errno, e.strerror, f"{host}:{port} (--http-port)") from None
    sock.setblocking(False)
    return sock


class HttpGateway:
    """The HTTP port of a server: ``attach()`` before the gRPC server starts, then
    ``start()``, ``port``, ``stop()``; ``limits`` (default: the request body of the gRPC
    port's transport limit, the other limits' defaults) bound its requests."""

    def __init__(self, server: Server, options: HttpOptions, *, tls: TlsFiles | None = None,
                 max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES, reuse_port: bool = False,
                 limits: HttpLimits | None = None) -> None:
        self._folder = tempfile.mkdtemp(prefix="meeplemind-http-")
        target = f"unix:{os.path.join(self._folder, 'grpc.sock')}"
        if server.grpc_server.add_insecure_port(target) == 0:
            raise OSError(f"cannot listen on {target}")
        self._forwarder = _Forwarder(target, max_message_bytes, server.metrics.progress_dropped)
        self.limits = limits or HttpLimits(max_message_bytes * TRANSPORT_LIMIT_FACTOR)
        self._app = asgi_app(self._forwarder, options, self.limits)
        self._socket = listen(options.host, options.port, reuse_port)
        self.port: int = self._socket.getsockname()[1]
        self._config = _Config(tls)
        self._config.accesslog = None
        self._config.errorlog = _HYPERCORN_LOG
        self._config.keep_alive_timeout = self.limits.idle_timeout_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, name="meeplemind-http", daemon=True)
        self._error: BaseException | None = None

    def start(self) -> None:
        """Serve in a thread of its own; returns once serving (or raises why not)."""
        self._thread.start()
        self._started.wait()
        if self._error is not None:
            raise self._error

    def stop(self) -> None:
        """Stop serving (open calls get STOP_TIMEOUT_S) and close the socket."""
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
            self._thread.join()
        self._socket.close()
        for name in os.listdir(self._folder):
            os.unlink(os.path.join(self._folder, name))
        os.rmdir(self._folder)

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = stop = asyncio.Event()
        self._config.graceful_timeout = STOP_TIMEOUT_S
        sockets = (Sockets([self._socket], [], []) if self._config.ssl_enabled
                   else Sockets([], [self._socket], []))

        async def stopping() -> None:
            self._started.set()
            await stop.wait()

        try:
            app = cast(ASGIFramework, self._app)  # starlette's and hypercorn's types of one ASGI callable
            await worker_serve(wrap_app(app, self._config.wsgi_max_body_size, "asgi"), self._config,
                               sockets=sockets, shutdown_trigger=stopping)
        except BaseException as e:  # reported to start()'s caller
            self._error = e
            self._started.set()
        finally:
            await self._forwarder.close()
