"""Ask a running meeplemind for the best moves of a position file (a hint button).

    python examples/hint_client.py pos.json [HOST:PORT]
"""

from __future__ import annotations

import argparse
import sys

import grpc
from google.protobuf import json_format

from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, position_pb2


def hints(address: str, position_json: str, time_ms: int = 500) -> list[analysis_pb2.MoveAnalysis]:
    position = json_format.Parse(position_json, position_pb2.Position())
    with grpc.insecure_channel(address) as channel:
        reply = analysis_pb2_grpc.AnalysisStub(channel).Analyze(
            analysis_pb2.AnalyzeRequest(position=position, max_moves=3,
                                        budget=analysis_pb2.SearchBudget(time_ms=time_ms)),
            timeout=time_ms / 1000 + 5)
    return list(reply.moves)


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
    except json_format.ParseError as e:
        parser.exit(2, f"{parser.prog}: error: {args.position}: {e}\n")
    except grpc.RpcError as e:
        parser.exit(1, f"{parser.prog}: error: {args.address}: {e.code().name}: {e.details()}\n")
    for m in moves:
        print(f"{m.move:<22} visits {m.visits:6d}  win {m.win_rate:.3f}  then {' '.join(m.pv[1:4])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
