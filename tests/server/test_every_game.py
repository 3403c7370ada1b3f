"""Every registered game through every RPC, the same way: a new game, its legal moves,
moves applied, an analysis and a bot move, each answer checked against the engine.

Each game in each of its rule variants (``VARIANTS``)."""

from __future__ import annotations

from typing import Any

import pytest

from meeplemind.engine import Rng, game_ids, get_game
from meeplemind.positions.messages import to_position
from meeplemind.positions.messages import message_to_dict
from meeplemind.search.levels import level_budget
from meeplemind.v1 import analysis_pb2, rules_pb2

from .conftest import Running

CASES = [(game_id, players, options) for game_id in game_ids()
         for options in get_game(game_id).VARIANTS
         for players in get_game(game_id).PLAYER_COUNTS[:2]]


def _name(case: tuple[str, int, dict[str, Any]]) -> str:
    game_id, players, options = case
    return "-".join([game_id, f"{players}p", *(f"{k}={v}" for k, v in options.items())])


def test_list_games_lists_every_game(service: Running) -> None:
    games = service.rules.ListGames(rules_pb2.ListGamesRequest()).games
    assert [g.id for g in games] == game_ids()
    for info in games:
        game = get_game(info.id)
        assert (info.title, tuple(info.player_counts)) == (game.TITLE, tuple(game.PLAYER_COUNTS))
        assert [o.name for o in info.options] == list(game.OPTION_VALUES)


@pytest.mark.parametrize("case", CASES, ids=_name)
def test_every_rpc(service: Running, case: tuple[str, int, dict[str, Any]]) -> None:
    game_id, players, options = case
    game = get_game(game_id)
    request = rules_pb2.NewGameRequest(game=game_id, players=players, seed=3,
                                       options={k: str(v) for k, v in options.items()})
    position = service.rules.NewGame(request).position
    state = game.new_game(players, 3, **options)
    viewer = position.viewer
    assert message_to_dict(position) == to_position(state)  # the whole game: a host's truth
    rng = Rng(5)
    for step in range(40):  # the opening, through the server and the engine side by side
        legal = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
        seen = state.observation(viewer)  # the legal moves as the viewer knows them
        assert [(m.notation, m.action) for m in legal.moves] == [(str(m), m.id) for m in seen.legal_moves()]
        assert legal.current_player == state.current_player
        move = seen.legal_moves()[rng.below(len(legal.moves))]
        applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=str(move),
                                                                     seed=step))
        state = state.apply(move, Rng(step))  # the truth stays the truth
        position = applied.position
        assert message_to_dict(position) == to_position(state, viewer)
        observed = service.rules.Observe(rules_pb2.ObserveRequest(position=position)).position
        assert message_to_dict(observed) == to_position(state.observation(viewer), viewer)
        if state.is_terminal:
            break
    budget = analysis_pb2.SearchBudget(iterations=300)
    analysis = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position, budget=budget, seed=1))
    assert analysis.stats.iterations == 300 and analysis.stats.player == state.current_player
    _only_moves_the_viewer_cannot_rule_out({m.move for m in analysis.moves}, state, viewer)
    assert sum(m.visits for m in analysis.moves) == 300
    assert all(len(m.expected_scores) == players for m in analysis.moves)
    best = service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, budget=budget, seed=1))
    assert best.move == analysis.moves[0].move
    two = service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, level=2, seed=1))
    assert two.stats.iterations == level_budget(2, game_id).iterations  # the game's own level 2


def _only_moves_the_viewer_cannot_rule_out(moves: set[str], state: Any, viewer: int) -> None:
    """The analysis names the mover's legal moves; when the viewer is not the mover, it may
    also name an offer of a card the viewer cannot see (Traders of Genoa's ``give:small_1``:
    the search deals the mover's hand from the viewer's knowledge, docs/positions.md)."""
    extra = moves - {str(m) for m in state.legal_moves()}
    if not extra:
        return
    from meeplemind.engine.traders_of_genoa.data import CARD_NAMES, UNSEEN

    assert state.game_id == "traders-of-genoa" and state.current_player != viewer, extra
    seen = state.observation(viewer)
    for move in extra:
        card = move.removeprefix("give:")
        assert card in CARD_NAMES and seen.cards[CARD_NAMES.index(card)] == UNSEEN, move
