"""The engines' speed against the bench's reference workload (issue 32, point 6).

``engine_over_reference`` divides random C playouts per CPU-second by the units per
CPU-second of a fixed C routine built with the same flags, the two alternating in one
process: a ratio the machine and its load leave alone, which falls when an engine gets
slower.  Each game's ``SPEED_FLOORS`` hold it; docs/measurements.md has the measured
history the floors come from.  The ratio moves by up to a fifth between quiet and loaded
moments (not within one), so a floor catches a loss of a fifth; the loss of a tenth (e7a3b97's)
is caught by the counted budgets of tests/native/test_engine_instructions.py (make test-deep)."""

from __future__ import annotations

from typing import Any

import pytest

from meeplemind.engine import game_ids, get_game
from meeplemind.native import NativeGame, reference_work
from meeplemind.search import bench

#: mm_reference_work(3, 1): the reference workload is kept unchanged, or the measured
#: history stops comparing like with like.
REFERENCE_CHECKSUM = 1760891174461807033
#: CPU seconds per measurement, and the measurements a floor gets before it fails:
#: a loaded machine blurs a ratio a little either way, a slower engine lowers them all.
SECONDS, ATTEMPTS = 0.5, 3

SETUPS = [(game_id, players) for game_id in game_ids() for players in sorted(get_game(game_id).SPEED_FLOORS)]


def test_the_reference_workload_is_unchanged() -> None:
    assert reference_work(3, 1) == REFERENCE_CHECKSUM
    assert reference_work(3, 2) != REFERENCE_CHECKSUM and reference_work(0, 1) == 0
    with pytest.raises(ValueError, match="units: -1 is negative"):
        reference_work(-1, 1)


def test_every_game_has_floors_for_player_counts_it_is_played_by() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        assert game.SPEED_FLOORS and set(game.SPEED_FLOORS) <= set(game.PLAYER_COUNTS), game_id
        assert all(floor > 0 for floor in game.SPEED_FLOORS.values()), game_id


def _best_ratio(game_id: str, players: int, floor: float) -> list[float]:
    """The ratios measured until one reaches the floor (at most ATTEMPTS)."""
    ratios: list[float] = []
    while len(ratios) < ATTEMPTS and (not ratios or max(ratios) < floor):
        ratios.append(bench.engine_over_reference(get_game(game_id), players, SECONDS)["engine_over_reference"])
    return ratios


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
def test_the_engine_keeps_its_speed_over_the_reference(game_id: str, players: int) -> None:
    floor = get_game(game_id).SPEED_FLOORS[players]
    ratios = _best_ratio(game_id, players, floor)
    assert max(ratios) >= floor, (
        f"{game_id} {players}p: C playouts per reference unit {ratios} below the floor {floor}: "
        "the engine got slower (docs/measurements.md says how it was measured)")


def test_a_slower_engine_falls_below_its_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: an engine doing each playout a second time (half as fast)."""
    playouts = NativeGame.playouts

    def twice(self: NativeGame, buf: Any, games: int, seed: int, policy: int = 0) -> int:
        playouts(self, buf, games, seed + 1, policy)
        return playouts(self, buf, games, seed, policy)

    monkeypatch.setattr(NativeGame, "playouts", twice)
    game_id, players = SETUPS[0]
    assert max(_best_ratio(game_id, players, get_game(game_id).SPEED_FLOORS[players])) < (
        get_game(game_id).SPEED_FLOORS[players])


def test_bench_reports_the_ratio_per_game() -> None:
    report = bench.run_bench(["traders-of-genoa"], [2], seconds=0.05, threads=[2])
    record = next(r for r in report["results"] if r["engine"] == "c/reference")
    assert record["playouts_per_cpu_s"] > 0 and record["reference_per_cpu_s"] > 0
    assert report["ratios"]["engine_over_reference:traders-of-genoa:2"] == record["engine_over_reference"]
