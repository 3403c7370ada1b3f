"""The native ISMCTS under AddressSanitizer and UBSan, driven with the toy game."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from . import ismcts_toy

pytestmark = pytest.mark.sanitizer


def asan_runtime() -> str:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is needed to locate the ASan runtime")
    path = subprocess.run(
        [gcc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.path.isabs(path):
        pytest.skip("the ASan runtime is not installed")
    return path


def test_repeated_searches_are_clean(tmp_path: pathlib.Path) -> None:
    runtime = asan_runtime()
    module = ismcts_toy.build(tmp_path, "_toy_ismcts_asan", sanitize=True)
    env = os.environ | {
        "LD_PRELOAD": runtime,
        "ASAN_OPTIONS": "detect_leaks=0",
        "UBSAN_OPTIONS": "print_stacktrace=1",
    }
    run = subprocess.run(
        [sys.executable, "-m", "tests.search.ismcts_asan_driver", str(module)],
        cwd=ismcts_toy.HERE.parents[1],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert "ERROR: AddressSanitizer" not in run.stderr
    assert "runtime error" not in run.stderr
    assert run.returncode == 0, run.stderr[-4000:]
