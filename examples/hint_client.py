"""Ask a running meeplemind for the best moves of a position file (a hint button).

    python examples/hint_client.py pos.json [HOST:PORT]
"""

from __future__ import annotations

import argparse
import json
import sys

from meeplemind.client import Client, ClientError, MoveAnalysis


def hints(address: str, position_json: str, time_ms: int = 500) -> list[MoveAnalysis]:
    """The three most visited moves of the position after ``time_ms`` of search."""
    with Client(address) as client:
        return client.analyze(json.loads(position_json), time_ms=time_ms, max_moves=3).moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("position", help="a position file (JSON), e.g. from `meeplemind new`")
    parser.add_argument("address", nargs="?", default="127.0.0.1:50051", help="HOST:PORT of the server")
    args = parser.parse_args()
    try:
        with open(args.position, encoding="utf-8") as f:
            moves = hints(args.address, f.read())
    except OSError as e:
        parser.exit(2, f"{parser.prog}: error: {args.position}: {e.strerror}\n")
    except ValueError as e:  # not JSON, or not a position
        parser.exit(2, f"{parser.prog}: error: {args.position}: {e}\n")
    except ClientError as e:
        parser.exit(1, f"{parser.prog}: error: {args.address}: {e}\n")
    for m in moves:
        print(f"{m.move:<22} visits {m.visits:6d}  win {m.win_rate:.3f}  then {' '.join(m.pv[1:4])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
