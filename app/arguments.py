"""Argument types shared by the command line's parsers: their errors say what is wrong."""

from __future__ import annotations

import argparse


def integer(text: str) -> int:
    """An ``int`` option: ``'x' is not an int`` otherwise (argparse names the option)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None


def number(text: str) -> float:
    """A ``float`` option: ``'x' is not a number`` otherwise."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
