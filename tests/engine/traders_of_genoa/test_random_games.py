"""Random and heuristic games with invariants checked at every move, and the heuristic's strength."""

from __future__ import annotations

import pytest

from meeplemind.positions import checked_state
from meeplemind.engine import Rng
from meeplemind.engine.traders_of_genoa import ALL_MOVES, NUM_ACTIONS, Move, new_game
from meeplemind.engine.traders_of_genoa.heuristic import choose_move
from meeplemind.engine.traders_of_genoa.moves import offer_moves
from meeplemind.native import NativeGame


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players: int) -> None:
    native = NativeGame("traders-of-genoa")
    for seed in range(6):
        s, rng = new_game(players, seed), Rng(seed)
        while not s.is_terminal:
            vec = s.encode()
            assert checked_state("traders-of-genoa", vec) == s  # the C decoder accepts it
            legal = s.legal_action_ids()
            assert legal == sorted(set(legal)) and len(legal) >= 2  # forced moves play themselves
            assert len(legal) <= native.max_legal
            for a in legal:
                assert Move.parse(str(Move.from_id(a))).id == a
            move = choose_move(s, rng) if seed % 2 else Move.from_id(legal[rng.below(len(legal))])
            before = s.copy()
            after = s.apply(str(move) if seed % 3 == 0 else move, rng)
            assert s == before  # apply returns a new state
            s = after
        assert s.current_player is None and s.legal_action_ids() == []
        assert sum(s.returns()) == pytest.approx(1.0)


def test_move_table() -> None:
    assert [m.id for m in ALL_MOVES] == list(range(NUM_ACTIONS))
    for text in ("roll", "start:3.6", "move:w", "give:20", "give:silk", "give:small_16", "give:special:trade",
                 "give:marker", "offer", "accept:4", "large:16",
                 "special:extra_action", "good:wheat", "trade:salt>silk", "deliver:16", "palace:park",
                 "base:2.3", "mark:harbor", "privilege", "done", "lapse", "take", "pass", "stop"):
        assert str(Move.parse(text)) == text
    for bad in ("give:7", "give:moon", "offer:20", "start:0.3", "start:9.1", "trade:salt>salt", "accept:5", "mark:moon"):
        with pytest.raises(ValueError, match="move"):
            Move.parse(bad)


def test_a_whole_offer_is_its_gives_then_offer() -> None:
    assert [str(m) for m in offer_moves("offer:25+silk+small_16+silk")] == [
        "give:20", "give:5", "give:silk", "give:silk", "give:small_16", "offer"]
    assert [str(m) for m in offer_moves("offer:marker+special:trade+195")] == [
        "give:100", "give:50", "give:10", "give:10", "give:10", "give:10", "give:5", "give:special:trade",
        "give:marker", "offer"]
    for bad in ("offer:7", "offer:0", "offer:5+5", "offer:moon", "offer:05"):
        with pytest.raises(ValueError, match="move"):
            offer_moves(bad)


@pytest.mark.parametrize("players", [2, 3])
def test_heuristic_beats_random_players(players: int) -> None:
    wins = 0
    for seed in range(10):
        s, rng, hero = new_game(players, seed), Rng(seed), seed % players
        while not s.is_terminal:
            if s.current_player == hero:
                move = choose_move(s, rng)
            else:
                legal = s.legal_moves()
                move = legal[rng.below(len(legal))]
            s = s.apply(move, rng)
        wins += hero in s.winners()
    assert wins >= 9


def test_seeded_games_replay() -> None:
    def transcript(seed: int) -> list[str]:
        s, rng, line = new_game(4, seed), Rng(seed), []
        while not s.is_terminal:
            legal = s.legal_moves()
            line.append(str(legal[rng.below(len(legal))]))
            s = s.apply(line[-1], rng)
        return line + [str(s.scores())]

    assert transcript(5) == transcript(5)
    assert transcript(5) != transcript(6)
