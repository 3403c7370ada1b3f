"""The TypeScript client (clients/typescript) under Node against a real server: the test
starts the server (gRPC and HTTP ports) and runs ``npm test`` there (tsc on the code buf
generates from proto/, then node's test runner), which plays a whole game and calls every
method (test/client.test.ts)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ..http_server import serving_http

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"


def test_the_typescript_client_plays_against_a_real_server() -> None:
    npm = shutil.which("npm")
    assert npm, "npm is not installed (.ci/run installs it)"
    assert (CLIENT / "node_modules").is_dir(), "run `make install` first (npm ci in clients/typescript)"
    with serving_http(max_searches=2) as serving:
        env = os.environ | {"MEEPLEMIND_GRPC_URL": f"http://127.0.0.1:{serving.port}",
                            "MEEPLEMIND_HTTP_URL": f"http://127.0.0.1:{serving.gateway.port}"}
        done = subprocess.run([npm, "test"], cwd=CLIENT, env=env, capture_output=True, text=True, timeout=600)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    passed, failed = (int(re.search(rf"^# {word} (\d+)$", report, re.M).group(1))  # type: ignore[union-attr]
                      for word in ("pass", "fail"))
    tests = len(re.findall(r"^test\(", (CLIENT / "test" / "client.test.ts").read_text(encoding="utf-8"), re.M))
    assert (passed, failed) == (tests, 0), report
