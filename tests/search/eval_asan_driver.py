"""The learned evaluation through the sanitizer build: C self-play samples, evaluations
and searches with truncated playouts of every game with one (run by
test_playout_levers.py under ``run_sanitized``; prints a JSON line of counts)."""

from __future__ import annotations

import json
from dataclasses import replace

from meeplemind.engine import get_game
from meeplemind.native import NativeGame
from meeplemind.search import analyze
from meeplemind.search.params import Budget, game_params

SETUPS = (("puerto-rico", 5, {}), ("puerto-rico", 3, {"expansion": "new-buildings"}), ("castles-of-burgundy", 4, {}),
          ("traders-of-genoa", 5, {}))


def main() -> None:
    counts = {}
    for game, players, options in SETUPS:
        state = get_game(game).new_game(players, seed=2, **options)
        native = NativeGame(game)
        buf = native.decode(state.encode())
        inputs, info = native.eval_samples(buf, 1, seed=3, every=4, cap=200)
        for _ in range(3):
            assert native.evaluate(buf) is not None
        result = analyze(state, Budget(iterations=150, threads=2), replace(game_params(state.game_id), seed=4, playout_moves=3))
        counts[f"{game}/{players}"] = len(info) + result.iterations
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
