"""``Analysis/ReviewGame``: a game record replayed and its moves searched in parallel, up to
the server's search slots, each search under the same budget, deadline and capacity
rules as ``Analyze``, all of them within the server's limit on a review's search time
(``Limits.max_review_ms``). Whatever cuts a review short (its deadline, that limit, no slot
freeing in time, cancellation), the summary names why and counts the moves skipped, and
it goes out before the deadline: the searches end the deadline margin before it."""

from __future__ import annotations

import threading
from dataclasses import replace
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

import grpc

from ..engine.game_state import GameState
from ..positions.check import Vector, as_vector
from ..search.ismcts import Analysis, SearchStop
from ..search.review import (MoveReview, PlayedMove, PlayerReview, RecordError, Turn, check_seats,
                             replay, review_moves, review_turns, search_seed, summarize, turn_seed)
from ..v1 import analysis_pb2
from ..search.deadlines import MIN_SEARCH_MS
from ..search.params import Budget
from . import budgets
from .capacity import QueueTimeout
from .convert import move_to_proto, read_position, stats_to_proto
from .errors import ServiceError
from .limits import Limits

#: Runs one search as Analyze does: (state, its vector, budget, seed, stop event,
#: root_action) -> (the analysis, whether the deadline cut its time budget).
Search = Callable[[GameState, Vector, Budget, int, SearchStop, "int | None"], tuple[Analysis, bool]]

#: Why searches were left out, by the status that left them out (a QueueTimeout: the deadline).
_SKIPPED_BY = {grpc.StatusCode.DEADLINE_EXCEEDED: analysis_pb2.STOP_REASON_DEADLINE,
               grpc.StatusCode.UNAVAILABLE: analysis_pb2.STOP_REASON_CANCELLED,
               grpc.StatusCode.CANCELLED: analysis_pb2.STOP_REASON_CANCELLED}


class _WorkLeft:
    """A review's search time left: each search reserves its time budget (at most what is
    left) and gives back what it did not use, so the searches together stay within it."""

    def __init__(self, ms: float) -> None:
        self._left = ms
        self._reserved = 0  # searches holding a reservation
        self._cond = threading.Condition()

    def take(self, want_ms: float) -> float | None:
        """Milliseconds reserved for a search wanting ``want_ms``, once enough are free (other
        searches give back what they did not use); None when too few are left for good."""
        with self._cond:
            while self._left < MIN_SEARCH_MS:
                if not self._reserved:
                    return None
                self._cond.wait()
            got = min(want_ms, self._left)
            self._left -= got
            self._reserved += 1
            return got

    def give_back(self, ms: float) -> None:
        """What a search did not use of its reservation (less than 0 if it overran)."""
        with self._cond:
            self._left += ms
            self._reserved -= 1
            self._cond.notify_all()


def review_game(request: analysis_pb2.ReviewGameRequest, context: grpc.ServicerContext,
                limits: Limits, slots: int, search: Search) -> Iterator[analysis_pb2.ReviewGameResponse]:
    """Stream a MoveReview per reviewed move in game order, then the refined moves again
    (``review_moves``), then the ReviewSummary."""
    budget = budgets.read_budget(request.budget, limits)
    assert budget.time_ms is not None  # every budget within the limits has a time budget
    work = _WorkLeft(limits.max_review_ms)
    start = read_position(request.game.start, "game.start").state()
    try:
        seats = check_seats(list(request.seats), start.num_players)
        turns = review_turns(replay(start, _played_moves(request.game.moves)), seats)
    except RecordError as e:
        raise ServiceError.invalid(e.field, e.problem) from None
    base = search_seed(request.seed if request.HasField("seed") else None)
    stop = SearchStop()
    if not context.add_callback(stop.set):
        stop.set()
    skipped_by: list[analysis_pb2.StopReason.ValueType] = []  # why searches were skipped: the first reason is the review's
    cut: set[int] = set()  # indices of the moves whose (first) search the deadline cut
    at_deadline = threading.Event()  # a search the deadline cut has ended

    def turn_search(turn: Turn, root_action: int | None, stream: int) -> Analysis | None:
        if stop.is_set() or skipped_by:
            return None
        if at_deadline.is_set():  # a search ended at the deadline's margin: what is left is the summary's
            skipped_by.append(analysis_pb2.STOP_REASON_DEADLINE)
            return None
        reserved = work.take(budget.time_ms or 0.0)
        if reserved is None:
            skipped_by.append(analysis_pb2.STOP_REASON_TIME)
            return None
        used = 0.0
        try:
            # the rules' own state: the search's decode judges it (no check of its own)
            analysis, deadline_cut = search(turn.state, as_vector(turn.state.encode()), replace(budget, time_ms=reserved),
                                            turn_seed(base, turn.index, stream), stop, root_action)
            used = analysis.elapsed_ms
        except QueueTimeout:
            skipped_by.append(analysis_pb2.STOP_REASON_DEADLINE)
            return None
        except ServiceError as e:
            if e.code not in _SKIPPED_BY:
                raise
            skipped_by.append(_SKIPPED_BY[e.code])
            return None
        finally:
            work.give_back(reserved - used)
        if deadline_cut:
            at_deadline.set()
            if root_action is None:
                cut.add(turn.index)
        return analysis

    latest: dict[int, MoveReview] = {}
    try:
        for review in review_moves(turns, turn_search, slots):
            latest[review.index] = review
            yield analysis_pb2.ReviewGameResponse(request_id=request.request_id,
                                                  move=move_review_to_proto(review, cut))
    finally:
        stop.set()
    reviews = sorted(latest.values(), key=lambda r: r.index)
    skipped = len(turns) - len(reviews)
    reason = analysis_pb2.STOP_REASON_UNSPECIFIED
    if skipped:
        reason = skipped_by[0] if skipped_by else analysis_pb2.STOP_REASON_CANCELLED
    yield analysis_pb2.ReviewGameResponse(request_id=request.request_id, summary=summary_to_proto(
        summarize(reviews, sorted(seats)), len(reviews), skipped, reason, cut))


def _played_moves(moves: Any) -> list[PlayedMove]:
    """The record's moves, each given position read and checked; errors name the field."""
    played = []
    for i, move in enumerate(moves):
        after = None
        if move.WhichOneof("chance") == "position":
            after = read_position(move.position, f"game.moves[{i}].position").state()
        played.append(PlayedMove(move.move, move.seed, after))
    return played


def move_review_to_proto(review: MoveReview, cut: Collection[int] = ()) -> analysis_pb2.MoveReview:
    """The MoveReview message of ``review``; ``cut`` holds the indices of the moves whose
    search the deadline cut."""
    message = analysis_pb2.MoveReview(
        index=review.index, player=review.player, played=move_to_proto(review.played),
        best=move_to_proto(review.best),
        stats=stats_to_proto(review.analysis, final=True, deadline_cut=review.index in cut))
    if review.win_rate_loss is not None and review.score_loss is not None:
        message.win_rate_loss, message.score_loss = review.win_rate_loss, review.score_loss
    if review.margin_loss is not None and review.noise is not None and review.stake is not None:
        message.margin_loss, message.noise, message.stake = review.margin_loss, review.noise, review.stake
    message.rounds = review.rounds
    return message


def summary_to_proto(players: Sequence[PlayerReview], reviewed: int, skipped: int,
                     stop_reason: analysis_pb2.StopReason.ValueType,
                     cut: Collection[int] = ()) -> analysis_pb2.ReviewSummary:
    """The ReviewSummary message; ``stop_reason`` says why moves were skipped (a StopReason)."""
    return analysis_pb2.ReviewSummary(
        players=[analysis_pb2.PlayerReview(
            player=p.player, moves=p.moves, evaluated=p.evaluated, mean_win_rate_loss=p.mean_win_rate_loss,
            mean_score_loss=p.mean_score_loss, mean_margin_loss=p.mean_margin_loss,
            noise_floor=p.noise_floor, accuracy=p.accuracy, accuracy_se=p.accuracy_se,
            mistakes=[move_review_to_proto(m, cut) for m in p.mistakes]) for p in players],
        moves_reviewed=reviewed, moves_skipped=skipped, stop_reason=stop_reason)
