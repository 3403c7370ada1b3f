"""The Analysis service: ISMCTS searches within budgets, deadlines and capacity."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import numpy as np

from ..engine import PositionError
from ..search.ismcts import Analysis, analyze, read_vector
from ..v1 import analysis_pb2, analysis_pb2_grpc, position_pb2
from . import budgets
from .capacity import SearchGate
from .convert import find_game, move_to_proto, position_error, state_vector, stats_to_proto
from .errors import ServiceError
from .budgets import Plan
from .limits import Limits
from .metrics import Metrics


@dataclass(frozen=True, slots=True)
class _Job:
    """A checked search request."""

    state: Any
    vector: np.ndarray  # the state's, checked by the native decoder
    plan: Plan
    seed: int | None
    max_moves: int | None


@dataclass(frozen=True, slots=True)
class _Result:
    """A finished search, and whether the call's deadline cut its time budget."""

    analysis: Analysis
    deadline_cut: bool


class AnalysisServicer(analysis_pb2_grpc.AnalysisServicer):
    """Checks a request, waits for a search slot, searches, converts the result."""

    def __init__(self, limits: Limits, gate: SearchGate, metrics: Metrics) -> None:
        self._limits, self._gate, self._metrics = limits, gate, metrics

    def Analyze(self, request: analysis_pb2.AnalyzeRequest,
                context: grpc.ServicerContext) -> analysis_pb2.AnalyzeResponse:
        job = self._job(request.position, budgets.plan_budget(request.budget, self._limits),
                        request, budgets.max_moves(request.max_moves))
        result = self._search(job, context, threading.Event())
        return analysis_pb2.AnalyzeResponse(
            request_id=request.request_id, moves=map(move_to_proto, result.analysis.moves),
            stats=stats_to_proto(result.analysis, final=True, deadline_cut=result.deadline_cut))

    def AnalyzeStream(self, request: analysis_pb2.AnalyzeStreamRequest,
                      context: grpc.ServicerContext) -> Iterator[analysis_pb2.AnalyzeStreamResponse]:
        job = self._job(request.position, budgets.plan_budget(request.budget, self._limits),
                        request, budgets.max_moves(request.max_moves))
        every_ms = budgets.report_every_ms(request.report_every_ms, self._limits)
        updates: queue.SimpleQueue[analysis_pb2.AnalyzeStreamResponse | BaseException] = queue.SimpleQueue()
        stop = threading.Event()

        def message(analysis: Analysis, final: bool,
                    deadline_cut: bool = False) -> analysis_pb2.AnalyzeStreamResponse:
            return analysis_pb2.AnalyzeStreamResponse(
                request_id=request.request_id, final=final, moves=map(move_to_proto, analysis.moves),
                stats=stats_to_proto(analysis, final=final, deadline_cut=deadline_cut))

        def work() -> None:
            try:
                result = self._search(job, context, stop, lambda a: updates.put(message(a, False)), every_ms)
                updates.put(message(result.analysis, True, result.deadline_cut))
            except BaseException as e:  # handed to the streaming thread, which raises it
                updates.put(e)

        worker = threading.Thread(target=work, name="analyze-stream", daemon=True)
        worker.start()
        try:
            while True:
                item = updates.get()
                if isinstance(item, BaseException):
                    raise item
                yield item
                if item.final:
                    return
        finally:
            stop.set()
            worker.join()

    def BestMove(self, request: analysis_pb2.BestMoveRequest,
                 context: grpc.ServicerContext) -> analysis_pb2.BestMoveResponse:
        strength = request.WhichOneof("strength")
        plan = (budgets.plan_level(request.level) if strength == "level" else
                budgets.plan_budget(request.budget, self._limits) if strength == "budget" else
                budgets.default_plan(self._limits))
        job = self._job(request.position, plan, request, 1)
        if job.state.is_terminal:
            raise ServiceError.invalid("position", "the game is over: there is no move to play")
        result = self._search(job, context, threading.Event())
        if not result.analysis.moves:
            if result.analysis.stopped_by == "cancelled":  # the call's end, or shutdown
                raise ServiceError(grpc.StatusCode.CANCELLED, "cancelled before a search iteration finished")
            raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED,
                               "no search iteration finished before the deadline")
        best = result.analysis.moves[0]
        return analysis_pb2.BestMoveResponse(
            request_id=request.request_id, move=best.move, line=move_to_proto(best),
            stats=stats_to_proto(result.analysis, final=True, deadline_cut=result.deadline_cut))

    # ------------------------------------------------------------------ search
    def _job(self, position: position_pb2.Position, plan: Plan, request: Any,
             max_moves: int | None) -> _Job:
        state, vector = _read_position(position)
        seed = request.seed if request.HasField("seed") else None
        return _Job(state, vector, plan, seed, max_moves)

    def _search(self, job: _Job, context: grpc.ServicerContext, stop: threading.Event,
                on_progress: Callable[[Analysis], None] | None = None,
                report_every_ms: int | None = None) -> _Result:
        """Run ``job`` in a search slot, its time cut to the deadline; the call's end
        (cancellation, deadline) or ``stop`` ends it early with what it found."""
        if not context.add_callback(stop.set):
            stop.set()
        margin = self._limits.deadline_margin_ms
        wait_s = self._time_left(context, margin)
        with self._gate.slot(stop, wait_s):
            plan, cut = job.plan.within_deadline(context.time_remaining(), margin)
            counted = 0

            def progress(analysis: Analysis) -> None:
                nonlocal counted
                self._metrics.iterations.inc(analysis.iterations - counted)
                counted = analysis.iterations
                if on_progress is not None:
                    on_progress(analysis)

            try:
                analysis = analyze(job.state, iterations=plan.iterations, time_ms=plan.time_ms,
                                   threads=plan.threads, seed=job.seed, max_moves=job.max_moves,
                                   stop_event=stop, on_progress=progress,
                                   report_every_ms=report_every_ms or self._limits.metrics_report_every_ms,
                                   vector=job.vector)
            except MemoryError as e:
                raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e)) from None
            except ValueError as e:
                raise ServiceError.invalid("position", str(e)) from None
        self._metrics.iterations.inc(analysis.iterations - counted)
        reason = "deadline" if cut and analysis.stopped_by == "time" else analysis.stopped_by
        self._metrics.search_ended(reason)
        return _Result(analysis, cut)

    @staticmethod
    def _time_left(context: grpc.ServicerContext, margin_ms: float) -> float | None:
        remaining = context.time_remaining()
        return None if remaining is None else max(remaining - margin_ms / 1e3, 0.0)


def _read_position(position: position_pb2.Position) -> tuple[Any, np.ndarray]:
    """The checked stand-in of a search request's position (``CheckedVector``) and its state
    vector: read by the game's schema, checked by the native decoder, whose rejections
    name the field."""
    find_game(position.game, "position.game")
    vector = state_vector(position)
    try:
        checked = read_vector(position.game, vector)
    except PositionError as e:
        raise position_error(e, game_id=position.game) from None
    if not 0 <= position.viewer < checked.num_players:
        raise ServiceError.invalid("position.viewer", f"{position.viewer} is not a seat of this "
                                                      f"{checked.num_players}-player game")
    return checked, checked.vector
