"""Game review (KataGo's ``analyzeTurns``): replay a game record, search the position
before each move of the reviewed seats, and measure what each move played lost
against the engine's best; then sum it up per player.

Chance is replayed, never searched: a move's draws and dice come from ``Rng(seed)``
with the seed the record gives it, or the record gives the position after the move.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..engine import IllegalMoveError, InvalidMoveError, Rng
from .ismcts import Analysis, MoveInfo, analyze, review_tuning

#: The biggest mistakes a player's summary lists.
MISTAKES = 3
_SEED_MASK = (1 << 64) - 1


class RecordError(ValueError):
    """A game record that does not replay; ``field`` names the part at fault."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field, self.problem = field, problem


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move of a record: its notation, and its chance as a seed or as the state after it."""

    move: str
    seed: int = 0
    after: Any = None  # the state right after the move, when the record gives it


@dataclass(frozen=True, slots=True)
class Turn:
    """The state before move ``index`` of a record and that move (canonical notation)."""

    index: int
    state: Any
    move: Any

    @property
    def player(self) -> int:
        return int(self.state.current_player)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move played against the engine's best (the most visited move); ``analysis`` is
    the search that found the best. ``played`` has visits 0 and no other statistics when
    its own search could not run; then both losses are None."""

    index: int
    player: int
    played: MoveInfo
    best: MoveInfo
    win_rate_loss: float | None
    score_loss: float | None
    analysis: Analysis


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One seat's reviewed moves summed up (see ``summarize``)."""

    player: int
    moves: int
    evaluated: int
    mean_win_rate_loss: float
    mean_score_loss: float
    accuracy: float
    mistakes: list[MoveReview]


@dataclass(frozen=True, slots=True)
class Review:
    """A whole review: the moves in game order, the summary per reviewed seat, and how
    many moves of reviewed seats were left out (a search that ran no iteration)."""

    moves: list[MoveReview]
    players: list[PlayerReview]
    skipped: int


def replay(start: Any, moves: Sequence[PlayedMove], field: str = "game.moves") -> list[Turn]:
    """The turns of a record: each move checked legal where it was played, its chance
    replayed from its seed (or its given state after); errors name ``field[i]``."""
    turns, state = [], start
    for index, played in enumerate(moves):
        where = f"{field}[{index}]"
        if state.is_terminal:
            raise RecordError(f"{where}.move", "the game is over: no move follows")
        rng = Rng(played.seed)
        try:
            move = state.Move.parse(played.move)
            after = state.apply(move, rng)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise RecordError(f"{where}.move", str(e)) from None
        if played.after is not None:
            drew = rng.state != Rng(played.seed).state  # the move drew from the generator
            _check_after(state, move, after if not drew else None, played.after, f"{where}.position")
            after = played.after
        turns.append(Turn(index, state, move))
        state = after
    return turns


def _check_after(before: Any, move: Any, outcome: Any, given: Any, field: str) -> None:
    """A given position after ``move`` must be of the same game and, when the move draws
    no chance (``outcome`` is then the one position the rules give), that position."""
    if given.game_id != before.game_id:
        raise RecordError(f"{field}.game", f"{given.game_id!r}, not the record's {before.game_id!r}")
    if given.num_players != before.num_players:
        raise RecordError(field, f"{given.num_players} players, not the record's {before.num_players}")
    if outcome is not None and given.to_dict() != outcome.to_dict():
        raise RecordError(field, f"not the position after {move}, which draws no chance")


def check_seats(seats: Sequence[int], players: int, field: str = "seats") -> frozenset[int]:
    """The seats to review (none given: all); errors name ``field[i]``."""
    for i, seat in enumerate(seats):
        if not 0 <= seat < players:
            raise RecordError(f"{field}[{i}]", f"{seat} is not a seat of this {players}-player game")
        if seat in seats[:i]:
            raise RecordError(f"{field}[{i}]", f"seat {seat} is given twice")
    return frozenset(seats) if seats else frozenset(range(players))


def search_seed(seed: int | None) -> int:
    """The review's base seed: ``seed``, or a random one; turn ``i`` searches with
    ``turn_seed(base, i)``."""
    return secrets.randbits(64) if seed is None else seed & _SEED_MASK


def turn_seed(base: int, index: int) -> int:
    return (base + index) & _SEED_MASK


#: Searches a turn's state for its mover: all moves (``root_action`` None) or only the move
#: ``root_action``; None when it could not run (the review is being cut short).
TurnSearch = Callable[[Turn, "int | None"], "Analysis | None"]


def review_turn(turn: Turn, search: TurnSearch) -> MoveReview | None:
    """The review of ``turn``'s move: a search of its state gives the best move (the most
    visited); the move played, when another, gets a search of its own with the same budget
    (its win rate and expected score from the whole budget, not from the few visits a bad
    move gets beside a good one). None when the first search did not run or ran no iteration."""
    analysis = search(turn, None)
    if analysis is None or not analysis.moves:
        return None
    best, player = analysis.moves[0], turn.player
    if best.action == turn.move.id:
        return MoveReview(turn.index, player, best, best, 0.0, 0.0, analysis)
    own = search(turn, turn.move.id)
    if own is None or not own.moves:
        untried = MoveInfo(move=str(turn.move), action=turn.move.id, visits=0, win_rate=0.0,
                           expected_scores=[], pv=[])
        return MoveReview(turn.index, player, untried, best, None, None, analysis)
    played = own.moves[0]
    return MoveReview(turn.index, player, played, best, max(0.0, best.win_rate - played.win_rate),
                      max(0.0, best.expected_scores[player] - played.expected_scores[player]), analysis)


def accuracy(win_rate_loss: float) -> float:
    """Move accuracy in percent from a win-rate loss in [0, 1] (lichess's formula, its
    win percentages as fractions)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * win_rate_loss) - 3.1669))


def _mistake_order(review: MoveReview) -> tuple[float, float, int]:
    return (-(review.win_rate_loss or 0.0), -(review.score_loss or 0.0), review.index)


def summarize(reviews: Sequence[MoveReview], seats: Sequence[int]) -> list[PlayerReview]:
    """Per seat (ascending): moves reviewed, mean losses and accuracy over the moves whose
    losses are known, and the ``MISTAKES`` biggest losses, biggest first."""
    summary = []
    for seat in sorted(seats):
        mine = [r for r in reviews if r.player == seat]
        known = [r for r in mine if r.win_rate_loss is not None]
        count = len(known)
        losses = [r.win_rate_loss or 0.0 for r in known]
        mistakes = sorted((r for r in known if (r.win_rate_loss or 0.0) > 0 or (r.score_loss or 0.0) > 0),
                          key=_mistake_order)[:MISTAKES]
        summary.append(PlayerReview(
            player=seat, moves=len(mine), evaluated=count,
            mean_win_rate_loss=sum(losses) / count if count else 0.0,
            mean_score_loss=sum(r.score_loss or 0.0 for r in known) / count if count else 0.0,
            accuracy=sum(map(accuracy, losses)) / count if count else 100.0,
            mistakes=mistakes))
    return summary


def review_turns(turns: Sequence[Turn], seats: frozenset[int]) -> list[Turn]:
    """The turns whose mover is reviewed."""
    return [t for t in turns if t.player in seats]


def in_order(items: Sequence[Any], work: Callable[[Any], Any], workers: int) -> Iterator[tuple[Any, Any]]:
    """``(item, work(item))`` in the order of ``items``, at most ``workers`` running at once
    (on the calling thread when ``workers`` is 1); leaving early cancels the rest."""
    if workers <= 1:
        for item in items:
            yield item, work(item)
        return
    pool = ThreadPoolExecutor(workers, thread_name_prefix="review")
    try:
        futures = [(item, pool.submit(work, item)) for item in items]
        for item, future in futures:
            yield item, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def review_game(start: Any, moves: Sequence[PlayedMove], *, seats: Sequence[int] = (),
                iterations: int | None = None, time_ms: float | None = None, threads: int = 1,
                seed: int | None = None, workers: int = 1,
                on_move: Callable[[MoveReview], None] | None = None) -> Review:
    """Review a game in this process: ``workers`` searches at once, each with the budget
    of ``analyze``; ``on_move`` sees every move review as it comes, in game order."""
    chosen = check_seats(seats, start.num_players)
    base = search_seed(seed)
    targets = review_turns(replay(start, moves), chosen)

    def search(turn: Turn, root_action: int | None) -> Analysis:
        return analyze(turn.state, iterations=iterations, time_ms=time_ms, threads=threads,
                       seed=turn_seed(base, turn.index), root_action=root_action,
                       tuning=review_tuning(turn.state.game_id))

    reviews = []
    for _, review in in_order(targets, lambda turn: review_turn(turn, search), workers):
        if review is not None:
            reviews.append(review)
            if on_move is not None:
                on_move(review)
    return Review(reviews, summarize(reviews, sorted(chosen)), len(targets) - len(reviews))
