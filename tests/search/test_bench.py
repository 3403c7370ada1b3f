"""The bench: its plan and warnings, and the pinned signature of rules and search."""

from __future__ import annotations

import dataclasses

import pytest

from meeplemind.search import bench
from meeplemind.engine import game_ids, get_game
from meeplemind.search.bench import load_warning, plan, run_bench, signature, signature_report, signature_setups

#: ``meeplemind bench --signature``. It changes whenever the rules (Python or C) or the
#: search behave differently: a deliberate change quotes the new value here.
#: Issue 32: Traders of Genoa's setups joined (from the registry); the five setups before
#: them still hash to issue 21's 200772389290214 (test_the_setups_before_genoa_hash_as_before).
#: Issue 28 (was 171469597726762): Genoa's offers built item by item, no lapse once offered,
#: goods cards before a villa's choice, and its default search over move priors: the two
#: Genoa lines changed (2p 17816 -> 32685 decisions, 4p 34614 -> 55292), the others not.
#: Issue 28's steering offers (was 221564588129882; Genoa's layout generated for both twins,
#: issue 32, kept it): the owner may hear steering offers at the walk, so Genoa's two lines
#: changed (2p 32685 -> 34122 decisions, 4p 55292 -> 67290), the others not.
#: Issue 28 point 4 (was 179422656634746): Genoa's learned evaluation, 40-move playouts, 2-player
#: offers of the playout policy with the item worth least (43303580306530); with a steering
#: offer that may be withdrawn before its first item (2p 30436 decisions, 4p 67664).
#: Issue 28 point 4's order-pursuing playout policy (was 135724044665574): Genoa's policy
#: values the goods its orders lack and spends special cards on them, its evaluation refitted
#: on its playouts, 20-move playouts (2p 28985 decisions, 4p 64747), the others not.
#: Issue 28's villa (was 37044874103974): Genoa's policy plays the goods cards that complete a
#: large order at its villa and values the villa by it, its evaluation refitted on its
#: playouts, and the 2-player search's own tuning (prior weight 2, margin over 100 ducats):
#: 2p 29794 decisions, 4p 64995, the others not.
PINNED_SIGNATURE = 201804708347683
#: The signature of the setups before issue 32 (PUCT over move priors, the learned
#: evaluation, soft rewards, 40 playout moves: issue 21).
PINNED_BEFORE_GENOA = 200772389290214


def test_signature_is_pinned() -> None:
    assert signature() == PINNED_SIGNATURE, (
        "the rules or the search behave differently: if that is intended, pin the new value")


def test_signature_sees_a_change_of_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "SIGNATURE_ITERATIONS", bench.SIGNATURE_ITERATIONS + 1)
    assert signature() != PINNED_SIGNATURE


def test_signature_sees_a_change_of_games() -> None:
    assert signature(seed=bench.BENCH_SEED + 1) != PINNED_SIGNATURE


def test_the_setups_before_genoa_hash_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    before = tuple(setup for setup in signature_setups() if setup[0] != "traders-of-genoa")
    monkeypatch.setattr(bench, "signature_setups", lambda: before)
    assert signature() == PINNED_BEFORE_GENOA


def test_every_registered_game_has_its_setups_in_the_signature() -> None:
    setups = signature_setups()
    assert [game_id for game_id in dict.fromkeys(g for g, _, _ in setups)] == game_ids()
    for game_id, options, players in setups:
        game = get_game(game_id)
        assert players in game.PLAYER_COUNTS and options in game.VARIANTS, (game_id, options, players)


def test_the_report_counts_each_setup_and_names_the_one_that_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    number, setups = signature_report()
    assert number == PINNED_SIGNATURE
    assert [(s.game_id, s.options, s.players) for s in setups] == list(signature_setups())
    assert all(s.decisions > 0 and s.nodes > 0 for s in setups)
    assert setups[0].line().startswith("puerto-rico 2p ")
    assert f"nodes {setups[0].nodes:>6}  hash {setups[0].digest}" in setups[0].line()
    real_analyze = bench.analyze
    monkeypatch.setattr(bench, "analyze", lambda state, budget, params: real_analyze(state, dataclasses.replace(
        budget, iterations=budget.iterations + ("traders_of_genoa" in type(state).__module__)), params))
    moved = signature_report()[1]
    assert [s.game_id for s, m in zip(setups, moved, strict=True) if s.digest != m.digest] == ["traders-of-genoa"] * 2


def test_plan_says_how_long_and_load_warns() -> None:
    measurements = plan(["puerto-rico"], [2, 4], seconds=1.5, threads=[2])
    assert len(measurements) == 2 * (3 + 4)  # per player count: C, Python, C over reference, 2 rollouts x {1, 2} threads
    assert load_warning(0.9, 2) is None
    assert "load average 1.10 on 2 cores" in (load_warning(1.1, 2) or "")


def test_run_bench_tells_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (7.5, 7.0, 6.0))
    report = run_bench(["castles-of-burgundy"], [2], seconds=0.05, threads=[2], say=said.append)
    assert said[0] == "bench: 7 measurements of 0.05 s, about 0 s"
    assert said[1].startswith("bench: warning: load average 7.50 on ")
    assert report["machine"]["load_average_before"] == 7.5 and report["machine"]["load_warning"]
    assert set(report["ratios"]) == {"c_over_python", "c_over_python:castles-of-burgundy:2",
                                     "engine_over_reference:castles-of-burgundy:2",
                                     "ismcts_threads_2_over_1:castles-of-burgundy:2:random",
                                     "ismcts_threads_2_over_1:castles-of-burgundy:2:heuristic"}
