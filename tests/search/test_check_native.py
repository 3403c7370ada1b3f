"""Every path reads a position through one entry point, ``positions.read``: the schema reads
the vector and one C decode gives the verdict (accepted, or PositionError naming the field
in the decoder's words). Mutated positions of every game and variant are judged by exactly
one C decode, nothing but PositionError comes out, and a search's refusal (a code and an
index) is explained in the same words."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator
from typing import Any
from dataclasses import replace

import pytest

from meeplemind.engine import PositionError, Rng, game_ids, get_game
from meeplemind.native import NativeDecodeError, NativeGame
from meeplemind.positions import explain, from_state, read
from meeplemind.positions.messages import parse_position, to_position
from meeplemind.search.ismcts import analyze
from meeplemind.server.convert import position_to_proto
from meeplemind.search.params import Budget, game_params

MUTANTS = 400
VALUES: tuple[Any, ...] = (-1, 0, 1, 2, 3, 5, 7, 40, 10**9, -(10**9), "", "x", None, True, [], {},
                           "castle", "corn", "A", 1.5)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game of every C decode (``NativeGame.decode``) while the test runs."""
    seen: list[str] = []
    decode = NativeGame.decode

    def counted(self: NativeGame, vec: Any) -> bytearray:
        seen.append(self.game_id)
        return decode(self, vec)

    monkeypatch.setattr(NativeGame, "decode", counted)
    return seen


def _verdict(data: Any) -> str | None:
    """None if ``positions.read`` accepts the Position JSON, else the field it names (from
    the position's root) and the decoder's words."""
    try:
        read(parse_position(data))
    except PositionError as e:
        return str(e)
    return None


CASES = [(g, options) for g in game_ids() for options in get_game(g).VARIANTS]


@pytest.mark.parametrize("game_id,options", CASES)
def test_mutated_positions_get_one_verdict_from_one_decode(game_id: str, options: dict[str, str],
                                                          decodes: list[str]) -> None:
    game, rnd = get_game(game_id), random.Random(7)
    state, rng = game.new_game(3, 7, **options), Rng(7)
    for _ in range(60):
        legal = state.legal_moves()
        state = state.apply(legal[rng.below(len(legal))], rng)
    base = to_position(state)
    paths, verdicts = list(_paths(base)), set()
    for _ in range(MUTANTS):
        data = copy.deepcopy(base)
        for path in rnd.sample(paths, rnd.choice((1, 1, 2))):
            value = copy.deepcopy(rnd.choice(VALUES)) if rnd.random() < 0.7 else rnd.randrange(-3, 60)
            try:
                _set(data, path, value)
            except (KeyError, IndexError, TypeError):  # an earlier change replaced a parent
                pass
        before = len(decodes)
        verdict = _verdict(data)
        assert decodes[before:] == ([game_id] if verdict is None else decodes[before:]), data
        assert len(decodes) - before <= 1, data  # none when the schema's read refused it first
        verdicts.add(verdict is None)
    assert verdicts == {True, False}


@pytest.mark.parametrize("game_id,options", CASES)
def test_a_search_rejection_is_explained_in_the_decoders_words(game_id: str, options: dict[str, str]) -> None:
    """A search reports a code and an index only: the field is named from the vector's own
    layout, the words are the C decoder's verdict."""
    game = get_game(game_id)
    vec = game.new_game(3, 7, **options).encode()
    index = len(vec) - 1
    vec[index] = 99
    error = explain(game_id, vec, NativeDecodeError(3, index))
    assert isinstance(error, PositionError)
    assert error.path == game.layout_for(vec)[index]
    assert error.problem.startswith("99 is above ") and error.problem.endswith("is not in a 3-player game)")


@pytest.mark.parametrize("game_id,options", CASES)
def test_a_position_read_natively_searches_as_its_state(game_id: str, options: dict[str, str],
                                                        decodes: list[str]) -> None:
    """``positions.read`` of a message (the service's path) stands in for the state: same
    vector, same player, the same analysis, lines of several moves named from their ids;
    its reference state is the state, and one C decode made it."""
    game, rng = get_game(game_id), Rng(5)
    state = game.new_game(3, 5, **options)
    for _ in range(40):
        legal = state.legal_moves()
        state = state.apply(legal[rng.below(len(legal))], rng)
    position = position_to_proto(state)
    before = len(decodes)
    checked = read(position)
    assert decodes[before:] == [game_id]
    seen = checked.state()
    assert seen == state and from_state(state).vector.tolist() == checked.vector.tolist()
    assert (checked.current_player, checked.num_players) == (seen.current_player, 3)
    assert (checked.vector == seen.encode()).all() and not checked.is_terminal
    direct = analyze(seen, Budget(iterations=400, threads=1), replace(game_params(seen.game_id), seed=3))
    searched = analyze(checked, Budget(iterations=400, threads=1), replace(game_params(checked.game_id), seed=3),
                   vector=checked.vector)
    assert dataclasses.replace(direct, elapsed_ms=0, cpu_ms=0) == dataclasses.replace(searched, elapsed_ms=0, cpu_ms=0)
    assert max(len(m.pv) for m in searched.moves) > 1
