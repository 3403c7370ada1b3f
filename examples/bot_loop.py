"""Play a whole game of bots through a running meeplemind (a bot in another program).

    python examples/bot_loop.py [HOST:PORT]
"""

from __future__ import annotations

import argparse
import sys

from meeplemind.client import Client, ClientError


def play(address: str, players: int = 3, level: int = 2, seed: int = 1) -> int:
    """Every seat asks best_move and plays it with apply; returns the moves played."""
    with Client(address) as client:
        position = client.new_game("puerto-rico", players, seed=seed)
        moves = 0
        while not client.result(position).over:
            best = client.best_move(position, level=level, seed=seed + moves)
            position = client.apply(position, best.move, seed=seed + moves)
            moves += 1
        return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", nargs="?", default="127.0.0.1:50051", help="HOST:PORT of the server")
    args = parser.parse_args()
    try:
        moves = play(args.address)
    except ClientError as e:
        parser.exit(1, f"{parser.prog}: error: {args.address}: {e}\n")
    print(f"game over after {moves} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
