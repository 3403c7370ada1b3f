"""A game's result: ranks by (score, tie-break), shared places, winners (every game)."""

from __future__ import annotations

from meeplemind.engine import get_game


def test_ranks_share_places_and_skip_the_next() -> None:
    state = get_game("puerto-rico").new_game(4, 1)
    for player, (vp, doubloons) in zip(state.players, [(5, 1), (7, 0), (5, 1), (3, 9)]):
        player.vp_chips, player.doubloons = vp, doubloons
    result = state.result()
    assert result.scores == [5, 7, 5, 3] and result.tiebreaks == [1, 0, 1, 9]
    assert (result.ranks, result.winners) == ([2, 1, 2, 4], [1])
    state.players[1].vp_chips = 5
    assert (state.ranks(), state.winners()) == ([1, 3, 1, 4], [0, 2])
    assert state.returns() == [0.5, 0.0, 0.5, 0.0]


def test_castles_of_burgundy_ranks_follow_its_tiebreak() -> None:
    state = get_game("castles-of-burgundy").new_game(3, 2)
    keys = list(zip(state.scores(), state.tiebreaks()))
    assert state.ranks() == [1 + sorted(keys, reverse=True).index(k) for k in keys]
    assert state.winners() == [p for p, rank in enumerate(state.ranks()) if rank == 1]
