"""The native ISMCTS contract (mm_ismcts_search), on the toy game."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meeplemind.search import NativeHandle

from .ismcts_toy import Search, ToyState, nim, opening, search


def rows(result: Search) -> slice:
    return slice(0, result.summary.children)


def assert_same(a: Search, b: Search) -> None:
    assert (a.rc, a.summary.iterations, a.summary.nodes, a.summary.children) == (
        b.rc,
        b.summary.iterations,
        b.summary.nodes,
        b.summary.children,
    )
    assert a.summary.root_reward == b.summary.root_reward
    for name in ("action", "visits", "avail", "reward", "score", "pv", "pv_len"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_same_seed_gives_identical_results(toy: NativeHandle) -> None:
    first = search(toy, opening(), max_iterations=5000, seed=42)
    assert first.rc == 0
    assert_same(first, search(toy, opening(), max_iterations=5000, seed=42))
    other = search(toy, opening(), max_iterations=5000, seed=43)
    assert not np.array_equal(first.visits, other.visits)


def test_iteration_budget_is_exact(toy: NativeHandle) -> None:
    result = search(toy, opening(), max_iterations=777)
    lib = toy.lib
    assert (result.rc, result.summary.iterations) == (0, 777)
    assert result.summary.stop_reason == lib.MM_ISMCTS_STOP_ITERATIONS
    assert result.visits[rows(result)].sum() == 777


def test_root_statistics_are_consistent(toy: NativeHandle) -> None:
    state = opening()
    result = search(toy, state, max_iterations=3000, pv_max=5)
    s, r = result.summary, rows(result)
    assert (s.root_player, s.players) == (0, 3)
    assert sorted(result.action[r]) == state.legal_actions()
    assert np.all(result.avail[r] >= result.visits[r]) and np.all(result.visits[r] >= 1)
    assert np.all((result.reward[r] >= 0) & (result.reward[r] <= result.visits[r]))
    assert 0 <= s.root_reward <= s.iterations
    assert s.nodes == s.iterations + 1  # one expansion per iteration, plus the root
    assert np.all(result.score[r, 3:] == 0)
    for row in range(s.children):
        line = result.pv[row, : result.pv_len[row]]
        assert 1 <= len(line) <= 5 and line[0] == result.action[row]
        assert np.all(result.pv[row, len(line) :] == -1)


def test_finds_the_winning_take(toy: NativeHandle) -> None:
    result = search(toy, nim(7, players=2), max_iterations=2000)
    r = rows(result)
    best = int(np.argmax(result.visits[r]))
    assert result.action[best] == 2  # take 3, leaving a multiple of 4
    assert result.reward[best] / result.visits[best] > 0.9
    assert result.score[best, 0] / result.visits[best] >= 10


def test_node_cap_is_never_exceeded(toy: NativeHandle) -> None:
    for cap in (2, 3, 50, 1000):
        result = search(toy, opening(), max_iterations=10**6, max_nodes=cap)
        assert result.rc == 0 and result.summary.nodes == cap
        assert result.summary.stop_reason == toy.lib.MM_ISMCTS_STOP_NODES


def test_time_budget(toy: NativeHandle) -> None:
    result = search(toy, opening(), max_iterations=0, max_ms=100.0, max_nodes=1 << 24)
    assert result.summary.stop_reason == toy.lib.MM_ISMCTS_STOP_TIME
    assert 100.0 <= result.summary.elapsed_ms < 300.0  # loose: a loaded machine


def test_a_cpu_budget_spent_before_the_search_still_runs_one_iteration(toy: NativeHandle) -> None:
    # 1 ns of CPU is gone before the first iteration (decoding, the pool): a move all the same
    result = search(toy, opening(), max_iterations=0, max_cpu_ms=1e-6)
    assert result.rc == 0 and result.summary.iterations == 1 and result.summary.children == 1
    assert result.summary.stop_reason == toy.lib.MM_ISMCTS_STOP_CPU_TIME


def test_stop_flag_set_before_the_search(toy: NativeHandle) -> None:
    stop = toy.ffi.new("int32_t *", 1)
    result = search(toy, opening(), stop=stop)
    assert result.rc == 0 and result.summary.iterations == 0
    assert result.summary.stop_reason == toy.lib.MM_ISMCTS_STOP_CANCELLED
    assert result.summary.children == 0


def test_terminal_root(toy: NativeHandle) -> None:
    over = ToyState(pile=0, hand=(1, 2), to_move=-1, last_taker=1)
    result = search(toy, over)
    s = result.summary
    assert (result.rc, s.iterations, s.children, s.root_player) == (0, 0, 0, -1)
    assert s.stop_reason == toy.lib.MM_ISMCTS_STOP_TERMINAL


def test_information_set_is_all_that_matters(toy: NativeHandle) -> None:
    """Swapping hidden cards (another hand and the deck) leaves the search unchanged."""
    seen = opening()
    shuffled = ToyState(
        pile=seen.pile, hand=(9, 8, 1), max_take=seen.max_take, deck=(4, 2, 3, 5, 6, 7, 0)
    )
    assert_same(search(toy, seen, max_iterations=3000), search(toy, shuffled, max_iterations=3000))


def test_margin_blend_steers_the_search_and_reports_win_shares(toy: NativeHandle) -> None:
    plain = search(toy, opening(players=2), max_iterations=2000, margin_weight=0.0)
    blended = search(toy, opening(players=2), max_iterations=2000, margin_weight=0.5, margin_scale=5.0)
    assert blended.rc == 0 and not np.array_equal(plain.visits, blended.visits)
    # a win share is 0, 1/2 or 1 in the 2-player toy: the blended rewards are not reported
    for result in (plain, blended):
        rows = result.summary.children
        assert np.all(result.reward[:rows] * 2 == np.round(result.reward[:rows] * 2))
        assert (result.summary.root_reward * 2).is_integer()


@pytest.mark.parametrize("policy", [0, 1])
def test_rollout_policies(toy: NativeHandle, policy: int) -> None:
    result = search(toy, opening(), max_iterations=500, rollout_policy=policy)
    assert result.rc == 0 and result.summary.iterations == 500


@pytest.mark.parametrize(
    "params",
    [
        {"max_nodes": 1},
        {"max_nodes": 2**31},
        {"pv_max": 0},
        {"pv_max": 17},
        {"max_iterations": -1},
        {"max_ms": -1.0},
        {"max_ms": math.inf},
        {"exploration": math.nan},
        {"margin_weight": 1.5},
        {"margin_scale": 0.0},
        {"rollout_policy": -1},
        {"playout_moves": -1},
        {"guided_expansion": 2},
        {"prior_weight": -1.0},
        {"prior_weight": math.nan},
        {"widening": -0.5},
        {"widening": math.inf},
    ],
)
def test_invalid_params(toy: NativeHandle, params: dict) -> None:
    assert search(toy, opening(), **params).rc == toy.lib.MM_ISMCTS_ERR_PARAMS


@pytest.mark.parametrize(
    "index, value, code",
    [
        (0, 99, 2),  # MM_ERR_VERSION
        (3, 61, 3),  # MM_ERR_RANGE: the pile
        (7, 9, 4),  # MM_ERR_INVARIANT: player 1 holds player 0's card
    ],
)
def test_decode_errors_name_the_field(toy: NativeHandle, index: int, value: int, code: int) -> None:
    vec = opening().encode()
    vec[index] = value
    result = search(toy, vec)
    assert (result.rc, result.summary.bad_field) == (code, index)


def test_wrong_length_is_a_decode_error(toy: NativeHandle) -> None:
    assert search(toy, opening().encode()[:-1]).rc == 1


def test_playout_cap_stops_an_endless_game(endless: NativeHandle) -> None:
    assert search(endless, opening()).rc == endless.lib.MM_ISMCTS_ERR_PLAYOUT_CAP


def test_engine_contract_is_checked(unsorted: NativeHandle) -> None:
    assert search(unsorted, opening()).rc == unsorted.lib.MM_ISMCTS_ERR_ENGINE
