"""Ask a running meeplemind for the best moves of a position file (a hint button).

    python examples/hint_client.py pos.json [HOST:PORT]
"""

from __future__ import annotations

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


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        for m in hints(sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1:50051", f.read()):
            print(f"{m.move:<22} visits {m.visits:6d}  win {m.win_rate:.3f}  then {' '.join(m.pv[1:4])}")
