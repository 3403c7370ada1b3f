"""The heuristic bot and the text board."""

from __future__ import annotations

from meeplemind.engine import Rng
from meeplemind.engine.castles_of_burgundy import new_game
from meeplemind.engine.castles_of_burgundy.heuristic import choose_move

from .helpers import fresh, give, goods, play, put


def test_heuristic_beats_random_players() -> None:
    wins = 0
    for seed in range(12):
        s, rng = new_game(3, seed), Rng(seed)
        bot = seed % 3
        while not s.is_terminal:
            if s.current == bot:
                move = choose_move(s, rng)
            else:
                moves = s.legal_moves()
                move = moves[rng.below(len(moves))]
            s = s.apply(move, rng)
        wins += s.winners() == [bot]
    assert wins >= 11


def test_heuristic_completes_a_region_and_sells() -> None:
    s = fresh(2)
    s.players[0].dice = [3, 4]
    give(s, 0, "bank")
    goods(s, 0, g4=3)
    assert str(choose_move(s, Rng(1))) == "place:12@3"  # a city of one: 11 VP now
    s = play(s, "place:12@3")
    assert str(choose_move(s, Rng(1))) == "sell:4@4"


def test_render_shows_the_board() -> None:
    s = fresh(2)
    put(s, 0, {18: "ship", 12: "city_hall"})
    text = str(s)
    assert text.startswith("phase A round 1, stage turn, Seat 1 to move; turn order S1 S2")
    assert "\nS1: " in text and "\nS2: " in text
    assert "  depot 1:" in text and "  black:" in text
    assert "    s6  s1  Shp Cas s5  s4  s1 " in text and "CtH" in text
