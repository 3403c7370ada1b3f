"""Positions from another client's table (issue 16): for every game and variant, random
games in which a client-side model replays every compound decision (Mayor placements,
storage choices) in a shuffled order and submits the positions with a forced move before
``apply`` would play them. Every state it submits is accepted by the CLI (``moves``) and
the service, their legal moves agree with the engine's, and analysis answers with legal
moves (the service's for every state, the CLI's for the forced, partial and finished ones)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meeplemind.cli import main
from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import dumps, to_position
from meeplemind.engine.puerto_rico.state import PH_MAYOR, PH_STORAGE
from meeplemind.server.convert import position_to_proto
from meeplemind.v1 import analysis_pb2, rules_pb2

from .conftest import Running

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

VARIANTS = [("puerto-rico", 2, {}), ("puerto-rico", 4, {}), ("puerto-rico", 3, {"expansion": "new-buildings"}),
            ("castles-of-burgundy", 2, {}), ("castles-of-burgundy", 3, {})]
COMPOUND = (PH_MAYOR, PH_STORAGE)  # Puerto Rico's decisions made one move at a time


def _decision(state: Any, pick: random.Random, rng: Rng) -> tuple[list[Any], Any]:
    """The moves of the current player's whole compound decision, picked at random (forced
    ones included), and the engine's state after it."""
    who, phase, moves = state.current, state.phase, []
    while not state.is_terminal and state.phase == phase and state.current == who:
        if phase == PH_MAYOR and moves and state.to_place == 0:
            break
        move = pick.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move, rng, play_forced=False)
    return moves, state


def _client_order(moves: list[Any], expansion: bool, pick: random.Random) -> list[Any]:
    """The order another client's player made the choices in: any order, except that the
    base game's positions have no kept barrels before the warehouses are named."""
    stores, keeps = [m for m in moves if m.kind == "store"], [m for m in moves if m.kind == "keep"]
    if stores and keeps and not expansion:
        pick.shuffle(stores)
        return stores + keeps
    order = moves[:]
    pick.shuffle(order)
    return order


def _made(state: Any, move: Any) -> None:
    """The client's record of one choice of a compound decision (its own state model)."""
    if move.kind == "place":
        state.players[state.current].staff(move.arg, 1)
        state.to_place -= 1
        state.last_slot = 0  # the client knows no order: the canonical one restarts
    elif move.kind == "store":
        state.store_mask |= 1 << move.arg
    else:
        state.kept[move.arg] += 1


def client_states(game_id: str, players: int, options: dict[str, Any], seed: int) -> Iterator[tuple[str, Any]]:
    """(kind, state) of every position a client submits in one random game: "forced" (one
    legal move), "partial" (a compound decision part made, in the client's order) or
    "decision"; and the finished game last ("finished")."""
    state, rng, pick = get_game(game_id).new_game(players, seed, **options), Rng(seed), random.Random(seed)
    expansion = "expansion" in options
    while not state.is_terminal:
        yield ("forced" if len(state.legal_moves()) == 1 else "decision"), state
        if game_id != "puerto-rico" or state.phase not in COMPOUND:
            state = state.apply(pick.choice(state.legal_moves()), rng, play_forced=False)
            continue
        moves, after = _decision(state, pick, rng)
        partial = state.copy()
        for move in _client_order(moves, expansion, pick)[:-1]:  # the last one finishes it
            _made(partial, move)
            yield "partial", partial.copy()
        state = after
    yield "finished", state


def _cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], state: Any,
         analyse: bool) -> tuple[list[str], dict[str, Any] | None]:
    """``meeplemind moves`` of the state's position file, and ``analyze --json`` if asked."""
    path = tmp_path / "position.json"
    path.write_text(dumps(to_position(state)))
    assert main(["moves", str(path)]) == 0
    moves = capsys.readouterr().out.splitlines()
    if not analyse:
        return moves, None
    assert main(["analyze", str(path), "--iterations", "8", "--seed", "1", "--json"]) == 0
    return moves, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("game_id", "players", "options"), VARIANTS)
def test_every_client_position_is_accepted_and_analysed(service: Running, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str], game_id: str,
                                                        players: int, options: dict[str, Any]) -> None:
    counts: Counter[str] = Counter()
    for kind, state in client_states(game_id, players, options, seed=players):
        counts[kind] += 1
        legal = [str(m) for m in state.legal_moves()]
        position = position_to_proto(state)
        listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
        assert [m.notation for m in listed.moves] == legal, kind
        analysed = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            position=position, seed=1, budget=analysis_pb2.SearchBudget(iterations=8, threads=1)))
        assert {m.move for m in analysed.moves} <= set(legal) and bool(analysed.moves) == bool(legal), kind
        moves, report = _cli(tmp_path, capsys, state, analyse=kind != "decision")  # the CLI's search: new kinds
        if kind == "finished":
            assert analysed.HasField("result") and report and report["result"]["scores"] == state.scores()
            continue
        assert moves == legal
        assert report is None or (report["moves"] and {m["move"] for m in report["moves"]} <= set(legal))
        if kind == "forced":
            applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=legal[0]))
            assert applied.position.game == game_id
    print(f"\n{game_id} {players}p {options or ''}: {sum(counts.values())} states submitted, {dict(counts)}")
    assert counts["forced"] and counts["finished"] == 1
    if game_id == "puerto-rico":
        assert counts["partial"] > 0
