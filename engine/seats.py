"""How seats are named where people read them: ``Seat 1`` … ``Seat N`` (``S1`` … in columns
and lines of play). Positions, moves, the command line's JSON and the wire (``Position.viewer``,
``current_player``, ``GameResult`` indices, ``pv_players``) number them from 0."""

from __future__ import annotations

from collections.abc import Sequence


def seat_name(seat: int) -> str:
    """``Seat 1`` for seat 0."""
    return f"Seat {seat + 1}"


def seat_tag(seat: int) -> str:
    """``S1`` for seat 0: the short name of tables and lines of play."""
    return f"S{seat + 1}"


def line_of_play(moves: Sequence[str], players: Sequence[int], seats: int) -> str:
    """A line of play of a ``seats``-player game naming its movers (``players[i]`` plays
    ``moves[i]``), each run of one seat's moves after its tag:
    ``S1 role:builder build:harbor · S2 build:market``; in a one-player game, or without
    a seat for each move, the moves alone."""
    if seats < 2 or len(players) != len(moves):
        return " ".join(moves)
    runs: list[str] = []
    for index, (move, player) in enumerate(zip(moves, players)):
        if index and player == players[index - 1]:
            runs[-1] += f" {move}"
        else:
            runs.append(f"{seat_tag(player)} {move}")
    return " · ".join(runs)
