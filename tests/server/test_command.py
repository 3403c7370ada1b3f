"""``meeplemind serve``'s options: the token from a file, a TLS key that is not the
certificate's, the caps on every search."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

import pytest

from meeplemind.server import command, options

from .processes import Serve


def _options(*argv: str) -> dict:
    parser = argparse.ArgumentParser()
    options.add_serve_arguments(parser)
    return command._server_options(parser.parse_args(list(argv)))


def _key_pair(directory: Path, name: str) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_auth_token_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEEPLEMIND_AUTH_TOKEN", raising=False)
    token = tmp_path / "token"
    token.write_text("s3cret-token\n")
    assert _options("--auth-token-file", str(token))["auth_token"] == "s3cret-token"
    assert _options()["auth_token"] is None
    for text, problem in [("", "the file is empty"), ("two words\n", "a token is one line of printable ASCII"),
                          ("a\nb\n", "a token is one line of printable ASCII")]:
        token.write_text(text)
        with pytest.raises(ValueError, match=f"--auth-token-file {token}: {problem}"):
            _options("--auth-token-file", str(token))
    with pytest.raises(ValueError, match="No such file"):
        _options("--auth-token-file", str(tmp_path / "missing"))


def test_auth_token_and_its_file_exclude_each_other(tmp_path: Path) -> None:
    serve = Serve("--auth-token", "a", "--auth-token-file", str(tmp_path / "token"))
    assert serve.process.wait(timeout=60) == 2
    assert "not allowed with argument --auth-token" in serve.rest()


def test_a_tls_key_of_another_certificate_is_named(tmp_path: Path) -> None:
    cert, key = _key_pair(tmp_path, "one")
    other_cert, other_key = _key_pair(tmp_path, "two")
    assert _options("--tls-cert", str(cert), "--tls-key", str(key))["tls"].private_key == key.read_bytes()
    with pytest.raises(ValueError, match=f"--tls-key {other_key}: not the private key of the certificate "
                                         f"in --tls-cert {cert}"):
        _options("--tls-cert", str(cert), "--tls-key", str(other_key))
    with pytest.raises(ValueError, match="not a PEM certificate chain and its private key"):
        _options("--tls-cert", str(key), "--tls-key", str(key))
    serve = Serve("--port", "0", "--tls-cert", str(cert), "--tls-key", str(other_key))
    assert serve.process.wait(timeout=60) == 2
    last = serve.rest().splitlines()[-1]
    assert "not the private key of the certificate" in last and "address in use" not in last


def test_the_caps_reach_the_limits() -> None:
    limits = _options("--max-time-ms", "1000", "--max-iterations", "5000", "--max-review-ms", "9000")["limits"]
    assert (limits.max_time_ms, limits.max_iterations, limits.max_review_ms) == (1000, 5000, 9000)
