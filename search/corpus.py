"""Position corpora from self-play, for load tests and benchmarks.

Heuristic bots play seeded games; positions are sampled at every stage (early, mid,
late by progress through the game) for every player count and rule variant of every
game.  Each line of the output is one JSON object: ``{"game", "options", "players",
"stage", "ply", "position"}`` where ``position`` is the Position JSON the service and
the CLI read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..engine import Rng, game_ids, get_game, parse_options
from ..engine.game import Game
from ..positions.messages import to_position
from .bots import HeuristicBot
from .progress import progress_bar

STAGES = ("early", "mid", "late")


def _game_states(game: Game, players: int, options: dict[str, str], seed: int) -> list[Any]:
    state = game.new_game(players, seed, **parse_options(game.OPTION_VALUES, options))
    bot, rng, states = HeuristicBot(seed), Rng(seed), []
    while not state.is_terminal:
        states.append(state)
        state = state.apply(bot.choose(state), rng)
    return states


def games_played(games: Sequence[str] | None = None, per_stage: int = 4) -> int:
    """How many self-play games ``corpus`` plays (one per position of each stage)."""
    return per_stage * sum(len(get_game(g).VARIANTS) * len(get_game(g).PLAYER_COUNTS)
                           for g in games or game_ids())


def corpus(games: Sequence[str] | None = None, per_stage: int = 4, seed: int = 1,
           played: Callable[[], Any] | None = None) -> Iterator[dict[str, Any]]:
    """``per_stage`` positions per (game, variant, player count, stage), from distinct
    games; ``played`` is called after each game."""
    for game_id in games or game_ids():
        game = get_game(game_id)
        for variant, options in enumerate(game.VARIANTS):
            for players in game.PLAYER_COUNTS:
                for i in range(per_stage):
                    states = _game_states(game, players, options,
                                          seed * 10000 + variant * 1000 + players * 100 + i)
                    if played:
                        played()
                    for s, stage in enumerate(STAGES):
                        ply = (2 * s + 1) * len(states) // (2 * len(STAGES))
                        yield {"game": game_id, "options": options, "players": players, "stage": stage,
                               "ply": ply, "position": to_position(states[ply])}


def write_corpus(path: str, games: Sequence[str] | None = None, per_stage: int = 4, seed: int = 1,
                 progress: bool = True) -> int:
    """Write the corpus as JSON lines; the number of positions. The file appears whole
    (written aside, then renamed), so processes that write it at once all read a whole
    corpus. ``progress``: a bar on a terminal's standard error."""
    count, partial = 0, f"{path}.{os.getpid()}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as f, progress_bar(
                games_played(games, per_stage), "game", "corpus", enabled=progress) as bar:
            for entry in corpus(games, per_stage, seed, played=bar.update):
                f.write(json.dumps(entry) + "\n")
                count += 1
        os.replace(partial, path)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path) from None
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return count
