"""The native engines (C, through cffi) and a thin flat-array wrapper.

``load()`` returns the ``(ffi, lib)`` pair of the optimised build
(``meeplemind.native._mm``) or of the sanitizer build (``_mm_asan``: variant
``"asan"`` or ``MEEPLEMIND_NATIVE=asan``).  ``NativeGame`` wraps one game's
vtable: states are ``bytearray`` buffers of the C struct (trusted: they come from
``decode`` and are changed only by ``apply``), state vectors and move lists are
numpy int32 arrays.  Every size comes from C; every C return code goes through
``_ensure``.  This package knows nothing of the Python engines.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from typing import Any

import numpy as np

VARIANTS = {"release": "meeplemind.native._mm", "asan": "meeplemind.native._mm_asan"}
_U64 = (1 << 64) - 1


@cache
def _load(variant: str) -> tuple[Any, Any]:
    try:
        module = importlib.import_module(VARIANTS[variant])
    except ModuleNotFoundError as e:
        if e.name != VARIANTS[variant]:
            raise
        raise ModuleNotFoundError(f"{e.name} is not built: the {variant} build is made for the tests only "
                                  "(MEEPLEMIND_BUILD_ASAN=1 pip install -e ., as `make install` does)",
                                  name=e.name) from None
    return module.ffi, module.lib


def load(variant: str | None = None) -> tuple[Any, Any]:
    """The cffi ``(ffi, lib)`` of a build variant (default: ``$MEEPLEMIND_NATIVE`` or release)."""
    variant = variant or os.environ.get("MEEPLEMIND_NATIVE") or "release"
    if variant not in VARIANTS:
        raise ValueError(f"variant: {variant!r} is not one of {', '.join(VARIANTS)}")
    return _load(variant)


def _ensure(ok: bool, raising: type[Exception], *args: Any) -> None:
    """The one check of C return codes: raise ``raising(*args)`` unless ``ok``."""
    if not ok:
        raise raising(*args)


class NativeDecodeError(ValueError):
    """The C decoder rejected a state vector: ``code`` is an MM_ERR_* value, ``index``
    the offending vector index (-1: the vector as a whole) and ``why`` the rule broken,
    in the decoder's words (``players[2].doubloons``'s ``-1 is below 0``)."""

    def __init__(self, code: int, index: int, why: str = "rejected") -> None:
        super().__init__(f"state vector index {index}: {why} (code {code})")
        self.code = code
        self.index = index
        self.why = why


class NativeGame:
    """One C engine, looked up by game id: flat arrays in, flat arrays out."""

    def __init__(self, game_id: str, variant: str | None = None) -> None:
        self.ffi, self.lib = load(variant)
        self.game_id = game_id
        self._game = self.lib.mm_find_game(game_id.encode())
        _ensure(self._game != self.ffi.NULL, ValueError, f"game_id: no native engine named {game_id!r}")
        info = self.ffi.new("int64_t[6]")
        self.lib.mm_game_info(self._game, info)
        (self.layout_version, self.vector_len, self.num_actions, self.max_legal,
         self.state_bytes, self.max_players) = (int(x) for x in info)

    # ------------------------------------------------------------- plumbing
    def _state(self, buf: Any, writable: bool = False) -> Any:
        """The C view of a state buffer, after checking its size (and writability)."""
        view = memoryview(buf)
        _ensure(view.nbytes == self.state_bytes and not (writable and view.readonly), ValueError,
                f"state: expected a {'writable ' if writable else ''}buffer of {self.state_bytes} "
                f"bytes (from decode), got {view.nbytes} bytes")
        return self.ffi.from_buffer(buf, require_writable=writable)

    def _int32(self, array: np.ndarray) -> Any:
        return self.ffi.from_buffer("int32_t[]", array)

    @staticmethod
    def _rng(rng_state: int) -> Any:
        return int(rng_state) & _U64

    def _policy(self, policy: int) -> int:
        policies = range(self.lib.MM_POLICIES)
        _ensure(policy in policies, ValueError, f"policy: {policy!r} is not one of {', '.join(map(str, policies))}")
        return int(policy)

    # ------------------------------------------------------------------ API
    def decode(self, vec: Any) -> bytearray:
        """A state buffer from a state vector the C decoder (the one validator of
        positions) accepts; raises NativeDecodeError(code, index, why) otherwise."""
        v = np.ascontiguousarray(vec, dtype=np.int32).ravel()
        buf = bytearray(self.state_bytes)
        verdict = self.ffi.new("mm_verdict *")
        rc = self.lib.mm_decode(self._game, self.ffi.from_buffer(buf), self._int32(v), len(v), verdict)
        _ensure(rc == self.lib.MM_OK, NativeDecodeError, rc, int(verdict.field),
                self.ffi.string(verdict.why).decode())
        return buf

    def encode(self, buf: Any) -> np.ndarray:
        """The state vector, in the layout the state was decoded from (an engine that
        reads several layouts reports the longest as ``vector_len``)."""
        state = self._state(buf)
        out = np.empty(self.lib.mm_encoded_len(self._game, state), dtype=np.int32)
        self.lib.mm_encode(self._game, state, self._int32(out))
        return out

    def num_players(self, buf: Any) -> int:
        return int(self.lib.mm_num_players(self._game, self._state(buf)))

    def current_player(self, buf: Any) -> int:
        """The player to move, or -1 when the game is over."""
        return int(self.lib.mm_current_player(self._game, self._state(buf)))

    def legal_moves(self, buf: Any) -> np.ndarray:
        out = np.empty(self.max_legal, dtype=np.int32)
        n = self.lib.mm_legal_moves(self._game, self._state(buf), self._int32(out))
        return out[:n].copy()

    def apply(self, buf: Any, action: int, rng_state: int) -> int:
        """Apply a legal action in place (chance from the rng); returns the new rng state."""
        rng = self.ffi.new("uint64_t *", self._rng(rng_state))
        rc = self.lib.mm_apply(self._game, self._state(buf, True), int(action), rng)
        _ensure(rc == 0, ValueError, f"action: {action} is not legal here")
        return int(rng[0])

    def determinize(self, buf: Any, viewer: int, rng_state: int) -> int:
        rng = self.ffi.new("uint64_t *", self._rng(rng_state))
        self.lib.mm_determinize(self._game, self._state(buf, True), int(viewer), rng)
        return int(rng[0])

    def observe(self, buf: Any, viewer: int) -> None:
        """Mask the state in place to what seat ``viewer`` sees (docs/positions.md)."""
        self.lib.mm_observe(self._game, self._state(buf, True), int(viewer))

    def scores(self, buf: Any) -> np.ndarray:
        """Final scores: one row per player, (score, tie-break)."""
        state = self._state(buf)
        out = np.empty((self.lib.mm_num_players(self._game, state), 2), dtype=np.int32)
        self.lib.mm_scores(self._game, state, self._int32(out))
        return out

    def evaluate(self, buf: Any) -> tuple[np.ndarray, np.ndarray] | None:
        """The evaluation of a game in progress (mm_eval.h): each player's expected final
        score and win probability, or None if the game has no evaluation."""
        state = self._state(buf)
        players = self.lib.mm_num_players(self._game, state)
        score, win = np.empty(players), np.empty(players)
        found = self.lib.mm_evaluate(self._game, state, self.ffi.from_buffer("double[]", score),
                                     self.ffi.from_buffer("double[]", win))
        return (score, win) if found else None

    def eval_inputs(self, buf: Any) -> tuple[np.ndarray, float] | None:
        """The evaluation network's inputs (one row per player) and the rounds left of a
        state, or None if the game has no evaluation."""
        state = self._state(buf)
        players = self.lib.mm_num_players(self._game, state)
        out = np.empty(players * 2 * self.lib.MM_EVAL_FEATURES_MAX, dtype=np.float32)
        rounds = self.ffi.new("double *")
        width = self.lib.mm_eval_inputs(self._game, state, self.ffi.from_buffer("float[]", out), rounds)
        return (out[:players * width].reshape(players, width), float(rounds[0])) if width else None

    def eval_samples(self, buf: Any, games: int, seed: int, every: int, cap: int,
                     policy: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Evaluation training data from ``games`` self-play games from the state (C's
        mm_eval_samples): the network inputs, shape (samples, max_players, inputs), and
        per sample the rounds left, then per seat the score now, the final score and the
        final win share (``MM_EVAL_INFO`` columns)."""
        _ensure(games >= 0 and every >= 1 and cap >= 0, ValueError,
                f"games, every, cap: {games}, {every}, {cap} (need games >= 0, every >= 1, cap >= 0)")
        found = self.eval_inputs(buf)
        _ensure(found is not None, ValueError, f"game_id: {self.game_id} has no evaluation")
        width = found[0].shape[1] if found else 0
        inputs = np.zeros((cap, self.max_players, width), dtype=np.float32)
        info = np.zeros((cap, self.lib.MM_EVAL_INFO))
        n = int(self.lib.mm_eval_samples(self._game, self._state(buf), int(games), self._rng(seed),
                                         self._policy(policy), int(every), int(cap),
                                         self.ffi.from_buffer("float[]", inputs), self.ffi.from_buffer("double[]", info)))
        _ensure(n >= 0, RuntimeError, f"mm_eval_samples failed (code {n})")
        return inputs[:n], info[:n]

    def move_priors(self, buf: Any) -> np.ndarray | None:
        """The prior probability of each legal move, in ``legal_moves`` order, or None if the
        game has no move priors or is over."""
        state = self._state(buf)
        out = np.empty(self.max_legal, dtype=np.float64)
        if not self.lib.mm_move_priors(self._game, state, self.ffi.from_buffer("double[]", out)):
            return None
        return out[: len(self.legal_moves(buf))]

    def rollout_move(self, buf: Any, rng_state: int, policy: int = 0) -> tuple[int, int]:
        """``(action, new rng state)`` chosen by a playout policy (0 random, 1 heuristic)."""
        rng = self.ffi.new("uint64_t *", self._rng(rng_state))
        action = int(self.lib.mm_rollout_move(self._game, self._state(buf), rng, self._policy(policy)))
        _ensure(0 <= action < self.num_actions, ValueError, "state: the game is over, no move to play")
        return action, int(rng[0])

    def playouts(self, buf: Any, games: int, seed: int, policy: int = 0) -> int:
        """Play ``games`` playouts from the state; returns the decisions made."""
        _ensure(games >= 0, ValueError, f"games: {games} is negative")
        decisions = int(self.lib.mm_playouts(self._game, self._state(buf), int(games), self._rng(seed),
                                             self._policy(policy)))
        _ensure(decisions >= 0, RuntimeError, "a playout exceeded the engine's move cap")
        return decisions


def reference_work(units: int, seed: int, variant: str | None = None) -> int:
    """Run ``units`` units of the bench's reference workload (mm_reference.h: a fixed C
    routine shaped like a playout, built with the engines' flags); returns its checksum."""
    _ensure(units >= 0, ValueError, f"units: {units} is negative")
    _, lib = load(variant)
    return int(lib.mm_reference_work(int(units), int(seed) & _U64))


__all__ = ["NativeDecodeError", "NativeGame", "VARIANTS", "load", "reference_work"]
