"""Play a whole game of bots through a running meeplemind (a bot in another program): one
BestMove per turn (``whole_turn``: every decision of the mover's turn, e.g. all of a Mayor's
placements), then ApplyMove for each of its moves, whose answer says when the game is over.

    python examples/bot_loop.py [HOST:PORT]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from meeplemind.client import Client, ClientError


@dataclass(frozen=True)
class Played:
    """A finished game: its BestMove calls (one per turn), the moves played, the winners."""

    turns: int
    moves: int
    winners: list[int]


def play(address: str, players: int = 3, level: int = 2, seed: int = 1) -> Played:
    """Every seat asks BestMove for its whole turn and plays its moves with apply."""
    with Client(address) as client:
        position = client.new_game("puerto-rico", players, seed=seed)
        turns = moves = 0
        while True:
            best = client.best_move(position, level=level, seed=seed + moves, whole_turn=True)
            turns += 1
            for decision in best.turn:
                applied = client.apply(position, decision.move, seed=seed + moves)
                position, moves = applied.position, moves + 1
                if applied.result is not None:
                    return Played(turns, moves, applied.result.winners)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", nargs="?", default="127.0.0.1:50051", help="HOST:PORT of the server")
    args = parser.parse_args()
    try:
        played = play(args.address)
    except ClientError as e:
        parser.exit(1, f"{parser.prog}: error: {args.address}: {e}\n")
    winners = " and ".join(f"Seat {seat + 1}" for seat in played.winners)
    print(f"game over after {played.moves} moves in {played.turns} turns (one BestMove each): {winners} won")
    return 0


if __name__ == "__main__":
    sys.exit(main())
