"""Ask a running meeplemind for the best moves of a position file (a hint button).

    python examples/hint_client.py pos.json [HOST:PORT]
"""

from __future__ import annotations

import json
import sys

from meeplemind.client import Client, MoveAnalysis


def hints(address: str, position_json: str, time_ms: int = 500) -> list[MoveAnalysis]:
    """The three most visited moves of the position after ``time_ms`` of search."""
    with Client(address) as client:
        return client.analyze(json.loads(position_json), time_ms=time_ms, max_moves=3).moves


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        for m in hints(sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1:50051", f.read()):
            print(f"{m.move:<22} visits {m.visits:6d}  win {m.win_rate:.3f}  then {' '.join(m.pv[1:4])}")
