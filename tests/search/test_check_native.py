"""Every path checks a position with the one validator, the C decoder: the Rules path
(``from_message``: the reference State built from a vector C accepts) and the search
path (parsed without checks, then ``read_vector``). Mutated positions of every game and
variant must get the same verdict both ways (accepted, or PositionError naming the same
field in the same words), and nothing but PositionError may come out of either."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator
from typing import Any
from dataclasses import replace

import pytest

from meeplemind.engine import PositionError, Rng, game_ids, get_game
from meeplemind.engine.position import from_message, parse_position, state_key, state_vector, to_position
from meeplemind.native import NativeDecodeError
from meeplemind.search.ismcts import _explain, analyze, read_vector
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


def _verdict(check: bool, data: Any) -> str | None:
    """None if accepted, else the field named (from the position's root) and the words:
    by the game's ``decode``, or (not ``check``) by the native decoder on the vector read
    from the message, as the service's searches read it."""
    try:
        position = parse_position(data)
        from_message(position, check=check)
    except PositionError as e:
        return str(e)
    if not check:
        try:
            read_vector(position.game, state_vector(position))
        except PositionError as e:  # named within the game's state
            return f"{state_key(position.game)}.{e}"
    return None


CASES = [(g, options) for g in game_ids() for options in get_game(g).VARIANTS]


@pytest.mark.parametrize("game_id,options", CASES)
def test_mutated_positions_get_one_verdict(game_id: str, options: dict[str, str]) -> None:
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
        checked = _verdict(True, data)
        assert _verdict(False, data) == checked, data
        verdicts.add(checked is None)
    assert verdicts == {True, False}


@pytest.mark.parametrize("game_id,options", CASES)
def test_a_search_rejection_is_explained_in_the_decoders_words(game_id: str, options: dict[str, str]) -> None:
    """A search reports a code and an index only: the field is named from the vector's own
    layout, the words are the C decoder's verdict."""
    game = get_game(game_id)
    vec = game.new_game(3, 7, **options).encode()
    index = len(vec) - 1
    vec[index] = 99
    error = _explain(game_id, vec, NativeDecodeError(3, index))
    assert isinstance(error, PositionError)
    assert error.path == game.layout_for(vec)[index]
    assert error.problem.startswith("99 is above ") and error.problem.endswith("is not in a 3-player game)")


@pytest.mark.parametrize("game_id,options", CASES)
def test_a_position_read_natively_searches_as_its_state(game_id: str, options: dict[str, str]) -> None:
    """``read_vector`` of a message read by the schema (the service's path) stands in for
    the state: same vector, same player, the same analysis, lines of several moves named
    through the decoded state."""
    game, rng = get_game(game_id), Rng(5)
    state = game.new_game(3, 5, **options)
    for _ in range(40):
        legal = state.legal_moves()
        state = state.apply(legal[rng.below(len(legal))], rng)
    position = position_to_proto(state)
    seen, _ = from_message(position)
    checked = read_vector(game_id, state_vector(position))
    assert (checked.current_player, checked.num_players) == (seen.current_player, 3)
    assert (checked.vector == seen.encode()).all() and not checked.is_terminal
    direct = analyze(seen, Budget(iterations=400, threads=1), replace(game_params(seen.game_id), seed=3))
    read = analyze(checked, Budget(iterations=400, threads=1), replace(game_params(checked.game_id), seed=3),
                   vector=checked.vector)
    assert dataclasses.replace(direct, elapsed_ms=0, cpu_ms=0) == dataclasses.replace(read, elapsed_ms=0, cpu_ms=0)
    assert max(len(m.pv) for m in read.moves) > 1
