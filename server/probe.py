"""``meeplemind health``: the grpc_health_probe of the container image and of Kubernetes
exec probes: asks ``grpc.health.v1.Health/Check`` and succeeds only on SERVING."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

#: Seconds a health check may take (connecting included).
DEFAULT_TIMEOUT_S = 3.0


class Unhealthy(ValueError):
    """The server is not serving, or did not answer: the message says which."""


def check_health(address: str, service: str = "", timeout_s: float = DEFAULT_TIMEOUT_S) -> str:
    """``SERVING`` from the server at ``address`` (``service``: "" is the whole server),
    or Unhealthy naming the address and what it answered."""
    with grpc.insecure_channel(address) as channel:
        try:
            stub = health_pb2_grpc.HealthStub(channel)
            response: health_pb2.HealthCheckResponse = stub.Check(  # type: ignore[attr-defined]  # the stubs omit it
                health_pb2.HealthCheckRequest(service=service), timeout=timeout_s, wait_for_ready=True)
        except grpc.RpcError as e:
            raise Unhealthy(f"{address}: {e.code().name}: {e.details()}") from None
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    if response.status != health_pb2.HealthCheckResponse.SERVING:
        raise Unhealthy(f"{address}: {status}")
    return status
