"""Play a whole game of bots through a running meeplemind (a bot in another program).

    python examples/bot_loop.py [HOST:PORT]
"""

from __future__ import annotations

import sys

from meeplemind.client import Client


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


if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    print(f"game over after {play(sys.argv[1] if len(sys.argv) > 1 else '127.0.0.1:50051')} moves")
