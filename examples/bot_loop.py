"""Play a whole game of bots through a running meeplemind (a bot in another program).

    python examples/bot_loop.py [HOST:PORT]
"""

from __future__ import annotations

import argparse
import sys

import grpc

from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, rules_pb2, rules_pb2_grpc


def play(address: str, players: int = 3, level: int = 2, seed: int = 1) -> int:
    """Every seat asks BestMove and plays it with ApplyMove; returns the moves played."""
    with grpc.insecure_channel(address) as channel:
        rules, analysis = rules_pb2_grpc.RulesStub(channel), analysis_pb2_grpc.AnalysisStub(channel)
        position = rules.NewGame(rules_pb2.NewGameRequest(game="puerto-rico", players=players,
                                                          seed=seed)).position
        moves = 0
        while rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position)).moves:
            best = analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, level=level,
                                                                  seed=seed + moves))
            position = rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=best.move,
                                                                  seed=seed + moves)).position
            moves += 1
        return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", nargs="?", default="127.0.0.1:50051", help="HOST:PORT of the server")
    args = parser.parse_args()
    try:
        moves = play(args.address)
    except grpc.RpcError as e:
        parser.exit(1, f"{parser.prog}: error: {args.address}: {e.code().name}: {e.details()}\n")
    print(f"game over after {moves} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
