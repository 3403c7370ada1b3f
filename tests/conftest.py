"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import pytest

from meeplemind.engine import Rng


@pytest.fixture
def rng() -> Rng:
    return Rng(12345)
