"""The toy game of toy_game.c for the search tests: its build, with the native
ISMCTS, into a private cffi module, a Python mirror of its state, and a direct
driver of the C search."""

from __future__ import annotations

import dataclasses
import importlib.util
import pathlib
import types
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from cffi import FFI

from meeplemind.search import NativeHandle

HERE = pathlib.Path(__file__).resolve().parent
NATIVE = HERE.parents[1] / "native"
FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror"]
ASAN_FLAGS = [
    "-O1",
    "-g",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=undefined",
]
DRAW = 8
CARDS = 10
VERSION = 1
GAMES = "".join(
    f"const mm_game *{name}(void);\n"
    for name in ("toy_game", "toy_endless_game", "toy_unsorted_game")
)


def build(tmpdir: pathlib.Path, name: str, sanitize: bool = False) -> pathlib.Path:
    """Compile toy_game.c, mm_ismcts.c and mm_eval.c into the cffi module ``name`` in ``tmpdir``."""
    ffi = FFI()
    ffi.cdef(
        "typedef struct mm_game mm_game;\n" + (NATIVE / "cdef" / "ismcts.h").read_text() + GAMES
    )
    ffi.set_source(
        name,
        '#include "mm_ismcts.h"\n' + GAMES,
        sources=[str(HERE / "toy_game.c"), str(NATIVE / "mm_ismcts.c"), str(NATIVE / "mm_eval.c")],
        include_dirs=[str(NATIVE)],
        extra_compile_args=FLAGS + (ASAN_FLAGS if sanitize else ["-O2"]),
        extra_link_args=["-fsanitize=address,undefined"] if sanitize else [],
    )
    return pathlib.Path(ffi.compile(tmpdir=str(tmpdir)))


def load(path: pathlib.Path) -> types.ModuleType:
    """Import a compiled cffi module from its file."""
    spec = importlib.util.spec_from_file_location(path.name.split(".")[0], path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def native_game(module: types.ModuleType, name: str = "toy_game") -> NativeHandle:
    """The toy engine (or a broken one: toy_endless_game, toy_unsorted_game) as a NativeHandle."""
    lib = module.lib
    return NativeHandle(module.ffi, lib, getattr(lib, name)())


@dataclass(frozen=True)
class ToyMove:
    action: int

    def __str__(self) -> str:
        return "draw" if self.action == DRAW else f"take:{self.action + 1}"


@dataclass(frozen=True)
class ToyState:
    """The toy game state (full information; the search hides what it must)."""

    game_id: ClassVar[str] = "toy"
    pile: int
    hand: tuple[int, ...]
    max_take: int = 3
    to_move: int = 0
    last_taker: int = -1
    drew: tuple[int, ...] = ()
    deck: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hand)

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def current_player(self) -> int | None:
        return None if self.to_move < 0 else self.to_move

    def encode(self) -> np.ndarray:
        pad = 3 - self.players
        drew = self.drew or (0,) * self.players
        return np.array(
            [
                VERSION,
                self.players,
                self.to_move,
                self.pile,
                self.max_take,
                self.last_taker,
                *self.hand,
                *[-1] * pad,
                *drew,
                *[0] * pad,
                len(self.deck),
                *self.deck,
                *[-1] * (CARDS - len(self.deck)),
            ],
            dtype=np.int32,
        )

    def legal_actions(self) -> list[int]:
        if self.to_move < 0:
            return []
        takes = list(range(min(self.max_take, self.pile)))
        can_draw = self.deck and not (self.drew and self.drew[self.to_move])
        return takes + [DRAW] if can_draw else takes

    def move_from_id(self, action: int) -> ToyMove:
        if not 0 <= action <= DRAW:
            raise ValueError(f"action {action} is outside the action space")
        return ToyMove(action)

    def play(self, move: ToyMove) -> ToyState:
        if move.action not in self.legal_actions():
            raise ValueError(f"{move} is not legal")
        p, following = self.to_move, (self.to_move + 1) % self.players
        if move.action == DRAW:
            drew = list(self.drew or (0,) * self.players)
            drew[p] = 1
            hand = list(self.hand)
            hand[p] = self.deck[-1]
            return dataclasses.replace(
                self, hand=tuple(hand), drew=tuple(drew), deck=self.deck[:-1], to_move=following
            )
        pile = self.pile - (move.action + 1)
        if pile == 0:
            return dataclasses.replace(self, pile=0, to_move=-1, last_taker=p)
        return dataclasses.replace(self, pile=pile, to_move=following)


def nim(pile: int, max_take: int = 3, players: int = 2) -> ToyState:
    """A position without draws left: plain Nim, the last taker wins."""
    hands = (3, 7, 5)[:players]
    return ToyState(pile=pile, hand=hands, max_take=max_take, drew=(1,) * players, deck=(0, 1, 2))


def opening(pile: int = 40, max_take: int = 8, players: int = 3) -> ToyState:
    """A position with draws available and a large tree."""
    return ToyState(
        pile=pile,
        hand=(9, 0, 4)[:players],
        max_take=max_take,
        deck=(1, 2, 3, 5, 6, 7, 8)[: CARDS - players],
    )


@dataclass
class Search:
    """The outputs of one direct mm_ismcts_search call."""

    rc: int
    summary: Any
    action: np.ndarray
    visits: np.ndarray
    avail: np.ndarray
    reward: np.ndarray
    score: np.ndarray
    pv: np.ndarray
    pv_len: np.ndarray
    pv_player: np.ndarray


def search(
    native: NativeHandle, state: ToyState | np.ndarray, stop: Any = None, **overrides: Any
) -> Search:
    """Call mm_ismcts_search directly; ``overrides`` set mm_ismcts_params fields."""
    ffi, lib = native.ffi, native.lib
    params = {
        "max_iterations": 1000,
        "max_ms": 0.0,
        "max_nodes": 1 << 20,
        "seed": 1,
        "exploration": 0.7,
        "margin_weight": 0.0,
        "margin_scale": 10.0,
        "rollout_policy": 1,
        "pv_max": 8,
        "viewer": -1,
    } | overrides
    rows, pv_max = native.rows, max(1, params["pv_max"])
    vec = state if isinstance(state, np.ndarray) else state.encode()
    out = {
        "action": np.zeros(rows, np.int32),
        "visits": np.zeros(rows, np.int64),
        "avail": np.zeros(rows, np.int64),
        "reward": np.zeros(rows, np.float64),
        "score": np.zeros((rows, lib.MM_ISMCTS_PLAYERS), np.int64),
        "pv": np.zeros((rows, pv_max), np.int32),
        "pv_len": np.zeros(rows, np.int32),
        "pv_player": np.zeros((rows, pv_max), np.int32),
    }
    stats = ffi.new("mm_ismcts_root_stats *")
    ctypes = {np.int32: "int32_t[]", np.int64: "int64_t[]", np.float64: "double[]"}
    buffers = [ffi.from_buffer(ctypes[a.dtype.type], a) for a in out.values()]
    for name, buffer in zip(out, buffers):
        setattr(stats, name, buffer)
    summary = ffi.new("mm_ismcts_summary *")
    rc = lib.mm_ismcts_search(
        native.game,
        ffi.from_buffer("int32_t[]", vec),
        len(vec),
        ffi.new("mm_ismcts_params *", params),
        ffi.NULL if stop is None else stop,
        stats,
        summary,
    )
    return Search(rc, summary, **out)
