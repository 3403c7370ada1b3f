"""The results of ``meeplemind.client`` calls: typed, frozen dataclasses read from the
service's messages (``from_proto``); every field is documented in ``proto/meeplemind/v1/``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format

from ..v1 import analysis_pb2, result_pb2, rules_pb2


@dataclass(frozen=True, slots=True)
class GameOption:
    name: str
    values: list[str]
    default_value: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    title: str
    player_counts: list[int]
    options: list[GameOption]

    @classmethod
    def from_proto(cls, m: rules_pb2.GameInfo) -> GameInfo:
        return cls(m.id, m.title, list(m.player_counts),
                   [GameOption(o.name, list(o.values), o.default_value) for o in m.options])


@dataclass(frozen=True, slots=True)
class LegalMove:
    notation: str
    action: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """Whether the game is over, the seat to move if not; once it is over, by seat: scores,
    tie-breaks, the winners (seats) and places (1 the best), where the service sends them
    (``meeplemind.v1.GameResult``), else empty."""

    over: bool
    current_player: int | None
    scores: list[int]
    tiebreaks: list[int]
    winners: list[int]
    ranks: list[int]

    @classmethod
    def from_proto(cls, m: result_pb2.GameResult) -> GameResult:
        """A finished game's result."""
        return cls(True, None, list(m.scores), list(m.tiebreaks), list(m.winners), list(m.ranks))

    def to_proto(self) -> result_pb2.GameResult | None:
        """The GameResult of a finished game; None while it goes on."""
        return result_pb2.GameResult(scores=self.scores, tiebreaks=self.tiebreaks, winners=self.winners,
                                     ranks=self.ranks) if self.over else None


def _result(m: Any) -> GameResult | None:
    """A response's ``result`` (a finished game's), or None."""
    return GameResult.from_proto(m.result) if m.HasField("result") else None


@dataclass(frozen=True, slots=True)
class Applied:
    """The position after a move (``apply``) and, when the move ended the game, its result."""

    position: Any  # a Position message, or its JSON dict
    result: GameResult | None

    @property
    def over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One root move; ``pv`` starts with the move itself, ``pv_players[i]`` the seat
    (0-based) that plays ``pv[i]``."""

    move: str
    action: int
    visits: int
    win_rate: float
    expected_scores: list[float]
    pv: list[str]
    pv_players: list[int] = field(default_factory=list)

    @classmethod
    def from_proto(cls, m: analysis_pb2.MoveAnalysis) -> MoveAnalysis:
        return cls(m.move, m.action, m.visits, m.win_rate, list(m.expected_scores), list(m.pv), list(m.pv_players))

    def to_proto(self) -> analysis_pb2.MoveAnalysis:
        return analysis_pb2.MoveAnalysis(move=self.move, action=self.action, visits=self.visits,
                                         win_rate=self.win_rate, expected_scores=self.expected_scores,
                                         pv=self.pv, pv_players=self.pv_players)


@dataclass(frozen=True, slots=True)
class SearchStats:
    """The search as a whole; ``stop_reason`` is the enum's name in lower case without its
    prefix ("iterations", "time", "deadline", ...), "" for a progress report."""

    iterations: int
    elapsed_ms: float
    nodes: int
    stop_reason: str
    root_value: float
    player: int | None
    cpu_ms: float = 0.0

    @classmethod
    def from_proto(cls, m: analysis_pb2.SearchStats) -> SearchStats:
        return cls(m.iterations, m.elapsed_ms, m.nodes, stop_reason_name(m.stop_reason), m.root_value,
                   m.player if m.HasField("player") else None, m.cpu_ms)

    def to_proto(self) -> analysis_pb2.SearchStats:
        return analysis_pb2.SearchStats(iterations=self.iterations, elapsed_ms=self.elapsed_ms, nodes=self.nodes,
                                        stop_reason=stop_reason_value(self.stop_reason),
                                        root_value=self.root_value, player=self.player, cpu_ms=self.cpu_ms)


def stop_reason_name(value: analysis_pb2.StopReason.ValueType) -> str:
    """"iterations" for STOP_REASON_ITERATIONS, ... and "" for STOP_REASON_UNSPECIFIED."""
    name = analysis_pb2.StopReason.Name(value).removeprefix("STOP_REASON_").lower()
    return "" if name == "unspecified" else name


def stop_reason_value(name: str) -> analysis_pb2.StopReason.ValueType:
    """The StopReason of a ``stop_reason_name``."""
    return analysis_pb2.StopReason.Value(f"STOP_REASON_{(name or 'unspecified').upper()}")


@dataclass(frozen=True, slots=True)
class Analysis:
    """An analysis (``Analyze``), or one message of a streamed one (``final`` on the last)."""

    request_id: str
    moves: list[MoveAnalysis]
    stats: SearchStats
    final: bool = True
    result: GameResult | None = None  # a finished game's (stop reason "terminal", no moves)

    @classmethod
    def from_proto(cls, m: Any) -> Analysis:
        final = m.final if isinstance(m, analysis_pb2.AnalyzeStreamResponse) else True
        return cls(m.request_id, [MoveAnalysis.from_proto(x) for x in m.moves],
                   SearchStats.from_proto(m.stats), final, _result(m))

    def to_proto(self) -> analysis_pb2.AnalyzeResponse:
        """The AnalyzeResponse of this analysis (a progress report's ``final`` is dropped)."""
        return analysis_pb2.AnalyzeResponse(request_id=self.request_id, moves=[m.to_proto() for m in self.moves],
                                            stats=self.stats.to_proto(),
                                            result=self.result.to_proto() if self.result else None)


@dataclass(frozen=True, slots=True)
class TurnMove:
    """One decision of a whole turn (``best_move(whole_turn=True)``)."""

    move: str
    line: MoveAnalysis
    stats: SearchStats

    @classmethod
    def from_proto(cls, m: analysis_pb2.TurnMove) -> TurnMove:
        return cls(m.move, MoveAnalysis.from_proto(m.line), SearchStats.from_proto(m.stats))


@dataclass(frozen=True, slots=True)
class BestMove:
    """The move to play; with ``whole_turn``, ``turn`` holds every decision of the mover's
    turn to apply in order (the first is ``move``), else it is empty."""

    request_id: str
    move: str  # "" for a finished game
    line: MoveAnalysis
    stats: SearchStats
    result: GameResult | None = None  # a finished game's
    turn: list[TurnMove] = field(default_factory=list)

    @classmethod
    def from_proto(cls, m: analysis_pb2.BestMoveResponse) -> BestMove:
        return cls(m.request_id, m.move, MoveAnalysis.from_proto(m.line), SearchStats.from_proto(m.stats),
                   _result(m), [TurnMove.from_proto(t) for t in m.turn])


@dataclass(frozen=True, slots=True)
class Mark:
    """A reviewed move's mark: ``symbol`` (``name``) when the margin it lost beyond the
    measure's noise is at least ``share`` of its stake (``MoveReview.mark``)."""

    share: float
    symbol: str
    name: str


#: The marks, biggest share first, in shares of a move's stake (a uniform pick among the
#: candidates' expected loss): shares serve every game (docs/review.md, the marks of bots of
#: known strength). The command line's table and the page's log mark with these.
MARKS = (Mark(2.0, "??", "blunder"), Mark(1.0, "?", "mistake"), Mark(0.5, "?!", "inaccuracy"))
#: A move is marked only when it lost at least this many times the review's mean stake: a
#: move with little at stake is not marked for a trifle.
MARK_FLOOR = 0.5


@dataclass(frozen=True, slots=True)
class MoveReview:
    """A move played against the engine's best; losses are None when the played move
    has no visits."""

    index: int
    player: int
    played: MoveAnalysis
    best: MoveAnalysis
    win_rate_loss: float | None
    score_loss: float | None
    stats: SearchStats
    margin_loss: float | None = None
    noise: float | None = None
    stake: float | None = None
    rounds: int = 0

    @classmethod
    def from_proto(cls, m: analysis_pb2.MoveReview) -> MoveReview:
        def optional(name: str) -> float | None:
            return float(getattr(m, name)) if m.HasField(name) else None  # type: ignore[arg-type]

        return cls(m.index, m.player, MoveAnalysis.from_proto(m.played), MoveAnalysis.from_proto(m.best),
                   optional("win_rate_loss"), optional("score_loss"), SearchStats.from_proto(m.stats),
                   optional("margin_loss"), optional("noise"), optional("stake"), m.rounds)

    def to_proto(self) -> analysis_pb2.MoveReview:
        return analysis_pb2.MoveReview(index=self.index, player=self.player, played=self.played.to_proto(),
                                       best=self.best.to_proto(), win_rate_loss=self.win_rate_loss,
                                       score_loss=self.score_loss, stats=self.stats.to_proto(),
                                       margin_loss=self.margin_loss, noise=self.noise, stake=self.stake,
                                       rounds=self.rounds)

    def mark(self, typical: float) -> Mark | None:
        """The first of ``MARKS`` whose share of the stake this move lost beyond the noise,
        when that is at least ``MARK_FLOOR`` times ``typical`` (the review's mean stake);
        None for a move not marked, or not evaluated."""
        if self.margin_loss is None or not self.stake or self.stake <= 0.0:
            return None
        lost = self.margin_loss - (self.noise or 0.0)
        if lost < MARK_FLOOR * typical:
            return None
        return next((m for m in MARKS if lost >= m.share * self.stake), None)


@dataclass(frozen=True, slots=True)
class PlayerReview:
    player: int
    moves: int
    evaluated: int
    mean_win_rate_loss: float
    mean_score_loss: float
    accuracy: float
    mistakes: list[MoveReview]
    mean_margin_loss: float = 0.0
    noise_floor: float = 0.0
    accuracy_se: float = 0.0

    @classmethod
    def from_proto(cls, m: analysis_pb2.PlayerReview) -> PlayerReview:
        return cls(m.player, m.moves, m.evaluated, m.mean_win_rate_loss, m.mean_score_loss, m.accuracy,
                   [MoveReview.from_proto(x) for x in m.mistakes], m.mean_margin_loss, m.noise_floor,
                   m.accuracy_se)

    def to_proto(self) -> analysis_pb2.PlayerReview:
        return analysis_pb2.PlayerReview(
            player=self.player, moves=self.moves, evaluated=self.evaluated,
            mean_win_rate_loss=self.mean_win_rate_loss, mean_score_loss=self.mean_score_loss,
            accuracy=self.accuracy, mistakes=[m.to_proto() for m in self.mistakes],
            mean_margin_loss=self.mean_margin_loss, noise_floor=self.noise_floor, accuracy_se=self.accuracy_se)


@dataclass(frozen=True, slots=True)
class Review:
    """A whole review: the moves in game order and the summary (``stop_reason`` "" when
    every move of the reviewed seats was reviewed)."""

    request_id: str
    moves: list[MoveReview]
    players: list[PlayerReview]
    moves_skipped: int
    stop_reason: str

    @classmethod
    def from_proto(cls, request_id: str, moves: list[analysis_pb2.MoveReview],
                   summary: analysis_pb2.ReviewSummary) -> Review:
        return cls(request_id, [MoveReview.from_proto(m) for m in moves],
                   [PlayerReview.from_proto(p) for p in summary.players], summary.moves_skipped,
                   stop_reason_name(summary.stop_reason))

    def summary_to_proto(self) -> analysis_pb2.ReviewSummary:
        return analysis_pb2.ReviewSummary(players=[p.to_proto() for p in self.players],
                                          moves_reviewed=len(self.moves), moves_skipped=self.moves_skipped,
                                          stop_reason=stop_reason_value(self.stop_reason))

    def to_json(self) -> dict[str, Any]:
        """The review as its stream's messages in their proto3 JSON mapping (proto field
        names): ``{"request_id", "moves": [MoveReview...], "summary": ReviewSummary}``."""
        def as_json(message: Any) -> dict[str, Any]:
            return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                             always_print_fields_with_no_presence=True)

        return {"request_id": self.request_id, "moves": [as_json(m.to_proto()) for m in self.moves],
                "summary": as_json(self.summary_to_proto())}
