"""The Rules service over a real channel: every RPC, and positions that round-trip."""

from __future__ import annotations

import subprocess
import sys

from google.protobuf import json_format

from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import dumps, read_position, to_position
from meeplemind.positions.messages import message_to_dict
from meeplemind.server.convert import position_to_proto
from meeplemind.v1 import position_pb2, rules_pb2

from .conftest import Running, played


def _cli(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "meeplemind", *args], capture_output=True, text=True,
                          check=True).stdout


def test_list_games(service: Running) -> None:
    games = service.rules.ListGames(rules_pb2.ListGamesRequest()).games
    assert [g.id for g in games] == ["puerto-rico", "castles-of-burgundy", "traders-of-genoa"]
    pr = games[0]
    assert (pr.title, list(pr.player_counts)) == ("Puerto Rico", [2, 3, 4, 5])
    assert [(o.name, list(o.values), o.default_value) for o in pr.options] == [
        ("university_factory_swap", ["false", "true"], "false"),
        ("expansion", ["none", "new-buildings"], "none"),
        ("draft", ["players", "random"], "players"),
        ("buildings", [], "")]


def test_new_game_prints_what_the_cli_prints(service: Running) -> None:
    response = service.rules.NewGame(rules_pb2.NewGameRequest(game="puerto-rico", players=3, seed=11))
    printed = _cli("new", "puerto-rico", "--players", "3", "--seed", "11")
    assert dumps(message_to_dict(response.position)) + "\n" == printed


def test_new_game_with_the_expansion(service: Running) -> None:
    options = {"expansion": "new-buildings", "draft": "random"}
    response = service.rules.NewGame(rules_pb2.NewGameRequest(
        game="puerto-rico", players=3, seed=5, options=options))
    expected = get_game("puerto-rico").new_game(3, 5, **options)
    assert message_to_dict(response.position) == to_position(expected)
    assert len(response.position.puerto_rico.new_buildings.violet_buildings) == 17
    printed = _cli("new", "puerto-rico", "--players", "3", "--seed", "5",
                   "--option", "expansion=new-buildings", "--option", "draft=random")
    assert dumps(message_to_dict(response.position)) + "\n" == printed


def test_new_game_options(service: Running) -> None:
    response = service.rules.NewGame(rules_pb2.NewGameRequest(
        game="puerto-rico", players=2, seed=1, options={"university_factory_swap": "Yes"}))
    assert response.position.puerto_rico.options.university_factory_swap
    expected = get_game("puerto-rico").new_game(2, 1, university_factory_swap=True)
    assert message_to_dict(response.position) == to_position(expected)


def test_legal_moves_are_the_engines(service: Running, position: position_pb2.Position) -> None:
    state = read_position(message_to_dict(position)).state()
    response = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert [(m.notation, m.action) for m in response.moves] == [(str(m), m.id) for m in state.legal_moves()]
    assert response.current_player == state.current_player


def test_apply_move_follows_the_engine_and_keeps_the_viewer(service: Running) -> None:
    state, viewer, seed = played(4, 8, 5), 2, 99
    position = position_to_proto(state, viewer)
    for step in range(30):
        move = str(state.legal_moves()[step % len(state.legal_moves())])
        response = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=move,
                                                                     seed=seed + step))
        state = state.apply(move, Rng(seed + step))
        assert dumps(message_to_dict(response.position)) == dumps(to_position(state, viewer))
        position = response.position


def test_position_file_round_trips_through_cli_and_service(service: Running, tmp_path) -> None:
    """CLI file -> service -> file -> CLI: same text as the CLI alone, same moves."""
    start = tmp_path / "start.json"
    start.write_text(_cli("new", "puerto-rico", "--players", "4", "--seed", "21"))
    position = json_format.Parse(start.read_text(), position_pb2.Position())
    move = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position)).moves[0].notation
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=move, seed=5))
    after = tmp_path / "after.json"
    after.write_text(dumps(message_to_dict(applied.position)) + "\n")
    assert after.read_text() == _cli("apply", str(start), move, "--seed", "5")
    again = json_format.Parse(after.read_text(), position_pb2.Position())
    served = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=again)).moves
    assert [m.notation for m in served] == _cli("moves", str(after)).split()
