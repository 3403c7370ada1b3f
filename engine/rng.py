"""The one pseudo-random stream shared with the C engines (native/mm_rng.h).

splitmix64, and ``below(n)`` by multiply-shift of the high 32 bits, so the Python
reference and the C twin draw identical numbers from identical seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_T = TypeVar("_T")


class Rng:
    """A seeded splitmix64 generator; its whole state is the 64-bit ``state``."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be at least 1."""
        return ((self.next64() >> 32) * n) >> 32

    def choice(self, items: Sequence[_T]) -> _T:
        return items[self.below(len(items))]

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"
