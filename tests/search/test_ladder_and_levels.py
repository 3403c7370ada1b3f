"""The strength work of issue 21: the frozen ``ismcts-v1`` bot, ``level:N`` bots and
their CPU-time levels, MAST playouts, and the ladder's Elo fit."""

from __future__ import annotations


import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from meeplemind.cli import main
from meeplemind.engine import game_ids, get_game
from meeplemind.engine.puerto_rico import new_game
from meeplemind.search import analyze
from meeplemind.search.arena import BotRecord
from meeplemind.search.bots import make_bot
from meeplemind.search.ismcts_bot import TUNING_PARAMS, V1_PARAMS, V1_TUNING
from meeplemind.search.arena import play_arena
from meeplemind.search.ladder import (PairResults, dispersion_of, fit_elo, format_ladder, ladder_pairs, pair_seed, pair_tables,
                                     pairing_scores, run_ladder)
from meeplemind.search.levels import LEVELS, budget_text, level_budget
from meeplemind.search.params import Budget, SearchParams, game_params

#: ismcts-v1's analysis of a fixed position (below), as the search of issue 21's starting
#: commit gave it.  Pin again only when the rules change (the bench signature with them).
V1_PINNED = "95990ae42626"


def _fingerprint(base: SearchParams | None = None, **changes: Any) -> str:
    """The search of a fixed position with ``base`` (None: Puerto Rico's) and its ``changes``."""
    params = replace(base or game_params("puerto-rico"), seed=5, **changes)
    result = analyze(new_game(2, 7), Budget(iterations=400), params)
    facts = [(m.move, m.visits, round(m.win_rate, 9), m.pv) for m in result.moves]
    return hashlib.sha256(repr((result.nodes, facts)).encode()).hexdigest()[:12]


def test_ismcts_v1_is_the_starting_search() -> None:
    assert _fingerprint(V1_PARAMS) == V1_PINNED
    bot = make_bot("ismcts-v1:iterations=400")
    assert V1_TUNING == {key: getattr(V1_PARAMS, key) for key in TUNING_PARAMS if key != "weights"}
    assert bot.options == V1_TUNING | {"iterations": 400}  # type: ignore[attr-defined]


def test_ismcts_v1_takes_budget_keys_only() -> None:
    with pytest.raises(ValueError, match="unknown parameter 'mast'"):
        make_bot("ismcts-v1:cpu_ms=10,mast=0.5")
    assert make_bot("ismcts:cpu_ms=10,mast=0.25").options == {"cpu_ms": 10, "mast": 0.25}  # type: ignore[attr-defined]


def test_every_game_s_levels_are_iterations_then_growing_cpu_time_up_to_one_second() -> None:
    for game_id in game_ids():
        table = {level: level_budget(level, game_id) for level in get_game(game_id).STRENGTH_LEVELS}
        cpu = [b.cpu_ms for n, b in sorted(table.items()) if b.cpu_ms is not None]
        bottom = [b.iterations for n, b in sorted(table.items()) if b.cpu_ms is None]
        assert sorted(table) == list(range(1, 11)) and len(bottom) + len(cpu) == 10 and bottom
        assert all(table[n + 1].iterations is None for n in range(len(bottom), 10))  # iterations first
        assert all(b.time_ms is None and b.threads == 1 for b in table.values())  # never the clock
        assert cpu[-1] == 1000 and cpu == sorted(set(cpu)) and bottom == sorted(set(bottom))
        assert all(type(n) is int for n in bottom)
    assert level_budget(7, "puerto-rico") == Budget(cpu_ms=12)
    for game_id, level in (("puerto-rico", 0), ("castles-of-burgundy", 11)):
        with pytest.raises(ValueError, match=f"^level {level} is not one of 1..10"):
            level_budget(level, game_id)
    with pytest.raises(ValueError, match="^no strength levels for game 'chess'"):
        level_budget(1, "chess")


def test_a_level_bot_plays_each_game_s_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[tuple[str, Budget]] = []

    def analyze_spy(state: Any, budget: Budget, *args: Any, **kwargs: Any) -> Any:
        searched.append((state.game_id, budget))
        return analyze(state, Budget(iterations=5), *args, **kwargs)

    monkeypatch.setattr("meeplemind.search.ismcts_bot.analyze", analyze_spy)
    two = make_bot("level:2")
    for game_id in game_ids():
        assert two.choose(get_game(game_id).new_game(2, 1)) is not None
    assert searched == [(game_id, level_budget(2, game_id)) for game_id in game_ids()]
    assert len({budget for _, budget in searched}) > 1  # the games' level 2 differ
    assert two.options_in("traders-of-genoa") == {"iterations": 100, "threads": 1}  # type: ignore[attr-defined]
    seven = make_bot("level:7")
    assert seven.budget_in("puerto-rico") == Budget(cpu_ms=12)  # type: ignore[attr-defined]
    assert seven.options_in("puerto-rico") == {"cpu_ms": 12, "threads": 1}  # type: ignore[attr-defined]
    for spec in ("level:0", "level:11", "level:", "level:x"):
        with pytest.raises(ValueError, match="expected level:N with N in 1..10"):
            make_bot(spec)


def test_mast_plays_differently_reproducibly_and_checks_its_range() -> None:
    assert _fingerprint(mast=0.0, margin_weight=0.0, playout_moves=0, exploration=0.7,
                        prior_weight=0.0) == _fingerprint(V1_PARAMS)
    assert _fingerprint(mast=0.3) == _fingerprint(mast=0.3) != _fingerprint(mast=0.0)
    for bad in (-0.1, 1.0, float("nan")):
        with pytest.raises(ValueError, match="^mast must"):
            analyze(new_game(2, 7), Budget(iterations=10), replace(game_params("puerto-rico"), mast=bad))


def test_fit_elo_recovers_ratings() -> None:
    # 3 entrants 0, 200 and 400 Elo apart, expected shares filled in exactly
    elo = np.array([0.0, 200.0, 400.0])
    p = 1 / (1 + 10 ** ((elo[None, :] - elo[:, None]) / 400))
    games = np.full((3, 3), 1000.0) - np.eye(3) * 1000
    fitted, half, step_half = fit_elo(p * games, games)
    assert fitted == pytest.approx(elo, abs=1e-6)
    assert half[0] == 0 and 0 < half[1] < half[2] < 60
    assert step_half[0] == 0 and step_half[1] == pytest.approx(half[1])  # entrant 0 is the anchor
    assert 0 < step_half[2] < half[2]  # 1 and 2 err together: their difference is surer than 2 alone
    chain = np.where(np.abs(np.subtract.outer(range(3), range(3))) == 1, 1000.0, 0.0)  # 0-1 and 1-2 only
    fitted, half, step_half = fit_elo(p * chain, chain)
    assert fitted == pytest.approx(elo, abs=1e-6)
    assert step_half[1] == pytest.approx(step_half[2]) and half[2] == pytest.approx(np.hypot(*step_half[1:]))
    # a pair whose games vary half as much as wins and losses: the same ratings, its step's
    # interval narrower by the square root of 2, the other step's unchanged
    dispersion = np.ones((3, 3))
    dispersion[1, 2] = dispersion[2, 1] = 0.5
    fitted, _, narrower = fit_elo(p * chain, chain, dispersion)
    assert fitted == pytest.approx(elo, abs=1e-6)
    assert narrower[1] == pytest.approx(step_half[1]) and narrower[2] == pytest.approx(step_half[2] / np.sqrt(2))


def test_a_pair_s_dispersion_is_its_games_variance_over_a_win_or_loss_s() -> None:
    assert dispersion_of([1, 0, 0, 1]) == 1.0
    assert dispersion_of([1, 0.5, 0]) == pytest.approx((1 / 6) / 0.25)  # 3 players, places equally likely
    assert dispersion_of([0.5, 0.5]) == dispersion_of([1, 1]) == 1.0  # no spread seen: nothing to narrow by


def test_ladder_rates_a_round_robin() -> None:
    report = run_ladder("puerto-rico", ["random", "heuristic", "level:1"], games=2, seed=3)
    assert [e["spec"] for e in report["entrants"]] == ["random", "heuristic", "level:1"]
    assert report["entrants"][0]["elo"] == 0 and all(e["games"] == 4 for e in report["entrants"])
    assert report["entrants"][1]["elo"] > 0  # the heuristic bot beats random moves
    assert len(report["pairs"]) == 3
    assert "Bradley-Terry" in format_ladder(report)
    step = report["entrants"][2]
    assert step["step"] == pytest.approx(step["elo"] - report["entrants"][1]["elo"], abs=0.11)
    assert step["step_ci95"][0] < step["step"] < step["step_ci95"][1]
    for specs, games, field in ((["random"], 2, "at least 2 entrants"), (["random", "random"], 2, "once"),
                                (["random", "heuristic"], 3, "games: 3")):
        with pytest.raises(ValueError, match=field):
            run_ladder("puerto-rico", specs, games=games)
    with pytest.raises(ValueError, match="^reach: 0 must be at least 1"):
        run_ladder("puerto-rico", ["random", "heuristic"], games=2, reach=0)


def test_a_ladder_of_neighbours_plays_adjacent_pairs_only() -> None:
    assert ladder_pairs(4, 1) == [(0, 1), (1, 2), (2, 3)]
    assert ladder_pairs(4, 2) == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
    assert ladder_pairs(3) == [(0, 1), (0, 2), (1, 2)]
    report = run_ladder("puerto-rico", ["random", "heuristic", "level:1"], games=2, seed=3, reach=1)
    assert [p["bots"] for p in report["pairs"]] == [["random", "heuristic"], ["heuristic", "level:1"]]
    assert [e["games"] for e in report["entrants"]] == [2, 4, 2]
    assert "pairs at most 1 apart" in format_ladder(report)


def test_a_game_scores_each_pairing_of_the_two_entrants_by_place() -> None:
    assert pair_tables("a", "b", 2) == [["a", "b"]]
    assert pair_tables("a", "b", 4) == [["a", "b", "b", "b"], ["b", "a", "a", "a"]]
    # seats: a alone; b twice.  Game 1: a first.  Game 2: a second, between the b's.
    # Game 3: a shares second place with one b, the other b first.
    records = [BotRecord(0, "a", places=[1, 2, 2]), BotRecord(1, "b", places=[2, 1, 2]),
               BotRecord(2, "b", places=[3, 3, 1])]
    assert pairing_scores(records, "a") == [1.0, 0.5, 0.25]
    assert pairing_scores(records, "b") == [0.0, 0.5, 0.75]
    # head to head, a game's score is its win share (a tie after the tie-break: half each)
    arena = play_arena("puerto-rico", ["random", "heuristic"], 4, seed=2)
    assert pairing_scores(arena, "random") == arena[0].shares


def test_a_ladder_at_more_players_seats_each_entrant_alone_against_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    tables: list[list[str]] = []
    original = play_arena

    def arena(game_id: str, specs: Sequence[str], games: int, seed: int, *args: Any) -> list[BotRecord]:
        tables.append(list(specs))
        seeds.append(seed)
        return original(game_id, specs, games, seed, *args)

    seeds: list[int] = []
    monkeypatch.setattr("meeplemind.search.ladder.play_arena", arena)
    report = run_ladder("puerto-rico", ["random", "heuristic"], games=6, seed=3, players=3)
    assert tables == [["random", "heuristic", "heuristic"], ["heuristic", "random", "random"]]
    assert seeds[0] == seeds[1]  # the same deals both ways
    assert report["players"] == 3 and [e["games"] for e in report["entrants"]] == [6, 6]
    assert report["entrants"][1]["elo"] > 0 and report["pairs"][0]["win_share"] < 0.5
    assert "3 players" in format_ladder(report) and "pairings' places" in format_ladder(report)
    swept, split = ({**report, "pairs": [{**report["pairs"][0], "win_share": share}]} for share in (0.0, 0.3))
    assert "won every game of random against heuristic: the gap between them rests on the prior's 1 drawn game" \
        in format_ladder(swept)
    assert "won every game" not in format_ladder(split)
    for players, games, message in ((6, 12, "^players: 6 is not a player count of puerto-rico"),
                                    (3, 3, "^games: 3 must be a positive multiple of 6"),
                                    (4, 12, "^games: 12 must be a positive multiple of 8")):
        with pytest.raises(ValueError, match=message):
            run_ladder("puerto-rico", ["random", "heuristic"], games=games, players=players)


def test_a_step_s_interval_is_its_games_spread_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def arena(game_id: str, specs: Sequence[str], games: int, *args: object) -> list[BotRecord]:
        # the bot alone at the table places 1st, 2nd, 3rd in turn: its game scores 1, 0.5, 0
        alone = [1 + g % 3 for g in range(games)]
        others = [[p for p in (1, 2, 3) if p != a] for a in alone]
        return [BotRecord(0, specs[0], places=alone)] + [
            BotRecord(seat, spec, places=[o[seat - 1] for o in others]) for seat, spec in enumerate(specs[1:], 1)]

    monkeypatch.setattr("meeplemind.search.ladder.play_arena", arena)
    results = tmp_path / "pairs.jsonl"
    step = run_ladder("puerto-rico", ["random", "heuristic"], games=12, players=3, results=str(results))["entrants"][1]
    assert step["step"] == 0 and json.loads(results.read_text())["dispersion"] == pytest.approx(2 / 3)
    binomial = fit_elo(np.array([[0, 6.5], [6.5, 0]]), np.array([[0, 13.0], [13.0, 0]]))[2][1]  # 1 prior draw
    assert step["step_ci95"][1] == pytest.approx(binomial * np.sqrt(2 / 3), abs=0.1)


def test_a_results_file_keeps_player_counts_apart_and_reads_records_of_before_them(tmp_path: Path) -> None:
    results = tmp_path / "pairs.jsonl"
    seed = pair_seed(3, "random", "heuristic")
    # a 2-player record as a results file held it before ladders had player counts
    results.write_text(json.dumps({"key": json.dumps(["puerto-rico", "random", "heuristic", None, None, 2, seed, {}]),
                                   "win_share": 0.25}) + "\n")
    assert run_ladder("puerto-rico", ["random", "heuristic"], games=2, seed=3,
                      results=str(results))["pairs"][0]["win_share"] == 0.25
    assert len(results.read_text().splitlines()) == 1
    assert PairResults(str(results)).known.popitem()[1] == (0.25, 1.0)  # no dispersion kept then: a win or loss's
    three = PairResults.key("puerto-rico", "random", "heuristic", 2, seed, {}, 3)
    assert three != PairResults.key("puerto-rico", "random", "heuristic", 2, seed, {})


def test_a_results_file_resumes_a_ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "pairs.jsonl"
    first = run_ladder("puerto-rico", ["random", "heuristic", "level:1"], games=2, seed=3, reach=1,
                       results=str(results))
    assert len(results.read_text().splitlines()) == 2
    played: list[list[str]] = []

    def arena(game_id: str, specs: Sequence[str], games: int, *args: object) -> list[BotRecord]:
        played.append(list(specs))
        return [BotRecord(seat, spec, places=[1] * games) for seat, spec in enumerate(specs)]

    monkeypatch.setattr("meeplemind.search.ladder.play_arena", arena)
    # the pairs found are not played again, whatever else the ladder holds
    again = run_ladder("puerto-rico", ["heuristic", "level:1", "level:2"], games=2, seed=3, reach=1,
                       results=str(results))
    assert played == [["level:1", "level:2"]] and len(results.read_text().splitlines()) == 3
    assert again["pairs"][0] == first["pairs"][1]
    run_ladder("puerto-rico", ["heuristic", "level:1"], games=4, seed=3, results=str(results))
    assert played[-1] == ["heuristic", "level:1"]  # another number of games is another record
    monkeypatch.setitem(get_game("traders-of-genoa").STRENGTH_LEVELS, 1, {"iterations": 11})
    run_ladder("puerto-rico", ["random", "heuristic", "level:1"], games=2, seed=3, reach=1, results=str(results))
    assert len(played) == 2  # another game's level redefined: Puerto Rico's pairs stand
    monkeypatch.setitem(get_game("puerto-rico").STRENGTH_LEVELS, 1, {"iterations": 11})
    run_ladder("puerto-rico", ["random", "heuristic", "level:1"], games=2, seed=3, reach=1, results=str(results))
    assert played[-1] == ["heuristic", "level:1"] and len(played) == 3  # a level redefined plays again
    for bad in ("{not json", '[1]', '{"key": "k", "win_share": 1.5}', '{"key": "k", "win_share": 0.5, "dispersion": 0}',
                '{"key": "k", "win_share": 0.5, "dispersion": NaN}'):
        results.write_text(bad + "\n")
        with pytest.raises(ValueError, match="^results: .* line 1 is not a ladder pair record"):
            run_ladder("puerto-rico", ["random", "heuristic"], games=2, results=str(results))


def test_ladder_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "puerto-rico", "--bot", "random", "--bot", "heuristic", "--games", "2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry" in out and "heuristic" in out
    for args, message in ((["--levels", "0-3"], "--levels '0-3': levels are 1..10"),
                          (["--levels", "a"], "expected A-B or A,B,C"),
                          (["--bot", "random", "--levels", "1", "--games", "3"], "games: 3 must be a positive multiple of 2")):
        assert main(["ladder", "puerto-rico", "--quiet", *args]) == 2
        assert message in capsys.readouterr().err


#: Where the docs give each game's level table: its file under docs/ and the table's heading.
LEVEL_TABLES = {"puerto-rico": ("search.md", "## Strength levels and the Elo ladder"),
                "traders-of-genoa": ("games/traders-of-genoa.md", "### The Elo ladder"),
                "castles-of-burgundy": ("games/castles-of-burgundy.md", "## Strength levels")}


def test_the_docs_quote_every_game_s_level_table_and_the_proto_refers_to_them() -> None:
    root = Path(__file__).resolve().parents[2]
    assert sorted(LEVEL_TABLES) == sorted(game_ids())
    for game_id, (page, heading) in LEVEL_TABLES.items():
        text = (root / "docs" / page).read_text()
        section = text.split(f"\n{heading}\n", 1)[1].split("\n" + heading.split()[0] + " ", 1)[0]
        quoted = {int(level): budget for level, budget in re.findall(r"^\| (\d+) \| ([^|]+?) \|", section, re.M)}
        assert quoted == {level: budget_text(level, game_id) for level in LEVELS}, game_id
    proto = (root / "proto" / "meeplemind" / "v1" / "analysis.proto").read_text()
    comment = proto.split("oneof strength {", 1)[1].split("int32 level = 3;", 1)[0]
    assert "docs/search.md#strength-levels-and-the-elo-ladder" in comment
    assert not re.search(r"\d ms|\d iterations|\d Elo", comment), "the proto quotes the table: refer to it instead"


def test_budget_text_says_iterations_or_cpu_time() -> None:
    assert budget_text(1, "puerto-rico") == "10 iterations" and budget_text(4, "puerto-rico") == "1.9 ms of CPU"
