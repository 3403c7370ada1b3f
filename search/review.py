"""Game review (KataGo's ``analyzeTurns``): replay a game record, search the position
before each move of the reviewed seats, and measure what each move played lost
against the engine's best; then sum it up per player.

A move's loss is in the game's own terms: the expected final score margin of the mover
over his best opponent that it gives away against the engine's best (the win rate's loss
is reported too, but in a 3- to 5-player game a trailing player's win rate is small and
flat).  One search names the candidates, every move it tried (up to ``CANDIDATES``) and the
move played; each is then searched alone at the root with the same budget, in rounds of
searches on one seed (common random numbers, and no winner's curse: the first search's
statistics are not reused), the candidates well below the best dropped after each round, and
more rounds while the move's accuracy is uncertain (``accuracy_se``).  The best is the
candidate of the biggest margin; the margin difference of its evaluations on different seeds
is the measure's own noise on that position (the loss of the best move against itself),
reported beside the loss.  A move's stake is the loss a uniform pick among the candidates
would expect there, and a player's accuracy the share of his moves' stakes he did not lose
(``stake_accuracy``: 100% plays as the engine, 0% no better than a random pick; docs/review.md).
Once every move is reviewed, the moves that add most to a player's accuracy's standard error
get more rounds (``refine``) until it is at most ``PLAYER_SE``.

Chance is replayed, never searched: a move's draws and dice come from ``Rng(seed)``
with the seed the record gives it, or the record gives the position after the move.
"""

from __future__ import annotations

import math
import secrets
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from ..engine import IllegalMoveError, InvalidMoveError, Rng
from .ismcts import Analysis, MoveInfo, analyze
from .params import Budget, review_params

#: The biggest mistakes a player's summary lists.
MISTAKES = 3
_SEED_MASK = (1 << 64) - 1
#: The stream of the search that names the candidates; round j of the searches that evaluate
#: each candidate alone at the root has stream 1 + j (``turn_seed``).
PICK = 0
#: The first search's most visited moves that are evaluated, with the move played: every
#: move it tried in nearly every position (Puerto Rico has 5 legal moves on average, rarely
#: more than 16).  Its most visited two were too few: a move a whole point better got 5 of
#: 3,000 visits (a low prior), a candidate in one review and not in the other (docs/review.md).
CANDIDATES = 24
#: Once the first rounds are done, after each round a candidate whose margin is ELIMINATE
#: (the game's score unit) below the best's is searched no more: it cannot turn out best, and
#: a move this much better than one that is would change the played move's loss by little.
#: Not before: one round's margins spread by up to a point in some positions, a move dropped
#: after one round was the best of the other review, and a dropped move's margin, part of the
#: stake, needs rounds to tell its spread (docs/review.md).  The first search's choice is
#: never dropped: a single round's outlier dropped one with 2,663 of its 3,000 visits, and
#: the loss read 0 in one review and 1.66 in the other.  A dropped move comes back when the
#: best falls to within reach of it: the move played had an outlier first round (3.4 points
#: above its mean), the other move was dropped, and the loss read 0 in one review of four
#: and 1.3 to 1.5 in the others (docs/review.md).
ELIMINATE = 0.5
#: The rounds of evaluations: first three, then twice as many while the move's accuracy is
#: uncertain by more than ``ACCURACY_SE`` points (its standard error, ``accuracy_se``), up to
#: ``MAX_ROUNDS``.  Three first: a spread measured on two rounds is too often far too small.
#: ``ACCURACY_SE`` is the calibration's; a smaller one buys little (docs/review.md, step 4).
FIRST_ROUNDS, MAX_ROUNDS, ACCURACY_SE = 3, 16, 2.0
#: Then a player's moves get more rounds (``refine``), up to ``REFINE_ROUNDS`` each, while his
#: accuracy's standard error (``player_accuracy_se``) is above ``PLAYER_SE`` points: two
#: reviews of a record then differ by about 1.4 ``PLAYER_SE`` (docs/review.md, step 5). The
#: refinement's searches are at most ``REFINE_SHARE`` times the first rounds': a short review
#: (a few moves, little at stake) cannot reach ``PLAYER_SE`` and would search on to the cap.
PLAYER_SE, REFINE_ROUNDS, REFINE_SHARE = 0.25, 64, 2.0
#: A move's variance from its own rounds is pooled with ``PRIOR_ROUNDS`` rounds' worth of the
#: player's variance per squared unit of stake (``_variance_terms``): the rounds of a position
#: that evaluates in two modes can agree by chance, and its spread then reads as about 0.
PRIOR_ROUNDS = 2.0
#: Why a search ended when it ran its whole budget of work; a time budget (the wall clock,
#: a deadline) or a cancellation gets no more pairs: it would make the review's time open-ended.
BUDGETS_SPENT = frozenset({"iterations", "cpu_time", "nodes", "terminal"})
_STREAM_STRIDE = 0x9E3779B97F4A7C15  # splitmix64's gamma: the streams' seeds far apart
#: The search budget of a review given none: the calibration's (docs/review.md).
REVIEW_ITERATIONS = 3000


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
    """One move played against the engine's best.  ``analysis`` is the search that named
    the candidates; ``best`` and ``played`` are the statistics of their evaluations
    (``review_turn``), the same when the move played evaluates best, and ``noise`` is the
    margin difference of the two halves of the best's evaluations.  In a position with one
    candidate both are the first search's and every loss and the noise are 0.  ``played``
    has visits 0 and no other statistics when an evaluation could not run; then the losses
    and the noise are None."""

    index: int
    player: int
    played: MoveInfo
    best: MoveInfo
    win_rate_loss: float | None
    score_loss: float | None
    margin_loss: float | None
    noise: float | None
    analysis: Analysis
    stake: float | None = None  # the loss a uniform pick among the candidates expects (``stake_of``)
    rounds: int = 0  # the rounds of searches of each candidate (0: one candidate, or none could run)
    #: The variance of the mean margin loss over the rounds, its covariance with the mean
    #: stake's and the mean stake's variance (``TurnEvaluation.spread``): ``player_accuracy_se``'s.
    spread: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def accuracy(self) -> float | None:
        """The move's accuracy in percent (``stake_accuracy`` of the move alone); None when its
        loss is unknown."""
        if self.margin_loss is None or self.stake is None:
            return None
        return stake_accuracy(relative_loss([self.margin_loss], [self.stake]))


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One seat's reviewed moves summed up (see ``summarize``)."""

    player: int
    moves: int
    evaluated: int
    mean_win_rate_loss: float
    mean_score_loss: float
    mean_margin_loss: float
    noise_floor: float
    relative_loss: float  # ``relative_loss`` of the evaluated moves
    mistakes: list[MoveReview]
    accuracy_se: float = 0.0  # the accuracy's standard error in points (``player_accuracy_se``)

    @property
    def accuracy(self) -> float:
        """The player's accuracy in percent (``stake_accuracy``)."""
        return stake_accuracy(self.relative_loss)


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
    if outcome is not None and given.encode().tolist() != outcome.encode().tolist():
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


def turn_seed(base: int, index: int, stream: int = PICK) -> int:
    """The seed of the ``stream`` search (``PICK``, or 1 + j for evaluation pair j) of turn ``index``."""
    return (base + index + stream * _STREAM_STRIDE) & _SEED_MASK


#: Searches a turn's state for its mover with the seeds of a stream (``turn_seed``): all
#: moves (``root_action`` None) or only the move ``root_action``; None when it could not
#: run (the review is being cut short).
TurnSearch = Callable[[Turn, "int | None", int], "Analysis | None"]


def margin(info: MoveInfo, player: int) -> float:
    """``player``'s expected final score less the best expected score of the others (his own
    score alone in a 1-player game)."""
    scores = info.expected_scores
    others = [s for p, s in enumerate(scores) if p != player]
    return scores[player] - (max(others) if others else 0.0)


def merged(infos: Sequence[MoveInfo]) -> MoveInfo:
    """The statistics of searches of one move as one: visits summed, means weighed by
    visits, the first one's line and its seats."""
    visits = sum(i.visits for i in infos)
    first = infos[0]

    def mean(values: Sequence[float]) -> float:
        return sum(v * i.visits for v, i in zip(values, infos)) / visits

    return MoveInfo(move=first.move, action=first.action, visits=visits, win_rate=mean([i.win_rate for i in infos]),
                    expected_scores=[mean(s) for s in zip(*(i.expected_scores for i in infos))], pv=first.pv,
                    pv_players=first.pv_players)


def _noise(bests: Sequence[MoveInfo], player: int) -> float:
    """The margin difference of the two halves of a move's evaluations: with two, the loss of
    the move against itself; with more, it shrinks as the noise of their sum does (about
    twice its standard deviation whatever their number)."""
    half = len(bests) // 2
    return abs(margin(merged(bests[:half]), player) - margin(merged(bests[half:]), player))


def stake_of(margins: Sequence[float]) -> float:
    """A position's stake from its candidates' margins: the best's less their mean, the loss a
    uniform pick among them would expect."""
    return max(margins) - statistics.fmean(margins)


def accuracy_se(challenger: Sequence[MoveInfo], played: Sequence[MoveInfo], stake: float, player: int) -> float:
    """The standard error of a move's accuracy from its rounds (``challenger``, the best
    candidate other than the move played, and ``played`` the evaluations of a round each, in
    round order): the spread of the round's margin differences d (common random numbers: the
    two searches of a round share their draws) over the root of their number, as a share of
    the position's ``stake`` in points (the slope of ``stake_accuracy``), times the chance that
    the loss is not 0, Φ(mean d / its standard error): a move played that evaluates best by a
    hair is as uncertain as one a hair worse, one clearly best is certain. 0 with one round
    or no stake."""
    d = [margin(c, player) - margin(p, player) for c, p in zip(challenger, played)]
    if len(d) < 2 or stake <= 0.0:
        return 0.0
    mean, se = statistics.fmean(d), statistics.stdev(d) / math.sqrt(len(d))
    if se == 0.0:
        return 0.0
    return 100.0 * se / stake * statistics.NormalDist().cdf(mean / se)


class TurnEvaluation:
    """A turn's review in progress (``evaluate_turn``): the first search, and each candidate's
    evaluations round by round; ``more_rounds`` adds rounds, ``review`` reads them."""

    def __init__(self, turn: Turn, analysis: Analysis) -> None:
        self.turn, self.analysis, self.player = turn, analysis, turn.player
        self.played_action = turn.move.id
        self.candidates: list[int] = list(dict.fromkeys(
            [m.action for m in analysis.moves[:CANDIDATES]] + [self.played_action]))
        self.runs: dict[int, list[MoveInfo]] = {action: [] for action in self.candidates}
        self.kept = {self.played_action, analysis.moves[0].action}  # never dropped
        self.spent = True  # the searches so far ran their whole budget of work (``BUDGETS_SPENT``)
        self.failed = False  # a search of the first rounds could not run

    @property
    def rounds(self) -> int:
        return len(self.runs[self.played_action])

    @property
    def refinable(self) -> bool:
        """More rounds can run: more than one candidate, every search so far ran its budget."""
        return len(self.runs) > 1 and self.spent and not self.failed

    def _margin(self, action: int) -> float:
        return margin(merged(self.runs[action]), self.player)

    def best_action(self, among: Sequence[int] | None = None) -> int:
        return max(self.candidates if among is None else among, key=self._margin)

    def stake(self) -> float:
        """Every candidate's margins' ``stake_of``, the dropped ones' as ``_paired_margins``."""
        return stake_of(list(self._paired_margins().values()))

    def _paired_margins(self) -> dict[int, float]:
        """Each candidate's margin; a dropped one's, its rounds' less what the best's rounds
        drew above the best's mean on those seeds: the searches of a round share their draws, so
        its difference to the best on its rounds is far less noisy than its margin alone."""
        top = self.best_action()
        full = self._margin(top)
        return {action: self._margin(action) + full - margin(merged(self.runs[top][:len(runs)]), self.player)
                for action, runs in self.runs.items()}

    def _dropped_variance(self, top: int) -> float:
        """The variance of the dropped candidates' part of the stake: the variance of each
        one's paired difference to ``top`` (a round's margins) over its rounds (at least
        ``FIRST_ROUNDS``: none is dropped before), over their number, and over the
        candidates' number squared."""
        return sum(statistics.variance([margin(b, self.player) - margin(c, self.player)
                                        for b, c in zip(self.runs[top], runs)]) / len(runs)
                   for runs in self.runs.values() if len(runs) < len(self.runs[top])) / len(self.runs) ** 2

    def uncertain(self) -> bool:
        """The move's accuracy has a standard error above ``ACCURACY_SE`` (``accuracy_se``,
        against the best candidate other than the move played)."""
        others = [action for action in self.candidates if action != self.played_action]
        return bool(others) and accuracy_se(self.runs[self.best_action(others)], self.runs[self.played_action],
                                            self.stake(), self.player) > ACCURACY_SE

    def more_rounds(self, search: TurnSearch, upto: int) -> bool:
        """Rounds up to ``upto``, a round's searches on one stream; after each, from the
        ``FIRST_ROUNDS``-th on, the candidates far below the best are dropped (``ELIMINATE``)
        and a dropped one the best has fallen back to is searched again (``_keep_within_reach``);
        False, the round left out, when a search could not run."""
        for stream in range(1 + self.rounds, 1 + upto):
            if not self._search(search, self.candidates, stream):
                return False
            if stream >= FIRST_ROUNDS and not self._keep_within_reach(search):
                return False
        return True

    def double_rounds(self, search: TurnSearch) -> bool:
        """Twice the rounds (up to ``REFINE_ROUNDS``), the dropped candidates' too (up to the
        move's): a dropped one's margin is part of the stake, and its rounds make its variance
        (``_dropped_variance``); False when a search could not run."""
        if not self.more_rounds(search, min(REFINE_ROUNDS, 2 * self.rounds)):
            return False
        for action, runs in self.runs.items():
            for stream in range(1 + len(runs), 1 + min(2 * len(runs), self.rounds)):
                if not self._search(search, [action], stream):
                    return False
        return self._keep_within_reach(search)

    def _keep_within_reach(self, search: TurnSearch) -> bool:
        """The candidates to search on: those never dropped (``kept``) and those within
        ``ELIMINATE`` of the best's margin, a dropped one's from its rounds (a round's outlier
        can drop a move the best then falls back to); one back is first searched on the
        rounds it missed. False when a search could not run."""
        top = self._margin(self.best_action())
        reach = [action for action in self.runs if action in self.kept or self._margin(action) > top - ELIMINATE]
        for action in reach:
            for missed in range(1 + len(self.runs[action]), 1 + self.rounds):
                if not self._search(search, [action], missed):
                    return False
        self.candidates = reach
        return True

    def _search(self, search: TurnSearch, actions: Sequence[int], stream: int) -> bool:
        """Each of ``actions`` searched alone on ``stream``, its evaluation added to its rounds;
        False, none added, when a search could not run."""
        found = [e for e in (search(self.turn, action, stream) for action in actions) if e is not None and e.moves]
        if len(found) < len(actions):
            return False
        self.spent = self.spent and all(e.stopped_by in BUDGETS_SPENT for e in found)
        for action, evaluation in zip(actions, found):
            self.runs[action].append(evaluation.moves[0])
        return True

    def spread(self, best: int) -> tuple[float, float, float]:
        """The variance of the mean loss over the rounds, its covariance with the mean stake's,
        and the mean stake's variance: from each round's loss and stake (a dropped candidate's
        margin in every round the best's of the round less their mean difference,
        ``_paired_margins``), over the rounds of both ``best`` and the move played, the stake's
        plus the dropped candidates' own (``_dropped_variance``); 0s with fewer than two."""
        n = min(len(self.runs[best]), len(self.runs[self.played_action]))
        if n < 2:
            return 0.0, 0.0, 0.0
        top, paired = self.best_action(), self._paired_margins()
        losses, stakes = [], []
        for r in range(n):
            at_top = margin(self.runs[top][r], self.player)
            margins = {action: margin(runs[r], self.player) if len(runs) >= len(self.runs[top])
                       else at_top - paired[top] + paired[action] for action, runs in self.runs.items()}
            losses.append(margins[best] - margins[self.played_action])
            stakes.append(margins[best] - statistics.fmean(margins.values()))
        return (statistics.variance(losses) / n, statistics.covariance(losses, stakes) / n,
                statistics.variance(stakes) / n + self._dropped_variance(top))

    def review(self) -> MoveReview:
        """The move's review from the rounds so far (see ``review_turn``)."""
        turn, player, analysis = self.turn, self.player, self.analysis
        if len(self.runs) == 1:
            only = analysis.moves[0]
            return MoveReview(turn.index, player, only, only, 0.0, 0.0, 0.0, 0.0, analysis, 0.0)
        if self.failed or not self.rounds:
            untried = MoveInfo(move=str(turn.move), action=self.played_action, visits=0, win_rate=0.0,
                               expected_scores=[], pv=[])
            return MoveReview(turn.index, player, untried, analysis.moves[0], None, None, None, None, analysis)
        best_action = self.best_action()
        best, played = merged(self.runs[best_action]), merged(self.runs[self.played_action])
        return MoveReview(turn.index, player, played, best, max(0.0, best.win_rate - played.win_rate),
                          max(0.0, best.expected_scores[player] - played.expected_scores[player]),
                          margin(best, player) - margin(played, player), _noise(self.runs[best_action], player),
                          analysis, self.stake(), self.rounds, self.spread(best_action))


def evaluate_turn(turn: Turn, search: TurnSearch) -> TurnEvaluation | None:
    """The rounds of ``review_turn``; None when the first search did not run or ran no iteration."""
    analysis = search(turn, None, PICK)
    if analysis is None or not analysis.moves:
        return None
    evaluation = TurnEvaluation(turn, analysis)
    if len(evaluation.runs) == 1:
        return evaluation
    while not evaluation.rounds or (evaluation.spent and evaluation.rounds < MAX_ROUNDS and evaluation.uncertain()):
        if not evaluation.more_rounds(search, min(MAX_ROUNDS, max(FIRST_ROUNDS, 2 * evaluation.rounds))):
            evaluation.failed = True
            break
    return evaluation


def review_turn(turn: Turn, search: TurnSearch) -> MoveReview | None:
    """The review of ``turn``'s move: a search of its state names the candidates, its
    ``CANDIDATES`` most visited moves and the move played. Each candidate is then searched
    alone with the same budget in rounds, a round's searches on one seed (common random
    numbers); after each round from the ``FIRST_ROUNDS``-th on the candidates ``ELIMINATE`` or
    more below the best's margin are dropped (never the move played nor the first search's
    choice), and a dropped one within that of the best again comes back, searched first on
    the rounds it missed. ``FIRST_ROUNDS``, doubled while the move's accuracy
    is uncertain by more than ``ACCURACY_SE`` points (``accuracy_se``) and every search ran
    its budget of work (``BUDGETS_SPENT``), up to ``MAX_ROUNDS``. A candidate's statistics
    are its searches' together; the best is the candidate of the biggest margin, the noise
    the margin difference of the two halves of its searches (``_noise``), the stake the best's
    margin less the mean of every candidate's (``stake_of``). A position with one candidate is
    not searched again: every loss and the stake are 0. None when the first search did not run
    or ran no iteration; the move played with visits 0 and no losses when a later search could
    not."""
    evaluation = evaluate_turn(turn, search)
    return None if evaluation is None else evaluation.review()


def accuracy(win_rate_loss: float) -> float:
    """Move accuracy in percent from a win-rate loss in [0, 1] (lichess's formula, its
    win percentages as fractions)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * win_rate_loss) - 3.1669))


def relative_loss(losses: Sequence[float], stakes: Sequence[float]) -> float:
    """Moves' margin losses summed over their stakes summed: 0 when every move was the
    engine's best, about 1 for uniform picks among the candidates, above 1 for worse; 0 when
    nothing was at stake."""
    at_stake = sum(stakes)
    return sum(losses) / at_stake if at_stake > 0.0 else 0.0


def stake_accuracy(relative: float) -> float:
    """Accuracy in percent of moves whose ``relative_loss`` is ``relative``: the share of the
    stakes not lost, 100 * (1 - relative), within [0, 100]. A move's stake weighs it, so the
    moves where little is at stake (a forced discard, a placement between equals) neither
    raise nor lower a player's accuracy much."""
    return 100.0 * min(1.0, max(0.0, 1.0 - relative))


def _candidates(review: MoveReview) -> int:
    """How many candidates ``review_turn`` evaluated for ``review``'s move."""
    return len({m.action for m in review.analysis.moves[:CANDIDATES]} | {review.played.action})


def _mistake_order(review: MoveReview) -> tuple[float, float, int]:
    return (-(review.margin_loss or 0.0), -(review.win_rate_loss or 0.0), review.index)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _variance_terms(reviews: Sequence[MoveReview]) -> list[float]:
    """The variance each move adds to the sum of loss − ρ · stake over ``reviews`` (one player's
    moves whose losses are known; ρ their relative loss): the variance of one round's, from
    the move's rounds (``spread``) pooled with ``PRIOR_ROUNDS`` rounds of the moves' variance
    per squared unit of stake, over its rounds."""
    relative = relative_loss([r.margin_loss or 0.0 for r in reviews], [r.stake or 0.0 for r in reviews])
    per_round = [r.rounds * max(0.0, r.spread[0] - 2.0 * relative * r.spread[1] + relative ** 2 * r.spread[2])
                 for r in reviews]
    measured = [(q, r) for q, r in zip(per_round, reviews) if r.rounds > 1]
    squares = sum((r.stake or 0.0) ** 2 for _, r in measured)
    unit = sum(q for q, _ in measured) / squares if squares > 0.0 else 0.0
    return [((r.rounds - 1) * q + PRIOR_ROUNDS * unit * (r.stake or 0.0) ** 2) / (r.rounds - 1 + PRIOR_ROUNDS) / r.rounds
            if r.rounds > 1 else 0.0 for q, r in zip(per_round, reviews)]


def player_accuracy_se(reviews: Sequence[MoveReview]) -> float:
    """The standard error, in points, of the accuracy of ``reviews`` (one player's moves whose
    losses are known): the delta method's for a ratio of sums, 100 · √(Σ var(loss − ρ stake))
    / Σ stake with ρ their relative loss, each move's variance from its rounds and the others'
    (``_variance_terms``); 0 when nothing was at stake."""
    at_stake = sum(r.stake or 0.0 for r in reviews)
    return 100.0 * math.sqrt(sum(_variance_terms(reviews))) / at_stake if at_stake > 0.0 else 0.0


def summarize(reviews: Sequence[MoveReview], seats: Sequence[int]) -> list[PlayerReview]:
    """Per seat (ascending): moves reviewed, mean losses and relative loss (the accuracy's
    measure, and its standard error) over the moves whose losses are known, the noise floor
    (the mean noise of those with more than one candidate), and the ``MISTAKES`` biggest margin
    losses, biggest first."""
    summary = []
    for seat in sorted(seats):
        mine = [r for r in reviews if r.player == seat]
        known = [r for r in mine if r.margin_loss is not None]
        mistakes = sorted((r for r in known if (r.margin_loss or 0.0) > 0 or (r.win_rate_loss or 0.0) > 0),
                          key=_mistake_order)[:MISTAKES]
        summary.append(PlayerReview(
            player=seat, moves=len(mine), evaluated=len(known),
            mean_win_rate_loss=_mean([r.win_rate_loss or 0.0 for r in known]),
            mean_score_loss=_mean([r.score_loss or 0.0 for r in known]),
            mean_margin_loss=_mean([r.margin_loss or 0.0 for r in known]),
            noise_floor=_mean([r.noise or 0.0 for r in known if _candidates(r) > 1]),
            relative_loss=relative_loss([r.margin_loss or 0.0 for r in known], [r.stake or 0.0 for r in known]),
            mistakes=mistakes, accuracy_se=player_accuracy_se(known)))
    return summary


def _to_refine(evaluations: Sequence[TurnEvaluation], reviews: dict[int, MoveReview]) -> list[TurnEvaluation]:
    """The moves whose rounds to double next, the most useful first: for each player whose
    accuracy's standard error is above ``PLAYER_SE``, his moves by the variance a doubling
    takes away per search, until it would be down to ``PLAYER_SE``."""
    chosen: list[tuple[float, TurnEvaluation]] = []
    for seat in sorted({e.player for e in evaluations}):
        mine = [e for e in evaluations if e.player == seat and reviews[e.turn.index].margin_loss is not None]
        known = [reviews[e.turn.index] for e in mine]
        terms = {e.turn.index: term for e, term in zip(mine, _variance_terms(known))}
        excess = sum(terms.values()) - (PLAYER_SE * sum(r.stake or 0.0 for r in known) / 100.0) ** 2
        gains = sorted(((terms[e.turn.index] / _searches(e), e) for e in mine
                        if e.refinable and e.rounds < REFINE_ROUNDS and terms[e.turn.index] > 0.0),
                       key=lambda gain: -gain[0])
        for gain, e in gains:
            if excess <= 0.0:
                break
            chosen.append((gain, e))
            excess -= terms[e.turn.index] * (1.0 - e.rounds / min(REFINE_ROUNDS, 2 * e.rounds))
    return [e for _, e in sorted(chosen, key=lambda gain: -gain[0])]


def _searches(evaluation: TurnEvaluation) -> int:
    """The searches of the candidates' rounds so far."""
    return sum(len(runs) for runs in evaluation.runs.values())


def refine(evaluations: Sequence[TurnEvaluation], search: TurnSearch, workers: int) -> Iterator[MoveReview]:
    """More rounds, in batches (``_to_refine``), for the moves that add most to a player's
    accuracy's standard error while it is above ``PLAYER_SE`` and the searches are within
    ``REFINE_SHARE`` times the first rounds'; each refined move's review as it is done. Stops
    after a batch in which a search could not run."""
    reviews = {e.turn.index: e.review() for e in evaluations}
    left = REFINE_SHARE * sum(_searches(e) for e in evaluations)
    while batch := _to_refine(evaluations, reviews):
        within = []
        for evaluation in batch:  # a doubling costs about the searches so far
            if _searches(evaluation) <= left:
                within.append(evaluation)
                left -= _searches(evaluation)
        if not within:
            return
        ran_all = True
        for evaluation, ran in in_order(sorted(within, key=lambda e: e.turn.index),
                                        lambda e: e.double_rounds(search), workers):
            ran_all = ran_all and ran
            reviews[evaluation.turn.index] = evaluation.review()
            yield reviews[evaluation.turn.index]
        if not ran_all:
            return


def review_moves(turns: Sequence[Turn], search: TurnSearch, workers: int) -> Iterator[MoveReview]:
    """Each turn's review in game order as it is done (``evaluate_turn``; none for a turn whose
    first search did not run), then the refined ones again (``refine``): a later review of a
    move replaces the earlier one."""
    evaluations = []
    for _, evaluation in in_order(turns, lambda turn: evaluate_turn(turn, search), workers):
        if evaluation is not None:
            evaluations.append(evaluation)
            yield evaluation.review()
    yield from refine([e for e in evaluations if not e.failed], search, workers)


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


def review_game(start: Any, moves: Sequence[PlayedMove], budget: Budget | None = None, *,
                seats: Sequence[int] = (), seed: int | None = None, workers: int = 1,
                on_move: Callable[[MoveReview], None] | None = None) -> Review:
    """Review a game in this process: ``workers`` searches at once, each within ``budget``
    (None: ``REVIEW_ITERATIONS``) with ``review_params``; ``on_move`` sees every move review
    as it comes (``review_moves``: in game order, then the refined moves again)."""
    budget = Budget(iterations=REVIEW_ITERATIONS) if budget is None else budget
    chosen = check_seats(seats, start.num_players)
    base = search_seed(seed)
    targets = review_turns(replay(start, moves), chosen)

    def search(turn: Turn, root_action: int | None, stream: int) -> Analysis:
        params = replace(review_params(turn.state.game_id, turn.state.num_players),
                         seed=turn_seed(base, turn.index, stream), root_action=root_action)
        return analyze(turn.state, budget, params)

    latest: dict[int, MoveReview] = {}
    for review in review_moves(targets, search, workers):
        latest[review.index] = review
        if on_move is not None:
            on_move(review)
    reviews = sorted(latest.values(), key=lambda r: r.index)
    return Review(reviews, summarize(reviews, sorted(chosen)), len(targets) - len(reviews))
