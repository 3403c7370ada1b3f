"""Game records for review tests: a self-play stretch of heuristic Puerto Rico with a
planted blunder, as the search's PlayedMoves and as a GameRecord's JSON."""

from __future__ import annotations

from typing import Any

from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import to_position
from meeplemind.search.bots import make_bot
from meeplemind.search.review import PlayedMove

#: Heuristic self-play, 2 players, seed 1: at move 174 P0 should sell sugar (a search of
#: 1,500 iterations per move gives it 0.87 and a pass 0.40); the record starts 10 moves
#: before, the planted pass is its move 10, and the bots play 11 more after it.
SEED, BLUNDER_AT, BLUNDER, BEFORE, AFTER = 1, 174, "pass", 10, 11


def planted_blunder() -> tuple[Any, list[PlayedMove]]:
    """The start state and the moves of the record (the blunder is ``moves[BEFORE]``)."""
    state = get_game("puerto-rico").new_game(2, SEED)
    bots = [make_bot("heuristic", seed=SEED + 1000 * i) for i in range(2)]
    rng, start, moves = Rng(SEED ^ 0x5EED), None, []
    for index in range(BLUNDER_AT + AFTER + 1):
        if index == BLUNDER_AT - BEFORE:
            start = state
        move = BLUNDER if index == BLUNDER_AT else str(bots[state.current_player].choose(state))
        if start is not None:
            moves.append(PlayedMove(move, rng.state))
        state = state.apply(move, rng)
    assert start is not None and not state.is_terminal
    return start, moves


def record_json(start: Any, moves: list[PlayedMove]) -> dict[str, Any]:
    """The GameRecord JSON of a record whose moves carry seeds."""
    return {"start": to_position(start), "moves": [{"move": m.move, "seed": str(m.seed)} for m in moves]}
