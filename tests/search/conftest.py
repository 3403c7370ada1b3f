"""Fixtures: the toy game built with the native ISMCTS into a private cffi module."""

from __future__ import annotations

import types

import pytest

from meeplemind.search import NativeHandle

from . import ismcts_toy


@pytest.fixture(scope="session")
def toy_module(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    return ismcts_toy.load(ismcts_toy.build(tmp_path_factory.mktemp("toy"), "_toy_ismcts"))


@pytest.fixture(scope="session")
def toy(toy_module: types.ModuleType) -> NativeHandle:
    return ismcts_toy.native_game(toy_module)


@pytest.fixture(scope="session")
def endless(toy_module: types.ModuleType) -> NativeHandle:
    return ismcts_toy.native_game(toy_module, "toy_endless_game")


@pytest.fixture(scope="session")
def unsorted(toy_module: types.ModuleType) -> NativeHandle:
    return ismcts_toy.native_game(toy_module, "toy_unsorted_game")
