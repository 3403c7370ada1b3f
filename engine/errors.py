"""Errors shared by every game engine: all are ValueError subclasses."""

from __future__ import annotations


class PositionError(ValueError):
    """A position (dict, JSON or state vector) is malformed or inconsistent.

    ``path`` names the field (``players[2].doubloons``); the message starts with it.
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.path = path
        self.problem = problem


class InvalidMoveError(ValueError):
    """A move's notation cannot be parsed."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""
