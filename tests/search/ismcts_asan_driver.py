"""Run repeated toy-game searches through a sanitizer build (argv[1]: the module file).

Started by test_ismcts_sanitizer.py as ``python -m tests.search.ismcts_asan_driver``
in a subprocess with the ASan runtime preloaded."""

from __future__ import annotations

import pathlib
import sys
import threading

from meeplemind.search import SearchStop, analyze
from meeplemind.search.params import Budget, SearchParams

from . import ismcts_toy
from .ismcts_toy import ToyState, nim, opening, search


def main(path: str) -> None:
    module = ismcts_toy.load(pathlib.Path(path))
    toy = ismcts_toy.native_game(module)
    for seed in range(4):
        for state in (
            opening(),
            opening(players=2),
            nim(9),
            ToyState(pile=0, hand=(1, 2), to_move=-1, last_taker=0),
        ):
            analyze(state, Budget(iterations=3000, threads=2), SearchParams(seed=seed, margin_weight=0.3, pv_max=16), native=toy)
            analyze(state, Budget(iterations=500), SearchParams(seed=seed, rollout_policy="random"), native=toy)
            analyze(state, Budget(iterations=500), SearchParams(seed=seed, margin_weight=0.5, mast=0.5), native=toy)
            analyze(state, Budget(iterations=500), SearchParams(seed=seed, prior_weight=1.0, widening=0.5), native=toy)
    for action in opening().legal_actions()[:3]:  # a move's own search (game review)
        analyze(opening(), Budget(iterations=400, threads=2), SearchParams(seed=1, root_action=action), native=toy)
    try:
        analyze(opening(), Budget(iterations=10), SearchParams(root_action=10**6), native=toy)
    except ValueError:
        pass
    else:
        raise AssertionError("an illegal root_action was searched")
    endless = ismcts_toy.native_game(module, "toy_endless_game")  # truncated playouts end
    analyze(opening(), Budget(iterations=300), SearchParams(seed=1, playout_moves=7, guided_expansion=True), native=endless)
    for cap in (2, 3, 100, 5000):
        search(toy, opening(), max_iterations=10**6, max_nodes=cap)
    stop = SearchStop()
    threading.Timer(0.05, stop.set).start()
    analyze(opening(), Budget(iterations=10**9, threads=3), stop_event=stop, native=toy)
    analyze(opening(), Budget(time_ms=50), native=toy)
    search(toy, opening(), max_nodes=1)
    for broken in ("toy_endless_game", "toy_unsorted_game"):
        search(ismcts_toy.native_game(module, broken), opening())
    for index, value in ((0, 9), (3, 61), (7, 9)):
        vec = opening().encode()
        vec[index] = value
        search(toy, vec)
    search(toy, opening().encode()[:-1])


if __name__ == "__main__":
    main(sys.argv[1])
