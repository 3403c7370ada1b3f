"""``meeplemind review``: a game record reviewed in this process or by a server, printed as
a table and a summary per player, as JSON, or drawn as win-rate curves."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from google.protobuf import json_format

from .client.types import MoveReview, Review
from .positions.messages import read_data
from .engine.seats import line_of_play, seat_name, seat_tag

if TYPE_CHECKING:
    from .engine.game_state import GameState
    from .v1.position_pb2 import Position

#: The keys of a game record file (``meeplemind selfplay --json`` writes more: its result).
RECORD_KEYS = ("start", "moves")


def read_record(path: str) -> dict[str, Any]:
    """The GameRecord JSON of a file: its ``start`` and ``moves``; errors name the key."""
    data = read_data(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object with {' and '.join(RECORD_KEYS)}")
    for key in RECORD_KEYS:
        if key not in data:
            raise ValueError(f"{path}: {key}: missing (a game record has a start position and its moves)")
    return {key: data[key] for key in RECORD_KEYS}


def run_review(args: argparse.Namespace) -> None:
    if args.workers < 1:
        raise ValueError(f"--workers {args.workers}: must be at least 1")
    if args.plot:
        from .review_plot import check_matplotlib

        check_matplotlib()  # before the review's searches, not after them
    record = read_record(args.file)
    if any(seat < 1 for seat in args.seat or ()):
        raise ValueError(f"--seat {min(args.seat)}: seats are numbered from 1")
    budget = {"iterations": args.iterations, "time_ms": args.time_ms, "threads": args.threads,
              "seats": [seat - 1 for seat in args.seat or ()], "seed": args.seed}
    shown: dict[int, MoveReview] = {}
    refining = False  # a move came again: the refinement has begun

    def on_move(move: MoveReview) -> None:
        nonlocal refining
        again = move.index in shown
        shown[move.index] = move
        if args.json:
            return
        if again and not refining:
            refining = True
            print("refining: moves given more rounds, while a player's accuracy is uncertain", flush=True)
        _print_move(move, sum(m.stake or 0.0 for m in shown.values()) / len(shown))

    if not args.json:
        _print_header()
    try:
        if args.server:
            from .remote import connect

            with connect(args) as client:
                review = client.review(record, on_move=on_move, **budget)
        else:
            review = _local_review(record, args.workers, on_move, budget)
    except KeyboardInterrupt:  # Ctrl-C: the moves reviewed so far are printed; no traceback
        sys.stderr.write(f"meeplemind review: interrupted after {len(shown)} reviewed moves\n")
        raise SystemExit(130) from None
    if args.json:
        print(json.dumps(review.to_json()))
    else:
        _print_summary(review)
    if args.plot:
        from .review_plot import plot_review

        plot_review(review, args.plot)


def _local_review(record: dict[str, Any], workers: int, on_move: Callable[[MoveReview], None],
                  budget: dict[str, Any]) -> Review:
    """The review of ``record`` in this process, read back as the service's messages would be."""
    from .search.params import Budget
    from .search.review import REVIEW_ITERATIONS, PlayedMove, review_game
    from .server.review import move_review_to_proto, summary_to_proto
    from .v1 import analysis_pb2

    try:
        message = json_format.ParseDict(record, analysis_pb2.GameRecord())
    except json_format.ParseError as e:
        raise ValueError(f"game record: {' '.join(str(e).split())}") from None  # one line
    start = _state(message.start, "start")
    moves = [PlayedMove(m.move, m.seed, _state(m.position, f"moves[{i}].position")
                        if m.WhichOneof("chance") == "position" else None)
             for i, m in enumerate(message.moves)]

    def show(review: Any) -> None:
        on_move(MoveReview.from_proto(move_review_to_proto(review)))

    iterations, time_ms = budget["iterations"], budget["time_ms"]
    if iterations is None and time_ms is None:
        iterations = REVIEW_ITERATIONS
    search_budget = Budget(iterations, time_ms, threads=budget["threads"])
    result = review_game(start, moves, search_budget, seats=budget["seats"], seed=budget["seed"],
                         workers=workers, on_move=show)
    reason = analysis_pb2.STOP_REASON_CANCELLED if result.skipped else analysis_pb2.STOP_REASON_UNSPECIFIED
    summary = summary_to_proto(result.players, len(result.moves), result.skipped, reason)
    return Review.from_proto("", [move_review_to_proto(m) for m in result.moves], summary)


def _state(position: Position, field: str) -> GameState:
    """The reference state of a record's position (``positions.read``); errors name ``field``."""
    from .engine import PositionError
    from .positions import read

    try:
        return read(position).state()
    except PositionError as e:
        raise ValueError(f"{field}.{e.path}: {e.problem}" if e.path else f"{field}: {e.problem}") from None


def _loss(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


#: Width of the move columns; a longer notation is cut with "…" so the columns stay aligned.
MOVE_WIDTH = 24


def _cell(text: str) -> str:
    return text if len(text) <= MOVE_WIDTH else text[:MOVE_WIDTH - 1] + "…"


def _print_header() -> None:
    print(f"{'#':>4} {'seat':>4}  {'played':<{MOVE_WIDTH}} {'best':<{MOVE_WIDTH}} {'margin loss':>11} {'stake':>6} "
          f"{'noise':>6} {'rounds':>6} {'win loss':>8} {'visits':>13}  then")


def _print_move(m: MoveReview, typical: float) -> None:
    """A row of the table, the move played with its mark (``MoveReview.mark``; ``typical`` the
    mean stake of the moves so far)."""
    mark = m.mark(typical)
    print(f"{m.index + 1:>4} {seat_tag(m.player):>4}  {_cell(m.played.move + (mark.symbol if mark else '')):<{MOVE_WIDTH}} "
          f"{_cell(m.best.move):<{MOVE_WIDTH}} "
          f"{_loss(m.margin_loss, 2):>11} {_loss(m.stake, 2):>6} {_loss(m.noise, 2):>6} {m.rounds:>6} "
          f"{_loss(m.win_rate_loss, 3):>8} "
          f"{m.played.visits:>6}/{m.best.visits:<6}  "
          f"{line_of_play(m.best.pv[1:5], m.best.pv_players[1:5], len(m.best.expected_scores))}", flush=True)


def _print_summary(review: Review) -> None:
    print(f"\n{len(review.moves)} moves reviewed"
          + (f", {review.moves_skipped} skipped ({review.stop_reason})" if review.moves_skipped else ""))
    print(f"{'seat':<8} {'moves':>5} {'accuracy':>8} {'±':>5} {'mean margin loss':>16} {'noise floor':>11} "
          f"{'mean win loss':>13}  biggest mistakes")
    for p in review.players:
        mistakes = ", ".join(f"#{m.index + 1} {m.played.move} (-{m.margin_loss or 0:.2f}; best {m.best.move})"
                             for m in p.mistakes)
        print(f"{seat_name(p.player):<8} {p.moves:>5} {p.accuracy:>7.1f}% {p.accuracy_se:>5.2f} "
              f"{p.mean_margin_loss:>16.2f} {p.noise_floor:>11.2f} {p.mean_win_rate_loss:>13.3f}  {mistakes or '-'}")


def add_review_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record: {\"start\": position, \"moves\": [{\"move\", \"seed\"}]} "
                                "(meeplemind selfplay --json writes one)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, help="search budget per reviewed move (in-process default: "
                                                       "the calibrated budget of docs/review.md)")
    budget.add_argument("--time-ms", type=int, help="search time per reviewed move")
    p.add_argument("--threads", type=int, default=1, help="threads per search")
    p.add_argument("--seat", type=int, action="append",
                   help="review the moves of Seat N, 1 to the players (repeatable; default all)")
    p.add_argument("--seed", type=int, help="searches' seed (move i: seed + i); one thread and "
                                            "--iterations make the review reproducible")
    p.add_argument("--workers", type=int, default=1, help="searches at once (in-process reviews)")
    p.add_argument("--json", action="store_true", help="the review as JSON (the proto's JSON mapping)")
    p.add_argument("--plot", metavar="FILE.svg", help="draw every player's win rate over the game, "
                                                     "mistakes marked (matplotlib; .svg, .png, .pdf)")

