"""Game review in-process: exact replay of chance, the planted blunder found, reproducibility,
records that do not replay named by their field."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable
from dataclasses import replace

import pytest

from meeplemind.positions import state_dict
from meeplemind.cli import main
from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import read_position
from meeplemind.search import review as review_module
from meeplemind.search.review import (ACCURACY_SE, CANDIDATES, ELIMINATE, FIRST_ROUNDS, MAX_ROUNDS,
                                      MISTAKES, PICK, PRIOR_ROUNDS, REFINE_ROUNDS, PlayedMove, TurnSearch,
                                      RecordError,
                                      Turn, accuracy, check_seats, merged, relative_loss, replay, review_game,
                                      MoveReview, evaluate_turn, player_accuracy_se, refine,
                                      review_turn, stake_accuracy, stake_of,
                                      turn_seed)

from meeplemind.search import NativeHandle, analyze
from meeplemind.search.ismcts import Analysis, MoveInfo
from meeplemind.search.params import Budget, SearchParams, game_params

from ..game_records import BEFORE, BLUNDER, planted_blunder
from .ismcts_toy import opening


def test_a_selfplay_log_replays_its_chance_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "puerto-rico", "--players", "3", "--bot", "random", "--seed", "5", "--json"]) == 0
    game = json.loads(capsys.readouterr().out)
    start = read_position(game["start"]).state()
    moves = [PlayedMove(m["move"], int(m["seed"])) for m in game["moves"]]
    turns = replay(start, moves)
    last = turns[-1].state.apply(turns[-1].move, Rng(moves[-1].seed))
    assert last.is_terminal and last.scores() == game["scores"] and last.winners() == game["winner"]
    assert len(turns) == len(game["moves"]) and [str(t.move) for t in turns] == [m["move"] for m in game["moves"]]


def test_the_planted_blunder_is_the_players_biggest_mistake() -> None:
    start, moves = planted_blunder()
    review = review_game(start, moves, Budget(iterations=1500), seats=[0], seed=11)
    (player,) = review.players
    assert player.player == 0 and player.moves == sum(1 for r in review.moves if r.player == 0) > 5
    biggest = player.mistakes[0]
    assert (biggest.index, biggest.played.move) == (BEFORE, BLUNDER)
    assert biggest.win_rate_loss is not None and biggest.win_rate_loss > 0.2
    assert biggest.margin_loss is not None and biggest.noise is not None and biggest.margin_loss > 3 > 10 * biggest.noise
    assert biggest.accuracy is not None and biggest.accuracy < 10
    assert biggest.played.visits == biggest.best.visits and biggest.best.move != BLUNDER
    assert biggest.best.visits == 1500 * biggest.rounds  # then refined: it adds most to the accuracy's error
    assert biggest.rounds in (FIRST_ROUNDS, 2 * FIRST_ROUNDS, 4 * FIRST_ROUNDS, MAX_ROUNDS, 2 * MAX_ROUNDS, REFINE_ROUNDS)
    assert player.accuracy_se > 0
    assert len(player.mistakes) <= MISTAKES and player.accuracy < 100 and 0 < player.noise_floor < 1
    assert all(r.player == 0 for r in review.moves) and review.skipped == 0


def test_same_log_same_seed_one_thread_same_review() -> None:
    start, moves = planted_blunder()

    def stripped(seed: int) -> list[tuple]:
        review = review_game(start, moves[:8], Budget(iterations=300), seed=seed)
        return [(r.index, r.played, r.best, r.win_rate_loss, r.score_loss, r.margin_loss, r.noise,
                 r.analysis.iterations)
                for r in review.moves]

    first = stripped(4)
    assert first == stripped(4) and len(first) == 8
    assert first != stripped(5)


def test_parallel_workers_review_the_same_moves() -> None:
    start, moves = planted_blunder()
    one = review_game(start, moves[:6], Budget(iterations=200), seed=2)
    two = review_game(start, moves[:6], Budget(iterations=200), seed=2, workers=2)
    assert [(r.index, r.best, r.played) for r in one.moves] == [(r.index, r.best, r.played) for r in two.moves]


def test_records_that_do_not_replay_name_the_field() -> None:
    start = get_game("puerto-rico").new_game(3, 1)
    with pytest.raises(RecordError, match=r"^game\.moves\[1\]\.move: move role:settler: not legal"):
        replay(start, [PlayedMove("role:settler"), PlayedMove("role:settler")])
    with pytest.raises(RecordError, match=r"^game\.moves\[0\]\.move: "):
        replay(start, [PlayedMove("fly:away")])
    other = get_game("puerto-rico").new_game(4, 1)
    with pytest.raises(RecordError, match=r"^game\.moves\[0\]\.position: 4 players, not the record's 3"):
        replay(start, [PlayedMove("role:mayor", after=other)])
    wrong = start.play("role:builder")
    with pytest.raises(RecordError, match=r"^game\.moves\[0\]\.position: not the position after role:mayor, "
                                          "which draws no chance"):
        replay(start, [PlayedMove("role:mayor", after=wrong)])
    with pytest.raises(RecordError, match=r"^seats\[1\]: 3 is not a seat"):
        check_seats([0, 3], 3)
    with pytest.raises(RecordError, match=r"^seats\[1\]: seat 0 is given twice"):
        check_seats([0, 0], 3)
    assert check_seats([], 3) == {0, 1, 2}


def test_a_finished_game_takes_no_more_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "puerto-rico", "--players", "2", "--bot", "random", "--seed", "2", "--json"]) == 0
    game = json.loads(capsys.readouterr().out)
    start = read_position(game["start"]).state()
    moves = [PlayedMove(m["move"], int(m["seed"])) for m in game["moves"]]
    with pytest.raises(RecordError, match=rf"^game\.moves\[{len(moves)}\]\.move: the game is over"):
        replay(start, [*moves, PlayedMove("pass")])


def test_accuracy_falls_with_the_loss() -> None:
    assert accuracy(0.0) == pytest.approx(100.0, abs=1e-3) and accuracy(1.0) == 0.0
    assert math.isclose(accuracy(0.1), 103.1668 * math.exp(-0.4354) - 3.1669)
    assert accuracy(0.05) > accuracy(0.2) > accuracy(0.5)


def test_root_action_searches_that_move_alone() -> None:
    state = get_game("puerto-rico").new_game(3, 1)
    move = state.legal_moves()[2]
    only = analyze(state, Budget(iterations=400), replace(game_params(state.game_id), seed=1, root_action=move.id))
    assert [(m.move, m.visits) for m in only.moves] == [(str(move), 400)] and only.moves[0].pv[0] == str(move)
    with pytest.raises(ValueError, match="root_action: 5000 is not a legal move"):
        analyze(state, Budget(iterations=10), replace(game_params(state.game_id), root_action=5000))
    with pytest.raises(ValueError, match="root_action must be"):
        analyze(state, Budget(iterations=10), replace(game_params(state.game_id), root_action=-1))


def test_a_given_position_after_a_chance_move_is_its_outcome() -> None:
    start, moves = planted_blunder()
    state = start
    for played in moves:  # the first move of the record whose chance shows
        one, two = state.play(played.move, seed=1), state.play(played.move, seed=2)
        if state_dict(one) != state_dict(two):
            break
        state = state.apply(played.move, Rng(played.seed))
    else:
        pytest.fail("no move of the record brings chance")
    turns = replay(state, [PlayedMove(played.move, after=two), PlayedMove(str(two.legal_moves()[0]))])
    assert turns[0].state is state and state_dict(turns[1].state) == state_dict(two)


def test_accuracy_is_the_share_of_the_stakes_not_lost() -> None:
    """The engine's best keeps the whole stake (100), a uniform pick's expected loss none of it
    (0), worse stays at 0; a player's moves are summed, so a move weighs by its stake."""
    def kept(losses: list[float], stakes: list[float]) -> float:
        return stake_accuracy(relative_loss(losses, stakes))

    assert stake_of([5.0, 4.0, 3.0]) == 1.0 and stake_of([2.0, 2.0]) == 0.0
    assert kept([0.0], [1.0]) == 100.0 and kept([1.0], [1.0]) == 0.0
    assert kept([0.5], [2.0]) == 75.0 and kept([3.0], [1.0]) == 0.0
    assert kept([], []) == kept([0.0], [0.0]) == 100.0
    assert relative_loss([1.0, 0.0], [1.0, 3.0]) == 0.25 and kept([1.0, 0.0], [1.0, 3.0]) == 75.0
    assert relative_loss([3.0], [1.0]) == 3.0 and relative_loss([0.0], [0.0]) == 0.0


def test_candidates_are_judged_on_common_random_numbers_and_the_noise_measured() -> None:
    """Every move the first search tried (up to CANDIDATES) and the move played are each
    searched alone in rounds, a round on one stream of seeds, the weak ones dropped after a
    round (never the move played nor the first search's choice); the first search's
    statistics are not reused; the best is the candidate of the biggest margin."""
    start = get_game("puerto-rico").new_game(3, 1)
    calls: list[tuple[int | None, int]] = []

    def search(t: Turn, root_action: int | None, stream: int) -> object:
        calls.append((root_action, stream))
        params = replace(game_params(t.state.game_id), seed=turn_seed(7, t.index, stream), root_action=root_action)
        return analyze(t.state, Budget(iterations=2000), params)

    for played in ("role:captain", "role:settler"):
        calls.clear()
        turn = Turn(0, start, start.Move.parse(played))
        review = review_turn(turn, search)  # type: ignore[arg-type]
        assert review is not None and calls[0] == (None, PICK)
        candidates = {m.action for m in review.analysis.moves[:CANDIDATES]} | {turn.move.id}
        by_round = [{a for a, s in calls if s == stream} for stream in range(1, 1 + MAX_ROUNDS)]
        rounds = sum(1 for searched in by_round if searched)
        assert len(calls) - 1 == sum(len(searched) for searched in by_round) and by_round[0] == candidates
        assert all(later <= earlier for earlier, later in zip(by_round, by_round[1:]))
        assert all({turn.move.id, review.best.action, review.analysis.moves[0].action} <= searched
                   for searched in by_round[:rounds])
        assert rounds in (3, 6, 12, 16) and review.best.visits == review.played.visits == 2000 * rounds
        assert review.margin_loss is not None and review.margin_loss >= 0
        assert review.noise is not None and review.noise >= 0
        assert (review.margin_loss == 0) == (review.best.action == turn.move.id)
    assert len({turn_seed(7, 0, s) for s in range(1 + MAX_ROUNDS)}) == 1 + MAX_ROUNDS


def _scripted_turn(margins: dict[str, Callable[[int], float]], streams: list[tuple[int | None, int]],
                   ) -> tuple[Turn, TurnSearch]:
    """The first turn of a 3-player game, ``role:captain`` played, and a search giving each
    move of ``margins`` (the first search lists them with visits in that order) the mover's
    expected score ``margins[move](stream)`` (the others' 0); ``streams`` logs the searches."""
    start = get_game("puerto-rico").new_game(3, 1)
    turn = Turn(0, start, start.Move.parse("role:captain"))
    ids = {name: start.Move.parse(name).id for name in margins}

    def info(name: str, stream: int, visits: int) -> MoveInfo:
        scores = [0.0] * 3
        scores[turn.player] = margins[name](stream)
        return MoveInfo(move=name, action=ids[name], visits=visits, win_rate=0.5, expected_scores=scores, pv=[])

    def search(t: Turn, root_action: int | None, stream: int) -> Analysis:
        streams.append((root_action, stream))
        if root_action is None:
            moves = [info(name, 0, 100 - i) for i, name in enumerate(margins)]
        else:
            moves = [info(next(n for n, a in ids.items() if a == root_action), stream, 100)]
        return Analysis(moves, 100, 1.0, 1.0, 2, "iterations", 0.5, 0)

    return turn, search


def _wave(stream: int) -> float:
    """+1, -1, 0 on streams 1, 2, 3 and so on: a mean of 0 over 3, 6 or 12 rounds."""
    return (0.0, 1.0, -1.0)[stream % 3]


@pytest.mark.parametrize("factor,rounds", [(0.0, 3), (1.5, 3), (2.0, 6), (3.0, 12), (50.0, MAX_ROUNDS)])
def test_a_move_whose_accuracy_is_uncertain_gets_more_rounds(factor: float, rounds: int) -> None:
    """Rounds double while the move's accuracy has a standard error above ACCURACY_SE: here
    the best's margin on stream s is 5 + spread _wave(s), the played move's 4, so the round
    losses average 1 and the stake is 0.5 (the best less the two moves' mean); the accuracy's
    slope is k = 100 / stake and its standard error k spread / √3 after three rounds,
    0.365 k spread after six, 0.246 k spread after twelve (the chance that the loss is not 0
    about 1); spread = factor ACCURACY_SE / k."""
    assert FIRST_ROUNDS == 3 and MAX_ROUNDS == 16  # the rounds above
    streams: list[tuple[int | None, int]] = []
    spread = factor * ACCURACY_SE / (100 / 0.5)
    turn, search = _scripted_turn({"role:settler": lambda s: 5.0 + spread * _wave(s),
                                   "role:captain": lambda s: 4.0}, streams)
    review = review_turn(turn, search)
    assert review is not None and [s for _, s in streams] == [0, *(s for s in range(1, rounds + 1) for _ in range(2))]
    assert review.best.visits == 100 * rounds and review.margin_loss is not None
    assert math.isclose(review.margin_loss, 1.0 + spread * statistics.fmean(_wave(s) for s in range(1, rounds + 1)))
    assert review.stake is not None and math.isclose(review.stake, review.margin_loss / 2)


@pytest.mark.parametrize("lead,spread,rounds", [(0.01, 1.0, MAX_ROUNDS), (0.4, 0.03, FIRST_ROUNDS)])
def test_a_move_played_that_evaluates_best_by_a_hair_gets_more_rounds(lead: float, spread: float,
                                                                     rounds: int) -> None:
    """The move played evaluates best, ``lead`` above the other candidate, ± ``spread`` from
    round to round: by a hair, its loss may as well be above 0 (more rounds); clearly, it is
    0 (the first rounds only)."""
    streams: list[tuple[int | None, int]] = []
    turn, search = _scripted_turn({"role:settler": lambda s: 5.0,
                                   "role:captain": lambda s: 5.0 + lead + spread * _wave(s)}, streams)
    review = review_turn(turn, search)
    assert review is not None and review.best.action == turn.move.id and review.margin_loss == 0.0
    assert max(s for _, s in streams) == rounds


@pytest.mark.parametrize("share,rounds", [(review_module.REFINE_SHARE, 6), (100.0, 48)])
def test_a_players_uncertain_accuracy_gets_more_rounds_within_the_share(monkeypatch: pytest.MonkeyPatch,
                                                                         share: float, rounds: int) -> None:
    """The move played (4) against the best (5 + 0.01 _wave(s)) and a third candidate (4.8):
    the first three rounds make the move's own accuracy certain (``ACCURACY_SE``), but the
    player's, whose every loss and stake are this move's, reads ±0.96. ``refine`` doubles the
    rounds until it is at most ``PLAYER_SE`` (48 rounds: ±0.20), each doubling's review
    yielded as it comes, or until its searches would exceed ``REFINE_SHARE`` times the first
    rounds' (9, then 9 more: 6 rounds)."""
    monkeypatch.setattr(review_module, "REFINE_SHARE", share)
    streams: list[tuple[int | None, int]] = []
    turn, search = _scripted_turn({"role:settler": lambda s: 5.0 + 0.01 * _wave(s), "role:mayor": lambda s: 4.8,
                                   "role:captain": lambda s: 4.0}, streams)
    evaluation = evaluate_turn(turn, search)
    assert evaluation is not None and evaluation.rounds == FIRST_ROUNDS
    first = evaluation.review()
    assert first.stake is not None and math.isclose(first.stake, 0.4)
    assert player_accuracy_se([first]) == pytest.approx(250 * 2 / 3 * 0.01 / math.sqrt(3))
    refined = list(refine([evaluation], search, workers=1))
    assert [r.rounds for r in refined] == [n for n in (6, 12, 24, 48) if n <= rounds]
    assert max(s for _, s in streams) == rounds and refined[-1].best.visits == 100 * rounds
    assert player_accuracy_se(refined[-1:]) <= (review_module.PLAYER_SE if rounds == 48 else 0.61)


def test_a_players_accuracy_se_sums_his_moves_variances() -> None:
    """100 · √(Σ var) / Σ stake; a move's var: one round's variance of loss − ρ stake (ρ the
    relative loss, here 0.5; var(loss) − 2ρ cov + ρ² var(stake), times its 3 rounds), pooled
    with PRIOR_ROUNDS rounds of the moves' variance per squared unit of stake, over 3."""
    info = MoveInfo(move="role:captain", action=1, visits=1, win_rate=0.5, expected_scores=[0.0] * 3, pv=[])
    analysis = Analysis([info], 1, 1.0, 1.0, 1, "iterations", 0.5, 0)

    def move(loss: float, stake: float, spread: tuple[float, float, float], rounds: int = 3) -> MoveReview:
        return MoveReview(0, 0, info, info, 0.0, 0.0, loss, 0.0, analysis, stake, rounds, spread)

    moves = [move(1.0, 2.0, (0.04, 0.01, 0.02)), move(0.0, 0.0, (0.0, 0.0, 0.0)), move(1.0, 2.0, (0.01, 0.0, 0.04))]
    own = [3 * (0.04 - 0.01 + 0.25 * 0.02), 0.0, 3 * (0.01 + 0.25 * 0.04)]
    unit = sum(own) / (4 + 0 + 4)
    pooled = [(2 * q + PRIOR_ROUNDS * unit * stake ** 2) / (2 + PRIOR_ROUNDS) / 3 for q, stake in zip(own, (2, 0, 2))]
    assert player_accuracy_se(moves) == pytest.approx(100 * math.sqrt(sum(pooled)) / 4)
    assert player_accuracy_se([move(0.0, 0.0, (1.0, 1.0, 1.0))]) == 0.0
    # a move whose rounds agree (spread 0) still adds the other's variance for its stake
    unit = own[0] / 8
    agreeing = [(2 * own[0] + PRIOR_ROUNDS * unit * 4) / (2 + PRIOR_ROUNDS) / 3, PRIOR_ROUNDS * unit * 4 / 4 / 3]
    assert player_accuracy_se([moves[0], move(1.0, 2.0, (0.0, 0.0, 0.0))]) == pytest.approx(
        100 * math.sqrt(sum(agreeing)) / 4)
    assert player_accuracy_se([move(1.0, 2.0, (0.0, 0.0, 0.0), rounds=0)]) == 0.0


def test_a_candidate_far_below_the_best_is_dropped() -> None:
    """The first search's least visited move is the best (5.3, 4.7 and 5 in turn); from the
    third round on, a candidate ELIMINATE or more below it is searched no more (3 and 1.2
    ELIMINATE below after three rounds); one within it is searched in every round, the move
    played always (every round: its accuracy, a point worse than the best, stays
    uncertain), and the first search's choice too, however far below it reads."""
    assert FIRST_ROUNDS == 3
    streams: list[tuple[int | None, int]] = []
    turn, search = _scripted_turn({"role:trader": lambda s: 1.0, "role:settler": lambda s: 2.0,
                                   "role:mayor": lambda s: 5.0 - 1.2 * ELIMINATE,
                                   "role:builder": lambda s: 5.0 - ELIMINATE / 4, "role:captain": lambda s: 4.0,
                                   "role:craftsman": lambda s: 5.0 + 0.3 * _wave(s)}, streams)
    review = review_turn(turn, search)
    searched = {name: [s for a, s in streams if a == turn.state.Move.parse(name).id]
                for name in ("role:trader", "role:settler", "role:mayor", "role:builder", "role:captain",
                             "role:craftsman")}
    assert review is not None and review.best.move == "role:craftsman" and review.margin_loss is not None
    every = list(range(1, MAX_ROUNDS + 1))
    assert math.isclose(review.margin_loss, 1.0 + 0.3 * statistics.fmean(_wave(s) for s in every))
    assert searched["role:settler"] == searched["role:mayor"] == [1, 2, 3]
    assert searched["role:builder"] == searched["role:captain"] == searched["role:craftsman"] == every
    assert searched["role:trader"] == every


def test_a_dropped_candidate_the_best_falls_back_to_comes_back() -> None:
    """The move played reads 6 in the first three rounds and 4 after; the other reads 5. After
    the third round the other is 1 below (dropped: 2 ELIMINATE); after the fourth, 0.5 below
    the played move's mean 5.5 (still out); after the fifth, 0.2 below its 5.2 (within
    ELIMINATE): it is searched on the two streams it missed, then in every round, and is the
    best after eight."""
    assert FIRST_ROUNDS == 3 and ELIMINATE == 0.5
    streams: list[tuple[int | None, int]] = []
    turn, search = _scripted_turn({"role:captain": lambda s: 6.0 if s <= 3 else 4.0,
                                   "role:settler": lambda s: 5.0}, streams)
    evaluation = evaluate_turn(turn, search)
    assert evaluation is not None and evaluation.rounds == FIRST_ROUNDS  # the move played clearly best
    assert evaluation.more_rounds(search, 8)
    captain, settler = (turn.state.Move.parse(name).id for name in ("role:captain", "role:settler"))
    assert streams == [(None, 0), (captain, 1), (settler, 1), (captain, 2), (settler, 2), (captain, 3),
                       (settler, 3), (captain, 4), (captain, 5), (settler, 4), (settler, 5),
                       *((a, s) for s in (6, 7, 8) for a in (captain, settler))]
    review = evaluation.review()
    assert review.best.move == "role:settler" and review.margin_loss == pytest.approx(1.0 - 6.0 / 8)


def test_a_dropped_candidates_margin_is_paired_with_the_bests_on_its_rounds() -> None:
    """Every move draws 3 more in the first round (its seed's luck, shared by a round's
    searches); the mayor, 3 below the best (settler) after three rounds, is dropped. Three
    rounds more (as ``refine`` runs them): its margin is taken as its three rounds' less what
    the best drew above its six-round mean on them (2 + 3/6, not its 3), so the stake is
    5.5 − (5.5 + 4.5 + 2.5) / 3 whatever the luck; the dropped part of the stake's variance
    is its paired difference's over its three rounds and the candidates' number squared."""
    streams: list[tuple[int | None, int]] = []
    luck = {1: 3.0}
    turn, search = _scripted_turn({"role:captain": lambda s: 4.0 + luck.get(s, 0.0) + 0.03 * _wave(s),
                                   "role:settler": lambda s: 5.0 + luck.get(s, 0.0),
                                   "role:mayor": lambda s: 2.0 + luck.get(s, 0.0) + 0.1 * _wave(s)}, streams)
    evaluation = evaluate_turn(turn, search)
    assert evaluation is not None and evaluation.rounds == FIRST_ROUNDS
    assert evaluation.more_rounds(search, 2 * FIRST_ROUNDS)
    mayor = turn.state.Move.parse("role:mayor").id
    assert [s for a, s in streams if a == mayor] == [1, 2, 3]
    review = evaluation.review()
    waves = [0.03 * _wave(s) for s in range(1, 2 * FIRST_ROUNDS + 1)]
    stakes = [(4 - w) / 3 for w in waves]  # each round's: the best less the three moves' mean
    assert review.best.move == "role:settler" and review.stake == pytest.approx(statistics.fmean(stakes))
    paired = statistics.variance([3 - 0.1 * _wave(s) for s in range(1, FIRST_ROUNDS + 1)])
    assert review.spread[2] == pytest.approx(statistics.variance(stakes) / 6 + paired / FIRST_ROUNDS / 9)


def test_searches_of_two_root_moves_with_one_seed_share_their_random_numbers(toy: NativeHandle) -> None:
    """A root_action search draws iteration i from (seed, i) alone: two moves searched with
    one seed see the same hidden cards in their i-th iterations, so their margin difference
    spreads less over seeds than with a seed each."""
    state = opening()
    first, second = state.legal_actions()[:2]

    def margin_of(seed: int, action: int) -> float:
        info = analyze(state, Budget(iterations=200), SearchParams(seed=seed, root_action=action), native=toy).moves[0]
        return info.expected_scores[0] - max(info.expected_scores[1:])

    paired = [margin_of(k, first) - margin_of(k, second) for k in range(20)]
    unpaired = [margin_of(k, first) - margin_of(k + 100, second) for k in range(20)]
    assert statistics.stdev(paired) < 0.85 * statistics.stdev(unpaired)


def test_a_candidates_evaluations_merged_keep_the_line_and_its_seats() -> None:
    """The statistics of several searches of one move: visits summed, means weighed by
    visits, the first search's line with the seat of each of its moves."""
    def info(visits: int, win_rate: float, scores: list[float], pv_players: list[int]) -> MoveInfo:
        return MoveInfo(move="pass", action=3, visits=visits, win_rate=win_rate, expected_scores=scores,
                        pv=["pass", "role:mayor"], pv_players=pv_players)

    both = merged([info(100, 0.5, [40.0, 30.0], [0, 1]), info(300, 0.7, [44.0, 34.0], [0, 0])])
    assert both.visits == 400 and both.pv == ["pass", "role:mayor"] and both.pv_players == [0, 1]
    assert math.isclose(both.win_rate, 0.65) and both.expected_scores == [43.0, 33.0]
