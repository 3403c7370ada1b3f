"""No answer depends on what its viewer cannot see (docs/positions.md), for every registered
game and player count:

- for positions of random games and every viewer, the mover or not, two full-information
  positions that give the viewer the same observation (the truth, and another deal of what
  he cannot see) get the same Analyze answer (fixed seed, iteration budget, one thread),
  through the library and through the service, which masks a full position itself;
- a follower of a game from one seat, told only what the rules show that seat, replays
  whole games move by move (every decision, forced ones too: a follower plays only the
  moves it is sent): after every move its position is the truth's observation.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any
from dataclasses import replace

import grpc
import pytest

from meeplemind.engine import Rng, game_ids, get_game
from meeplemind.positions.messages import state_key, to_message
from meeplemind.search.ismcts import analyze
from meeplemind.v1 import analysis_pb2

from meeplemind.server.app import create_server
from meeplemind.v1 import analysis_pb2_grpc, rules_pb2_grpc
from meeplemind.search.params import Budget, game_params

from ..server.conftest import Running

ITERATIONS = 120
POSITIONS_PER_SETUP = 3
SETUPS = [(game_id, players) for game_id in game_ids() for players in get_game(game_id).PLAYER_COUNTS]


def _name(setup: tuple[str, int]) -> str:
    return f"{setup[0]}-{setup[1]}p"


def _chance(game_id: str) -> ModuleType | None:
    """The game's ``chance`` module (what a move shows a follower), if it hides anything."""
    try:
        return importlib.import_module(f"meeplemind.engine.{state_key(game_id)}.chance")
    except ModuleNotFoundError:
        return None


def _positions(game_id: str, players: int, seed: int) -> Iterator[Any]:
    """A few positions along a seeded random game."""
    state, rng = get_game(game_id).new_game(players, seed), Rng(seed)
    steps, every = 0, 17 + 5 * seed
    while not state.is_terminal:
        if steps and steps % every == 0:
            yield state
        legal = state.legal_moves()
        state = state.apply(legal[rng.below(len(legal))], rng)
        steps += 1


def _pairs(game_id: str, players: int) -> Iterator[tuple[Any, Any, int]]:
    """(truth, another full state the viewer cannot tell from it, viewer)."""
    for seed, state in zip(range(POSITIONS_PER_SETUP), _positions(game_id, players, 1)):
        for viewer in range(players):
            other = state.determinize(viewer, Rng(1000 + seed))
            assert other.observation(viewer) == state.observation(viewer)
            yield state, other, viewer


def _answer(analysis: Any) -> list[tuple[str, int, float]]:
    return [(m.move, m.visits, round(m.win_rate, 9)) for m in analysis.moves]


@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_analyze_answers_the_same_for_positions_the_viewer_cannot_tell_apart(setup: tuple[str, int]) -> None:
    differ = 0
    for truth, other, viewer in _pairs(*setup):
        differ += truth != other
        params = replace(game_params(truth.game_id), seed=7, viewer=viewer)
        answers = [_answer(analyze(s, Budget(iterations=ITERATIONS), params)) for s in (truth, other)]
        assert answers[0] == answers[1], (viewer, truth.current_player)
    if _chance(setup[0]) is not None:
        assert differ, "no pair hid anything: the test would prove nothing"


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    """A server searching one request at a time."""
    grpc_server, port = create_server("127.0.0.1:0", max_searches=1, max_queue=2, threads_per_search=1)
    grpc_server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield Running(grpc_server, port, channel, rules_pb2_grpc.RulesStub(channel), analysis_pb2_grpc.AnalysisStub(channel))
    channel.close()
    grpc_server.stop(None).wait()


@pytest.mark.parametrize("game_id", [g for g in game_ids() if _chance(g) is not None])
def test_the_service_masks_a_full_position_to_its_viewer(server: Running, game_id: str) -> None:
    players = get_game(game_id).PLAYER_COUNTS[-1]
    for truth, other, viewer in _pairs(game_id, players):
        budget = analysis_pb2.SearchBudget(iterations=ITERATIONS, threads=1)
        answers = [server.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            position=to_message(s, viewer), budget=budget, seed=3)) for s in (truth, other, truth.observation(viewer))]
        moves = [[(m.move, m.visits) for m in a.moves] for a in answers]
        assert moves[0] == moves[1] == moves[2]


@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_a_follower_replays_whole_games_from_each_seat(setup: tuple[str, int]) -> None:
    game_id, players = setup
    chance = _chance(game_id)
    truth, rng = get_game(game_id).new_game(players, 5), Rng(5)
    followers = [truth.observation(seat) for seat in range(players)]
    moves = 0
    while not truth.is_terminal:
        legal = truth.legal_moves()
        move, seed = legal[rng.below(len(legal))], rng.next64()
        witness = chance.Witness(seed) if chance else Rng(seed)
        after = truth.apply(move, witness, play_forced=chance is None)  # a game that hides nothing: its own
        for seat in range(players):
            shown = chance.shown_to(seat, truth, after, witness) if chance else []
            followers[seat] = followers[seat].follow(str(move), Rng(seed), seat, shown)
            assert followers[seat] == after.observation(seat), (moves, seat, str(move))
        truth, moves = after, moves + 1
    assert moves > 50


def test_the_service_follows_a_game_from_one_seat(server: Running) -> None:
    """Rules.ApplyMove on seat 1's observation, told what each move showed him (``shown``),
    stays the truth's observation to the end; a told outcome that cannot be is refused."""
    from meeplemind.positions.messages import message_to_dict, to_position
    from meeplemind.v1 import rules_pb2

    chance = _chance("traders-of-genoa")
    assert chance is not None
    truth, rng, seat = get_game("traders-of-genoa").new_game(3, 8), Rng(8), 1  # every decision sent
    position = server.rules.Observe(rules_pb2.ObserveRequest(position=to_message(truth, seat))).position
    while not truth.is_terminal:
        legal = truth.legal_moves()
        move, seed = legal[rng.below(len(legal))], rng.next64()
        witness = chance.Witness(seed)
        after = truth.apply(move, witness, play_forced=False)
        shown = chance.shown_to(seat, truth, after, witness)
        position = server.rules.ApplyMove(rules_pb2.ApplyMoveRequest(
            position=position, move=str(move), seed=seed, shown=shown)).position
        assert message_to_dict(position) == to_position(after.observation(seat), seat)
        truth = after
    start = get_game("traders-of-genoa").new_game(3, 8).observation(seat)
    for shown, problem in ((["square:1.1"], "shown: 1.1 did not happen in this move"),
                           (["square:9.9"], "shown[0]: 'square:9.9' is not a square rolled")):
        with pytest.raises(grpc.RpcError) as refused:
            server.rules.ApplyMove(rules_pb2.ApplyMoveRequest(
                position=to_message(start, seat), move=str(start.legal_moves()[0]), shown=shown))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.details().startswith(problem)
