"""Final scoring (rules §10) and the tie-break."""

from __future__ import annotations

from meeplemind.engine import Rng
from meeplemind.engine.castles_of_burgundy import new_game
from meeplemind.engine.castles_of_burgundy.heuristic import choose_move
from meeplemind.engine.castles_of_burgundy.scoring import end_points

from .helpers import check, fresh, goods, put


def test_end_scoring_goods_silverlings_and_pairs_of_workers() -> None:
    s = fresh(2)
    p = s.players[0]
    p.vp, p.silverlings, p.workers = 10, 3, 5
    goods(s, 0, g1=2, g4=1)
    check(s)
    assert end_points(p) == 3 + 3 + 2
    assert s.scores()[0] == 10 + 8


def test_tie_break_fewest_empty_spaces_then_further_back_in_turn_order() -> None:
    s = fresh(2)
    a, b = s.players
    a.vp, a.silverlings, a.workers = 10, 3, 5  # 10 + 3 + 2 = 15
    b.vp, b.silverlings, b.workers = 14, 1, 0  # 14 + 1 = 15
    check(s)
    assert s.scores() == [15, 15]
    assert s.tiebreaks() == [-4 * 36, -4 * 36 + 1]  # one key: -4 x empty spaces + track place
    assert s.winners() == [1]  # same empty spaces: seat 1 is behind seat 0 on the track
    s.ranking = [1, 0]
    assert s.winners() == [0]
    put(s, 1, {25: "mine"})
    assert s.tiebreaks() == [-4 * 36 + 1, -4 * 35]
    assert s.winners() == [1] and s.returns() == [0.0, 1.0]  # one empty space fewer


def test_a_whole_game_scores_vp_plus_the_end_points_and_has_one_winner() -> None:
    for n in (2, 3, 4):
        s, rng = new_game(n, 3), Rng(3)
        while not s.is_terminal:
            s = s.apply(choose_move(s, rng), rng)
        check(s)
        assert s.scores() == [p.vp + end_points(p) for p in s.players]
        assert len(s.winners()) == 1 and sum(s.returns()) == 1.0
        assert max(s.scores()) > 100  # the heuristic bot plays a real game
