# The meeplemind service image: docker build -t meeplemind:0.1.0 .   (or: podman build ...)
#
# Stage 1 builds the release artifacts as CI does (`python -m build`: the sdist, then the
# abi3 wheel from the unpacked sdist; no sanitizer module, no C sources in the wheel).
# Stage 2 installs only the wheel, runs as an unprivileged user and checks its own health
# with `meeplemind health` (grpc.health.v1), the probe docs/operations.md's Kubernetes example
# uses too.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
ARG NODE_IMAGE=node:20-bookworm-slim

# Stage 0 builds the web page's bundle (web/meeplemind-rpc.js) from the TypeScript client:
# buf generates the message types from proto/, esbuild bundles them with the page's calls.
FROM ${NODE_IMAGE} AS web
WORKDIR /src/clients/typescript
COPY clients/typescript/package.json clients/typescript/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY proto /src/proto
COPY clients/typescript ./
RUN npm run build:web

FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
COPY --from=web /src/web/meeplemind-rpc.js web/
RUN python -m pip install --no-cache-dir build \
    && python -m build --outdir /dist .

FROM ${PYTHON_IMAGE} AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin meeplemind
COPY --from=build /dist/*.whl /tmp/wheels/
RUN python -m pip install --no-cache-dir /tmp/wheels/*.whl && rm -rf /tmp/wheels
USER 10001:10001
EXPOSE 50051 9464
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
    CMD ["meeplemind", "health", "127.0.0.1:50051"]
ENTRYPOINT ["meeplemind"]
CMD ["serve", "--host", "0.0.0.0", "--port", "50051", "--metrics-port", "9464", \
     "--metrics-address", "0.0.0.0", "--log-format", "json"]
