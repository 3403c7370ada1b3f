"""The Analysis service: ISMCTS searches within budgets, deadlines and capacity."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import grpc
import numpy as np

from ..engine import Rng
from ..engine.game_state import GameState
from ..positions import CheckedPosition, from_state
from ..search.deadlines import MIN_SEARCH_MS, TIME_BUDGET_FLOOR_MS, DeadlineMargin
from ..search.ismcts import Analysis, SearchStop, analyze
from ..search.params import Budget, SearchParams, game_params, review_params
from ..search.review import turn_seed
from ..v1 import analysis_pb2, analysis_pb2_grpc, position_pb2
from . import budgets
from .capacity import Caller, SearchGate
from .convert import add_moves, move_to_proto, read_position, result_to_proto, stats_to_proto, write_move
from .errors import ServiceError
from .limits import Limits
from .metrics import Metrics
from .review import review_game

#: The most decisions a BestMove with whole_turn answers (a turn that goes on gets another call).
MAX_TURN_MOVES = 64


@dataclass(frozen=True, slots=True)
class _Job:
    """A checked search request."""

    state: CheckedPosition | GameState  # what is searched (a review's turns are reference states)
    vector: np.ndarray  # the state's, checked by the native decoder
    budget: Budget  # within the server's limits (``budgets``: read so at the edge)
    params: SearchParams  # the game's (ReviewGame's: review_params), the seed, viewer and root move set
    max_moves: int | None
    received: float = field(default_factory=time.monotonic)  # the time budget counts from here


@dataclass(frozen=True, slots=True)
class _Result:
    """A finished search, whether the call's deadline cut its time budget, and when
    (``time.monotonic()``) it was planned to end."""

    analysis: Analysis
    deadline_cut: bool
    planned_end: float | None = None


class _Latest:
    """A stream's search results on their way to the streaming thread, latest wins: a
    reader slower than the reports gets the newest progress, never a backlog (held
    memory stays one report), and the final item (a _Result or an error) is never dropped."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._progress: Analysis | None = None
        self._final: _Result | BaseException | None = None

    def report(self, analysis: Analysis) -> None:
        with self._cond:
            self._progress = analysis
            self._cond.notify()

    def finish(self, final: _Result | BaseException) -> None:
        with self._cond:
            self._final = final
            self._cond.notify()

    def take(self) -> Analysis | _Result | BaseException:
        """The final item once there is one (older progress is dropped), else the newest
        progress, waiting for either."""
        with self._cond:
            self._cond.wait_for(lambda: self._final is not None or self._progress is not None)
            if self._final is not None:
                return self._final
            progress, self._progress = self._progress, None
            assert progress is not None  # what the wait ended on
            return progress


class AnalysisServicer(analysis_pb2_grpc.AnalysisServicer):
    """Checks a request, waits for a search slot, searches, converts the result."""

    def __init__(self, limits: Limits, gate: SearchGate, metrics: Metrics) -> None:
        self._limits, self._gate, self._metrics = limits, gate, metrics
        self._margin = DeadlineMargin(limits.deadline_margin_floor_ms, limits.deadline_margin_ceiling_ms)

    def Analyze(self, request: analysis_pb2.AnalyzeRequest,
                context: grpc.ServicerContext) -> analysis_pb2.AnalyzeResponse:
        job = self._job(request.position, budgets.read_budget(request.budget, self._limits),
                        request, budgets.max_moves(request.max_moves))
        result = self._search(job, context, SearchStop())
        response = analysis_pb2.AnalyzeResponse(
            request_id=request.request_id,
            stats=stats_to_proto(result.analysis, final=True, deadline_cut=result.deadline_cut),
            result=result_to_proto(job.state))
        add_moves(response.moves, result.analysis.moves)
        self._answered(result)
        return response

    def AnalyzeStream(self, request: analysis_pb2.AnalyzeStreamRequest,
                      context: grpc.ServicerContext) -> Iterator[analysis_pb2.AnalyzeStreamResponse]:
        job = self._job(request.position, budgets.read_budget(request.budget, self._limits),
                        request, budgets.max_moves(request.max_moves))
        every_ms = budgets.report_every_ms(request.report_every_ms, self._limits)
        updates = _Latest()
        stop = SearchStop()

        def message(analysis: Analysis, final: bool,
                    deadline_cut: bool = False) -> analysis_pb2.AnalyzeStreamResponse:
            response = analysis_pb2.AnalyzeStreamResponse(
                request_id=request.request_id, final=final,
                stats=stats_to_proto(analysis, final=final, deadline_cut=deadline_cut),
                result=result_to_proto(job.state))
            add_moves(response.moves, analysis.moves)
            return response

        def work() -> None:
            try:
                updates.finish(self._search(job, context, stop, updates.report, every_ms))
            except BaseException as e:  # handed to the streaming thread, which raises it
                updates.finish(e)

        worker = threading.Thread(target=work, name="analyze-stream", daemon=True)
        worker.start()
        try:
            while True:
                item = updates.take()
                if isinstance(item, BaseException):
                    raise item
                if isinstance(item, _Result):
                    response = message(item.analysis, True, item.deadline_cut)
                    self._answered(item)
                    yield response
                    return
                yield message(item, False)
        finally:
            stop.set()
            worker.join()

    def BestMove(self, request: analysis_pb2.BestMoveRequest,
                 context: grpc.ServicerContext) -> analysis_pb2.BestMoveResponse:
        strength = request.WhichOneof("strength")
        budget = (budgets.read_level(request.level, self._limits) if strength == "level" else
                  budgets.read_budget(request.budget, self._limits) if strength == "budget" else
                  budgets.default_budget(self._limits))
        job = self._job(request.position, budget, request, 1)
        result = self._search(job, context, SearchStop())
        stats = stats_to_proto(result.analysis, final=True, deadline_cut=result.deadline_cut)
        if job.state.is_terminal:  # no move: the stop reason TERMINAL and the result say why
            return analysis_pb2.BestMoveResponse(request_id=request.request_id, stats=stats,
                                                 result=result_to_proto(job.state))
        if not result.analysis.moves:
            if result.analysis.stopped_by == "cancelled":  # the call's end, or shutdown
                raise ServiceError(grpc.StatusCode.CANCELLED, "cancelled before a search iteration finished")
            raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED,
                               "no search iteration finished before the deadline")
        self._answered(result)
        best = result.analysis.moves[0]
        response = analysis_pb2.BestMoveResponse(request_id=request.request_id, move=best.move, stats=stats)
        write_move(response.line, best)
        if request.whole_turn:
            response.turn.add(move=best.move, line=response.line, stats=stats)
            response.turn.extend(self._rest_of_turn(job, best.move, context))
        return response

    def _rest_of_turn(self, job: _Job, move: str, context: grpc.ServicerContext) -> Iterator[analysis_pb2.TurnMove]:
        """The mover's decisions after ``move`` (played from ``job``'s position), each
        searched like the first, up to ``MAX_TURN_MOVES`` in all: until another seat is to
        move, the game ends, a move draws chance (the caller's to draw) or a search finds
        no move (the deadline)."""
        assert isinstance(job.state, CheckedPosition)  # Analyze's and BestMove's jobs are read positions
        mover, state = job.state.current_player, job.state.state()
        for index in range(1, MAX_TURN_MOVES):
            chance = Rng(0)
            state = state.apply(move, chance)
            if chance.state != 0 or state.current_player != mover:
                return
            checked = from_state(state)
            seed = None if job.params.seed is None else turn_seed(job.params.seed, index)
            result = self._search(replace(job, state=checked, vector=checked.vector, params=replace(job.params, seed=seed),
                                          received=time.monotonic()), context, SearchStop())
            if not result.analysis.moves:
                return
            self._answered(result)
            turn_move = _turn_move(result)
            yield turn_move
            move = turn_move.move

    def ReviewGame(self, request: analysis_pb2.ReviewGameRequest,
                   context: grpc.ServicerContext) -> Iterator[analysis_pb2.ReviewGameResponse]:
        caller = Caller()  # the review's searches share the slots as one call

        def search(state: GameState, vector: np.ndarray, budget: Budget, seed: int, stop: SearchStop,
                   root_action: int | None) -> tuple[Analysis, bool]:
            params = replace(review_params(state.game_id, state.num_players), seed=seed, root_action=root_action)
            job = _Job(state, vector, budget, params, None)
            result = self._search(job, context, stop, caller=caller,
                                  margin_floor_ms=self._limits.review_margin_floor_ms)
            return result.analysis, result.deadline_cut

        return review_game(request, context, self._limits, self._gate.max_running, search)

    # ------------------------------------------------------------------ search
    def _job(self, position: position_pb2.Position, budget: Budget | Callable[[str], Budget], request: Any,
             max_moves: int | None) -> _Job:
        """The search of ``position`` with ``budget`` (a level's: a function of the game's id)."""
        received = time.monotonic()
        state, vector = _read_position(position)
        if callable(budget):
            budget = budget(state.game_id)
        seed = request.seed if request.HasField("seed") else None
        params = replace(game_params(state.game_id, state.num_players), seed=seed, viewer=position.viewer)
        return _Job(state, vector, budget, params, max_moves, received=received)

    def _search(self, job: _Job, context: grpc.ServicerContext, stop: SearchStop,
                on_progress: Callable[[Analysis], None] | None = None,
                report_every_ms: int | None = None, caller: Caller | None = None,
                margin_floor_ms: float | None = None) -> _Result:
        """Run ``job`` in a search slot (shared as one of ``caller``'s), its budget (within the
        server's limits already) with its time cut to the deadline, else counted from the request's receipt;
        either ends the search the margin (at least ``margin_floor_ms``, if given) before,
        the room measured for building and sending the reply. The call's end
        (cancellation, deadline) or ``stop`` ends it early with what it found."""
        if not context.add_callback(stop.set):
            stop.set()
        margin = self._margin.ms(context.time_remaining(), margin_floor_ms)
        wait_s = self._time_left(context, margin + MIN_SEARCH_MS)
        with self._gate.slot(stop, wait_s, caller):
            budget, cut = budgets.within_deadline(job.budget, context.time_remaining(), margin)
            if not cut and budget.time_ms:  # counted from the request's receipt; its end has no network to cross
                spent_ms = (time.monotonic() - job.received) * 1e3
                budget = replace(budget, time_ms=self._margin.loop_ms(budget.time_ms, spent_ms, TIME_BUDGET_FLOOR_MS))
            planned_end = time.monotonic() + budget.time_ms / 1e3 if budget.time_ms else None
            if cut and planned_end is not None:
                # how late the call ended after the planned end: the reply's whole way out
                # (building it, the interceptors, sending it), which the next margins keep free
                end = planned_end
                context.add_callback(lambda: self._margin.observe((time.monotonic() - end) * 1e3))
            counted = 0

            def progress(analysis: Analysis) -> None:
                nonlocal counted
                self._metrics.iterations.inc(analysis.iterations - counted)
                counted = analysis.iterations
                if on_progress is not None:
                    on_progress(analysis)

            try:
                analysis = analyze(job.state, budget, job.params, max_moves=job.max_moves, stop_event=stop,
                                   on_progress=progress,
                                   report_every_ms=report_every_ms or self._limits.metrics_report_every_ms,
                                   vector=job.vector, time_margin=None)  # its time counted here, by the margin
            except MemoryError as e:
                raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e)) from None
            except ValueError as e:
                raise ServiceError.invalid("position", str(e)) from None
        self._metrics.iterations.inc(analysis.iterations - counted)
        reason = "deadline" if cut and analysis.stopped_by == "time" else analysis.stopped_by
        self._metrics.search_ended(reason)
        return _Result(analysis, cut, planned_end)

    def _answered(self, result: _Result) -> None:
        """Tell the margin how late the answer of a search that its time ended is ready."""
        if result.planned_end is not None and result.analysis.stopped_by == "time":
            self._margin.observe((time.monotonic() - result.planned_end) * 1e3)

    @staticmethod
    def _time_left(context: grpc.ServicerContext, kept_ms: float) -> float | None:
        """Seconds to the deadline less ``kept_ms`` (None: no deadline)."""
        remaining = context.time_remaining()
        return None if remaining is None else max(remaining - kept_ms / 1e3, 0.0)


def _turn_move(result: _Result) -> analysis_pb2.TurnMove:
    """The most visited move of a finished search with moves, as a turn's decision."""
    best = result.analysis.moves[0]
    return analysis_pb2.TurnMove(move=best.move, line=move_to_proto(best),
                                 stats=stats_to_proto(result.analysis, final=True, deadline_cut=result.deadline_cut))


def _read_position(position: position_pb2.Position) -> tuple[CheckedPosition, np.ndarray]:
    """The checked position of a search request (``positions.read``: one C decode) masked
    to the viewer's observation before anything reads it, and its state vector; a refusal
    names the field in the decoder's words."""
    seen = read_position(position).seen()
    return seen, seen.vector
