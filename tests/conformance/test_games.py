"""The conformance suite: what every registered game must do, checked the same way.

For each game, each player count and each of its rule ``VARIANTS`` (e.g. an expansion),
seeded random games are played to the end and at
every step:

- the legal moves are sorted unique action ids, each with a notation that parses back
  to the same move and an id that maps back to it;
- the state survives JSON (``to_dict``/``from_dict``, through the schema), state-vector
  (``encode``/``decode``, checked or not) and schema (message <-> vector <-> state)
  round trips unchanged, and ``apply`` leaves it unchanged;
- every few steps, for every seat: the observation is idempotent, a determinization
  looks exactly like the observation to that seat, and for the seat to move it offers
  the same legal moves (what ISMCTS relies on);
- at the end: no player to move, no legal move, scores and returns for every seat.

Seeded games replay move for move. Lockstep with the C twins and decoder fuzzing are in
``tests/native`` (driven by the same registry of games).
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from meeplemind.positions import accept
from meeplemind.positions import state_dict, state_from_dict
from meeplemind.engine import Rng, game_ids, get_game
from meeplemind.positions import vector_codec

GAMES_PER_SETUP, DEEP_GAMES_PER_SETUP = 4, 40  # CI, make test-deep
OBSERVE_EVERY = 7
MAX_MOVES = 20_000


def _setups() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for game_id in game_ids():
        game = get_game(game_id)
        for options in game.VARIANTS:
            out += [(game_id, players, dict(options)) for players in game.PLAYER_COUNTS]
    return out


SETUPS = _setups()


def _name(setup: tuple[str, int, dict[str, Any]]) -> str:
    game_id, players, options = setup
    return "-".join([game_id, f"{players}p", *(f"{k}={v}" for k, v in options.items())])


def _check_position(game: ModuleType, state: Any) -> None:
    assert state_from_dict(state.game_id, json.loads(json.dumps(state_dict(state)))) == state
    _check_schema_round_trips(game, state)
    assert accept(game, state.encode()).state() == state == game.decode(state.encode())
    legal = state.legal_action_ids()
    assert legal == sorted(set(legal))
    moves = state.legal_moves()
    assert [m.id for m in moves] == legal
    for move in moves:
        assert game.Move.parse(str(move)) == move
        assert state.move_from_id(move.id) == move


def _check_schema_round_trips(game: ModuleType, state: Any) -> None:
    """message <-> vector <-> reference state through the game's schema, both ways."""
    vector = state.encode().tolist()
    schema = next(s for s in game.SCHEMAS if s.version == vector[0])
    message = vector_codec.write(schema, vector)
    assert game.schema_of(message) is schema
    assert vector_codec.read(schema, message) == vector
    assert accept(game, vector_codec.read(schema, message)).state() == state


def _check_views(game: ModuleType, state: Any, rng: Rng) -> None:
    for viewer in range(state.num_players):
        seen = state.observation(viewer)
        assert seen.observation(viewer) == seen
        sample = state.determinize(viewer, rng)
        assert accept(game, sample.encode()).state() == sample
        assert np.array_equal(sample.observation(viewer).encode(), seen.encode())
        if viewer == state.current_player:
            assert sample.legal_action_ids() == state.legal_action_ids()


def play_conforming(game: ModuleType, players: int, options: dict[str, Any], seed: int) -> list[str]:
    """One random game with every check; returns its moves in notation."""
    state = game.new_game(players, seed=seed, **options)
    rng, views, line = Rng(seed * 7919 + players), Rng(seed), []
    while not state.is_terminal:
        _check_position(game, state)
        if len(line) % OBSERVE_EVERY == 0:
            _check_views(game, state, views)
        legal = state.legal_moves()
        move = legal[rng.below(len(legal))]
        before, previous = state.encode().tolist(), state  # the whole state (_check_position)
        state = state.apply(move, rng) if len(line) % 2 else state.apply(str(move), rng)
        assert previous.encode().tolist() == before
        line.append(str(move))
        assert len(line) < MAX_MOVES, "a random game must end"
    _check_position(game, state)
    assert state.current_player is None and state.legal_action_ids() == []
    assert len(state.scores()) == players
    assert sum(state.returns()) == pytest.approx(1.0)
    return line


@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_random_games_conform(setup: tuple[str, int, dict[str, Any]]) -> None:
    game_id, players, options = setup
    for seed in range(GAMES_PER_SETUP):
        play_conforming(get_game(game_id), players, options, seed)


@pytest.mark.deep
@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_random_games_conform_deep(setup: tuple[str, int, dict[str, Any]]) -> None:
    game_id, players, options = setup
    for seed in range(GAMES_PER_SETUP, DEEP_GAMES_PER_SETUP):
        play_conforming(get_game(game_id), players, options, seed)


@pytest.mark.parametrize("game_id,options", [(g, o) for g in game_ids() for o in get_game(g).VARIANTS])
def test_seeded_games_replay(game_id: str, options: dict[str, Any]) -> None:
    game = get_game(game_id)

    def transcript(seed: int) -> list[str]:
        state, rng, line = game.new_game(game.PLAYER_COUNTS[-1], seed, **options), Rng(seed), []
        while not state.is_terminal:
            legal = state.legal_moves()
            line.append(str(legal[rng.below(len(legal))]))
            state = state.apply(line[-1], rng)
        return line + [str(state.scores())]

    assert transcript(5) == transcript(5)
    assert transcript(5) != transcript(6)


@pytest.mark.parametrize("game_id", game_ids())
def test_game_module_interface(game_id: str) -> None:
    game = get_game(game_id)
    assert game.GAME_ID == game_id and game.TITLE
    assert game.VECTOR_LEN == len(game.LAYOUT)
    for options in game.VARIANTS:  # every variant's vector names each of its entries
        vec = game.new_game(max(game.PLAYER_COUNTS), 1, **options).encode()
        assert len(game.layout_for(vec)) == len(vec)
    ids = [move.id for move in game.ALL_MOVES]
    assert ids == sorted(set(ids)) and 0 <= ids[0] and ids[-1] < game.NUM_ACTIONS
    for move in game.ALL_MOVES:
        assert game.Move.from_id(move.id) == move and game.Move.parse(str(move)) == move
