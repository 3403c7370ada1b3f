"""ISMCTS and determinize on Traders of Genoa positions, for the sanitizer build.

Started by test_native_traders_of_genoa.py in a subprocess with the ASan runtime preloaded
(``MEEPLEMIND_NATIVE=asan``); prints one JSON line."""

from __future__ import annotations

import json
from dataclasses import replace

from meeplemind.engine import Rng
from meeplemind.engine.traders_of_genoa import new_game
from meeplemind.native import NativeGame
from meeplemind.search.ismcts import analyze
from meeplemind.search.params import Budget, game_params


def main() -> None:
    native, searches, samples = NativeGame("traders-of-genoa"), 0, 0
    for seed in range(8):
        s, rng, step = new_game(2 + seed % 4, seed), Rng(seed), 0
        while not s.is_terminal:
            if step % 50 == 0:  # (offers built item by item: games have about twice the decisions)
                seen = s.observation(s.current_player)
                analyze(seen, Budget(iterations=200, threads=2),
                        replace(game_params(seen.game_id), seed=step, rollout_policy="heuristic"))
                analyze(s, Budget(iterations=100), replace(game_params(s.game_id), seed=step, rollout_policy="random"))
                searches += 2
                for viewer in range(s.num_players):  # the mover or not: the build asserts every sample decodes
                    analyze(s, Budget(iterations=60), replace(game_params(s.game_id), seed=step, viewer=viewer))
                    analyze(s.observation(viewer), Budget(iterations=60),
                            replace(game_params("traders-of-genoa"), seed=step, viewer=viewer))
                    searches += 2
                    buf = native.decode(s.observation(viewer).encode())
                    native.determinize(buf, viewer, step)
                    native.decode(native.encode(buf))  # raises if the decoder refuses the sample
                    native.playouts(buf, 2, step, 1)
                    samples += 1
            legal = s.legal_moves()
            s = s.apply(legal[rng.below(len(legal))], rng)
            step += 1
    print(json.dumps({"searches": searches, "determinized": samples}))


if __name__ == "__main__":
    main()
