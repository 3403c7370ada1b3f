"""Positions: a ``meeplemind.v1.Position`` read, checked by the C decoder and written back."""
